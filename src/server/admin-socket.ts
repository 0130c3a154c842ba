import { chmod, mkdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { dirname } from 'node:path';
import type { Plan } from '../auth/plans.ts';
import { createToken, listTokens, revokeToken } from '../auth/tokens.ts';
import type { Database } from '../db/database.ts';
import { logger } from '../http/observability/logger.ts';
import { type AdminRequest, type AdminResponse, adminSocketPath } from './admin-protocol.ts';

/** Longest request line accepted; a token command is a few hundred bytes. */
const maxRequestBytes = 16 * 1024;

async function answer(
  db: Database,
  plans: ReadonlyMap<string, Plan>,
  request: AdminRequest,
): Promise<AdminResponse> {
  switch (request.command) {
    case 'create': {
      const created = await createToken(db, plans, { plan: request.plan, label: request.label });
      return { ok: true, token: created.token };
    }
    case 'list': {
      const rows = await listTokens(db);
      return {
        ok: true,
        tokens: rows.map((row) => ({
          id: row.id,
          hint: row.hint,
          plan: row.plan,
          label: row.label,
          createdAt: row.createdAt.toISOString(),
          revokedAt: row.revokedAt ? row.revokedAt.toISOString() : null,
        })),
      };
    }
    case 'revoke':
      return { ok: true, revoked: await revokeToken(db, request.idOrToken) };
    default:
      return { ok: false, error: 'Unknown command.' };
  }
}

/**
 * The embedded store admits one process, so while the server runs the token commands ask it instead: a Unix socket
 * beside the store (`<DATA_DIR>.admin/socket`), in a directory only the owning user may enter (0700), the socket
 * itself 0600. One JSON line in, one JSON line out, then the connection closes.
 */
export async function openAdminSocket(
  dataDir: string,
  db: Database,
  plans: ReadonlyMap<string, Plan>,
): Promise<{ path: string; close(): Promise<void> }> {
  const path = adminSocketPath(dataDir);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await chmod(dirname(path), 0o700);
  // A socket file left by a process that was killed: the store's lock is ours, so nobody else listens on it.
  await rm(path, { force: true });
  const server: Server = createServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > maxRequestBytes) {
        socket.end(`${JSON.stringify({ ok: false, error: 'Request too large.' })}\n`);
        return;
      }
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      socket.pause();
      let request: AdminRequest;
      try {
        request = JSON.parse(buffered.slice(0, end)) as AdminRequest;
      } catch {
        socket.end(`${JSON.stringify({ ok: false, error: 'Malformed request.' })}\n`);
        return;
      }
      answer(db, plans, request).then(
        (response) => socket.end(`${JSON.stringify(response)}\n`),
        (error: unknown) => {
          logger().warn({ err: error, command: request.command }, 'admin socket command failed');
          socket.end(`${JSON.stringify({ ok: false, error: (error as Error).message })}\n`);
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }).then(() => rm(path, { force: true })),
  };
}
