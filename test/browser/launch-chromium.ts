import { type Browser, chromium } from 'playwright-core';
import { testServices } from '../support/services.ts';

/** Debian's headless Chromium (or CHROMIUM_PATH), kept off the network for anything but the pages under test. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: testServices.chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
