import type { Socket } from 'node:net';
import type { DatabaseHandle } from '../db/database.ts';
import { resolveOrganisations, resolveProfiles } from '../domain/resolve/index.ts';
import { type ReceivedMessage, sendMessage } from './admin-messages.ts';
import type { AdminResolveRequest, AdminResponse } from './admin-protocol.ts';

/**
 * `orgraph resolve` on the embedded store while the server holds it: one call of at most 1,000 inputs a connection.
 * The inputs come as a JSON payload after the request and the rows go back as one, since either may pass the 64 KiB
 * a message line may hold.
 */
export async function answerResolve(
  socket: Socket,
  messages: AsyncGenerator<ReceivedMessage>,
  handle: DatabaseHandle,
  request: AdminResolveRequest,
): Promise<AdminResponse> {
  const next = await messages.next();
  if (next.done || !next.value.payload) return { ok: false, error: 'A resolve call sends its inputs.' };
  const inputs: unknown = JSON.parse(next.value.payload.toString('utf8'));
  if (!Array.isArray(inputs)) return { ok: false, error: 'A resolve call sends its inputs as a list.' };
  const options = { minScore: request.minScore, maxCandidates: request.maxCandidates };
  const rows =
    request.kind === 'profiles'
      ? await resolveProfiles(handle.db, inputs, options)
      : await resolveOrganisations(handle.db, inputs, options);
  await sendMessage(socket, { rows: true }, Buffer.from(JSON.stringify(rows)));
  return { ok: true, resolved: rows.length };
}
