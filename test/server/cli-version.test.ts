import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('orgraph --version', () => {
  it('prints the package version and nothing else, without opening a database', async () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    // A DATABASE_URL nobody listens on: the version must not need it.
    const env = { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' };
    for (const flag of ['--version', '-V']) {
      const { stdout, stderr } = await runCli([flag], env);
      expect(stdout).toBe(`${version}\n`);
      expect(stderr).toBe('');
    }
  });

  it('is listed in the help', async () => {
    const { stdout } = await runCli(['--help'], {});
    expect(stdout).toMatch(/-V, --version\s+print the version/);
  });
});
