import { chmod, mkdir, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import type { Plan } from '../auth/plans.ts';
import { createToken, listTokens, revokeToken } from '../auth/tokens.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { logger } from '../http/observability/logger.ts';
import { readMessages, sendMessage } from './admin-messages.ts';
import { type AdminRequest, type AdminResponse, adminSocketPath } from './admin-protocol.ts';
import { RecordsCommands, type SeedRunner } from './admin-records.ts';
import { answerResolve } from './admin-resolve.ts';

/** How long a connection may stay silent before its first message. */
const firstMessageMs = 10_000;

async function answerTokenCommand(
  handle: DatabaseHandle,
  plans: ReadonlyMap<string, Plan>,
  request: AdminRequest,
): Promise<AdminResponse> {
  switch (request.command) {
    case 'create': {
      const created = await createToken(handle.db, plans, { plan: request.plan, label: request.label });
      return { ok: true, token: created.token };
    }
    case 'list': {
      const rows = await listTokens(handle.db);
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
      return { ok: true, revoked: await revokeToken(handle.db, request.idOrToken) };
    default:
      return { ok: false, error: 'Unknown command.' };
  }
}

async function converse(
  socket: Socket,
  handle: DatabaseHandle,
  plans: ReadonlyMap<string, Plan>,
  records: RecordsCommands,
): Promise<void> {
  socket.setTimeout(firstMessageMs, () => socket.destroy());
  const messages = readMessages(socket);
  let request: AdminRequest;
  try {
    const first = await messages.next();
    if (first.done) return;
    request = first.value.message as AdminRequest;
  } catch (error) {
    socket.end(`${JSON.stringify({ ok: false, error: (error as Error).message })}\n`);
    return;
  }
  // A records command may stay silent while the server works (resolving links, a long seed phase).
  socket.setTimeout(0);
  let response: AdminResponse;
  try {
    switch (request.command) {
      case 'import':
        response = await records.importRecords(socket, request);
        break;
      case 'import-source':
        records.attachSource(request.key, socket, messages);
        return;
      case 'export':
        response = await records.exportRecords(socket, request);
        break;
      case 'seed':
        response = await records.seed(socket, request);
        break;
      case 'resolve':
        response = await answerResolve(socket, messages, handle, request);
        break;
      default:
        response = await answerTokenCommand(handle, plans, request);
    }
  } catch (error) {
    logger().warn({ err: error, command: request.command }, 'admin socket command failed');
    response = { ok: false, error: (error as Error).message };
  }
  if (socket.writable) await sendMessage(socket, response).catch(() => {});
  socket.end();
}

/**
 * The embedded store admits one process, so while the server runs the CLI asks it instead: a Unix socket beside
 * the store (`<DATA_DIR>.admin/socket`), in a directory only the owning user may enter (0700), the socket itself
 * 0600. Each connection opens with one request (admin-protocol.ts).
 */
export async function openAdminSocket(
  dataDir: string,
  handle: DatabaseHandle,
  plans: ReadonlyMap<string, Plan>,
  seed?: SeedRunner,
): Promise<{ path: string; close(): Promise<void> }> {
  const path = adminSocketPath(dataDir);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await chmod(dirname(path), 0o700);
  // A socket file left by a process that was killed: the store's lock is ours, so nobody else listens on it.
  await rm(path, { force: true });
  const records = new RecordsCommands(handle, seed);
  const connections = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => {});
    converse(socket, handle, plans, records).catch((error: unknown) => {
      logger().warn({ err: error }, 'admin socket connection failed');
      socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  return {
    path,
    // A records command is cut off (an import's files stop coming, so it fails) and waited for, so that the store
    // closes after it.
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of connections) socket.destroy();
      await records.idle();
      await closed;
      await rm(path, { force: true });
    },
  };
}
