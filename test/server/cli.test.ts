import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/tokens.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, queryRows } from '../../src/db/database.ts';
import { exitCode, runCli, startCli } from '../support/cli.ts';

// On the embedded database every case gets a fresh store of its own; on Postgres, the test database.
const onPostgres = Boolean(process.env.DATABASE_URL);
let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'orgraph-cli-'));
  env = onPostgres ? {} : { DATA_DIR: dataDir };
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('orgraph token', () => {
  it('creates a token, prints only it, and stores only its hash', async () => {
    const { stdout } = await runCli(['token', 'create', '--plan', 'enterprise', '--label', 'cli test'], env);
    const token = stdout.trim();
    expect(token).toMatch(/^orgr_[A-Za-z0-9_-]{49}$/);

    const handle = await openDatabase(loadConfig({ ...process.env, ...env }));
    try {
      const rows = await queryRows<Record<string, unknown>>(
        handle.db,
        sql`select * from api_tokens where token_hash = ${hashToken(token)}`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ plan: 'enterprise', label: 'cli test', revoked_at: null });
      expect(JSON.stringify(rows[0])).not.toContain(token);
    } finally {
      await handle.close();
    }

    const listed = await runCli(['token', 'list'], env);
    expect(listed.stdout).toContain(`${token.slice(0, 11)}…`);
    expect(listed.stdout).not.toContain(token);

    await runCli(['token', 'revoke', token], env);
    const afterRevoke = await runCli(['token', 'list'], env);
    const line = afterRevoke.stdout.split('\n').find((row) => row.includes(token.slice(0, 11)));
    expect(line).toContain('revoked');
    // Four CLI processes, each opening the store (the first one migrating it): about 5–13 s apiece on the embedded one.
  }, 120_000);

  it('refuses an unknown plan', async () => {
    await expect(runCli(['token', 'create', '--plan', 'platinum'], env)).rejects.toThrow(
      /Unknown plan "platinum"/,
    );
  });
});

describe('orgraph start', () => {
  it('migrates, loads the demo data when empty, becomes ready, and exits 0 on SIGTERM', async () => {
    const { child, url } = await startCli(['start'], env);
    try {
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exitCode(child)).toBe(0);

    const handle = await openDatabase(loadConfig({ ...process.env, ...env }));
    try {
      const [row] = await queryRows<{ organisations: number }>(
        handle.db,
        sql`select count(*)::int as organisations from organisations`,
      );
      expect(row?.organisations).toBeGreaterThan(1000);
    } finally {
      await handle.close();
    }
  }, 180_000);
});
