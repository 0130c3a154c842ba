import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Browser, Locator, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlans } from '../../src/auth/plans.ts';
import { createToken } from '../../src/auth/tokens.ts';
import { loadConfig } from '../../src/config.ts';
import { type RunningServer, startServer } from '../../src/server/listen.ts';
import { feedDatabase } from '../feed/support.ts';
import { needs } from '../support/services.ts';
import { launchChromium } from './launch-chromium.ts';

// The served GraphiQL page running `subscription { savedSearchEvents }` in Debian's chromium, over Server-Sent
// Events, while this file commits matching events. The server runs in this process (the embedded store admits one
// process, and the test writes the events through the server's own handle); on PostgreSQL, on a seeded database
// of its own, as the feed tests do.
const withChromium = needs('chromium');
const database = await feedDatabase('browser');

let server: RunningServer;
let browser: Browser;
let token: string;

beforeAll(async () => {
  if (!withChromium) return;
  const config = loadConfig({
    ...process.env,
    ...database.env,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
  });
  server = await startServer(config);
  token = (
    await createToken(server.services.db, loadPlans(config.plansFile), {
      plan: 'enterprise',
      label: 'graphiql subscription test',
    })
  ).token;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (server) {
    await server.services.db.execute(sql`delete from events where deal_type like 'graphiql-%'`);
    await server.shutdown();
  }
});

/** Commits one event of `dealType`, a copy of a seeded deal, in a transaction of its own. */
const commitDeal = (reference: string, dealType: string) =>
  server.services.db.execute(
    sql.raw(`insert into events (reference, type, summary, publish_date, organisation_reference, acquirer_reference,
      acquiree_reference, deal_type, deal_status, details)
    select '${reference}'::uuid, type, 'a deal seen in GraphiQL', publish_date, organisation_reference,
      acquirer_reference, acquiree_reference, '${dealType}', deal_status, details
    from events where type = 'deal' and acquirer_reference is not null and acquiree_reference is not null
    order by reference limit 1`),
  );

/**
 * Presses GraphiQL's execute button until it sends the subscription, at most five times, and waits for the stream's
 * answer. An early press is lost: GraphiQL sends nothing, or runs the operation it had before the edit (seen on a
 * quiet machine, where the first press came before GraphiQL was ready and the test waited out its 30 s). So a press
 * is repeated when, 2 s or more after it, GraphiQL has sent no subscription, has no other request in flight and offers
 * to execute again; once the subscription is sent the button is left alone, since a press then would stop it.
 */
async function runUntilStreaming(execute: Locator, streamed: Promise<Response>): Promise<Response> {
  const page = execute.page();
  let subscriptionSent = false;
  let othersInFlight = 0;
  const isGraphql = (request: Request) => new URL(request.url()).pathname === '/graphql';
  const isSubscription = (request: Request) =>
    `${new URL(request.url()).searchParams.get('query') ?? ''}${request.postData() ?? ''}`.includes(
      'savedSearchEvents',
    );
  const onRequest = (request: Request) => {
    if (!isGraphql(request)) return;
    if (isSubscription(request)) subscriptionSent = true;
    else othersInFlight += 1;
  };
  const onDone = (request: Request) => {
    if (isGraphql(request) && !isSubscription(request)) othersInFlight -= 1;
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  try {
    for (let press = 1; press <= 5 && !subscriptionSent; press += 1) {
      await execute.click();
      for (let waited = 0; waited < 10_000 && !subscriptionSent; waited += 250) {
        await page.waitForTimeout(250);
        if (waited < 2_000 || subscriptionSent || othersInFlight > 0) continue;
        if ((await execute.getAttribute('aria-label'))?.startsWith('Execute')) break;
      }
    }
    return await streamed;
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  }
}

/** Replaces an editor's text as a person would: select everything, delete, type. */
async function replaceText(editor: Locator, text: string): Promise<void> {
  await editor.click();
  await editor.page().keyboard.press('Control+A');
  await editor.page().keyboard.press('Delete');
  await editor.page().keyboard.insertText(text);
}

describe('the savedSearchEvents subscription in GraphiQL', () => {
  it('shows each committed matching event in the result pane as it arrives over Server-Sent Events', async () => {
    const dealType = `graphiql-${randomUUID()}`;
    const saved = await fetch(`${server.url}/v1/search/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: [{ fieldType: 'DealType', label: dealType, value: dealType, operator: 'EQUAL' }],
      }),
    });
    expect(saved.status).toBe(201);
    const { queryId } = ((await saved.json()) as { success: { queryId: string } }).success;

    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    try {
      await page.goto(`${server.url}/graphql`);
      const execute = page.locator('.graphiql-execute-button');
      await execute.waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Headers' }).click();
      await replaceText(
        page.locator('.graphiql-editor-tool .graphiql-editor').last(),
        JSON.stringify({ Authorization: `Bearer ${token}` }),
      );
      await replaceText(
        page.locator('.graphiql-query-editor'),
        `subscription Following { savedSearchEvents(queryId: "${queryId}") { change cursor event { reference summary } } }`,
      );

      // GraphiQL sends a subscription as a GET with the operation in the query string.
      const streamed = page.waitForResponse(
        (response) =>
          new URL(response.url()).pathname === '/graphql' &&
          (new URL(response.url()).searchParams.get('query') ?? '').includes('savedSearchEvents'),
        { timeout: 60_000 },
      );
      const response = await runUntilStreaming(execute, streamed);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toMatch(/text\/event-stream/);

      // Each commit's row replaces the one before in the result pane, as GraphiQL shows a subscription.
      const result = page.locator('.graphiql-response');
      for (const reference of [randomUUID(), randomUUID()]) {
        await commitDeal(reference, dealType);
        await result.getByText(reference, { exact: false }).first().waitFor({ timeout: 20_000 });
        const shown = (await result.innerText()).replaceAll('\u00a0', ' ');
        expect(shown).toContain('"change": "ADDED"');
        expect(shown).toContain('"summary": "a deal seen in GraphiQL"');
        expect(shown).not.toContain('"errors"');
      }
      // Still streaming: the button stops the subscription.
      await execute.click();
    } finally {
      await page.close();
    }
  }, 150_000);
});
