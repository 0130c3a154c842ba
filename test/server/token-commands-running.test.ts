import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSocketPath } from '../../src/server/admin-protocol.ts';
import { exitCode, runCli, startCli } from '../support/cli.ts';
import { copyEmptyStore } from '../support/worker-stores.ts';

/** `orgraph token …` on the embedded store works while `orgraph serve` holds it, and again once it stopped. */
let root: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'orgraph-admin-'));
  env = { DATABASE_URL: '', DATA_DIR: join(root, 'data') };
  await copyEmptyStore(env.DATA_DIR as string);
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function call(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/v1/search/suggestions?query=a`, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  await response.arrayBuffer();
  return response.status;
}

describe('token commands on the embedded store', () => {
  it('create, list and revoke through the running server, then directly once it stopped', {
    timeout: 300_000,
  }, async () => {
    const { child, url } = await startCli(['serve'], env);
    try {
      const socket = adminSocketPath(env.DATA_DIR as string);
      expect((await stat(socket)).mode & 0o777).toBe(0o600);
      expect((await stat(dirname(socket))).mode & 0o777).toBe(0o700);

      const created = await runCli(
        ['token', 'create', '--plan', 'enterprise', '--label', 'while running'],
        env,
      );
      const token = created.stdout.trim();
      expect(token).toMatch(/^orgr_[A-Za-z0-9_-]{49}$/);
      expect(await call(url, token)).toBe(200);

      const listed = await runCli(['token', 'list'], env);
      const line = listed.stdout.split('\n').find((row) => row.includes(`${token.slice(0, 11)}…`));
      expect(line?.split('\t').slice(2, 4)).toEqual(['enterprise', 'active']);
      expect(line?.endsWith('\twhile running')).toBe(true);
      expect(listed.stdout).not.toContain(token);

      const revoked = await runCli(['token', 'revoke', token], env);
      expect(revoked.stderr.trim()).toBe('Token revoked.');
      // Revoked at once: the server that answered 200 a moment ago refuses it now.
      expect(await call(url, token)).toBe(401);
      await expect(runCli(['token', 'revoke', token], env)).rejects.toThrow(/No active token matches\./);
      await expect(runCli(['token', 'create', '--plan', 'platinum'], env)).rejects.toThrow(
        /Unknown plan "platinum"/,
      );
    } finally {
      child.kill('SIGTERM');
      expect(await exitCode(child)).toBe(0);
    }
    await expect(stat(adminSocketPath(env.DATA_DIR as string))).rejects.toMatchObject({ code: 'ENOENT' });

    // Server stopped: the commands open the store themselves.
    const listed = await runCli(['token', 'list'], env);
    const rows = listed.stdout.trim().split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toBe('ID\tTOKEN\tPLAN\tSTATE\tCREATED\tLABEL');
    expect(rows[1]?.split('\t')[3]).toMatch(/^revoked \d{4}-\d\d-\d\dT/);
    const created = await runCli(['token', 'create', '--plan', 'starter'], env);
    expect(created.stdout.trim()).toMatch(/^orgr_/);
  });
});
