import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { ImportProgress, ImportSummary } from '../domain/import/import-records.ts';
import type { ReceivedMessage } from '../server/admin-messages.ts';
import { type AdminConversation, converseWithRunningServer, finalAnswer } from './admin-client.ts';
import type { FileBytes } from './import-progress.ts';

// The CLI's side of `import`, `export` and `seed` run by the server on its embedded store (admin-records.ts).

/** Tells the user that the server is busy with another records command, which this one waits for. */
function reportWaiting({ message }: ReceivedMessage): boolean {
  if (typeof message.waiting !== 'string') return false;
  process.stderr.write(
    `The server is running ${message.waiting} already: this command starts when it ends.\n`,
  );
  return true;
}

async function writeTo(stream: Writable, payload: Buffer): Promise<void> {
  if (!stream.write(payload)) await once(stream, 'drain');
}

/** Sends file `name` (or standard input, `-`) on a connection of its own, as the import asked with `key`. */
async function sendFile(
  dataDir: string,
  key: string,
  name: string,
  sent: (bytes: number) => void,
): Promise<void> {
  const conversation = await converseWithRunningServer(dataDir, { command: 'import-source', key });
  if (!conversation) return;
  const { socket } = conversation;
  socket.on('error', () => {});
  const input = name === '-' ? process.stdin : createReadStream(name, { highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of input) {
      await conversation.send({}, chunk as Buffer);
      sent((chunk as Buffer).length);
    }
    await conversation.send({ end: true });
  } catch (error) {
    // The server stops a file it no longer needs by closing its connection; anything else it is told.
    if (!socket.destroyed) await conversation.send({ error: (error as Error).message }).catch(() => {});
  } finally {
    socket.end();
    if (input !== process.stdin) input.destroy();
  }
}

/** An import by the running server: the files go to it as it reads them, the rejects come back into `rejectsPath`. */
export async function importThroughServer(
  conversation: AdminConversation,
  dataDir: string,
  files: readonly string[],
  rejectsPath: string | null,
  bytes: FileBytes,
  onProgress?: (progress: ImportProgress) => void,
): Promise<ImportSummary> {
  let rejects: WriteStream | null = null;
  try {
    const answer = await finalAnswer(conversation, async (received) => {
      const { message, payload } = received;
      if (message.progress) onProgress?.(message.progress as ImportProgress);
      else if (message.open) {
        const { source, key } = message.open as { source: number; key: string };
        const name = files[source];
        if (name === undefined) return;
        let sent = 0;
        bytes.track(source, () => sent);
        sendFile(dataDir, key, name, (count) => {
          sent += count;
        }).catch(() => {});
      } else if (message.rejects === true && payload && rejectsPath !== null) {
        rejects ??= createWriteStream(rejectsPath, { flags: 'w' });
        await writeTo(rejects, payload);
      } else reportWaiting(received);
    });
    if (!('summary' in answer)) throw new Error('The running orgraph server gave no import summary.');
    return answer.summary;
  } finally {
    const file = rejects as WriteStream | null;
    if (file) await new Promise<void>((resolve) => file.end(() => resolve()));
  }
}

/** An export by the running server, each type's lines written to `target(type)`. */
export async function exportThroughServer(
  conversation: AdminConversation,
  target: (type: string) => Writable,
): Promise<Record<string, number>> {
  const answer = await finalAnswer(conversation, async (received) => {
    const { message, payload } = received;
    if (typeof message.export === 'string' && payload) await writeTo(target(message.export), payload);
    else reportWaiting(received);
  });
  if (!('exported' in answer)) throw new Error('The running orgraph server gave no export counts.');
  return answer.exported;
}

/** A seed by the running server. */
export async function seedThroughServer<P>(
  conversation: AdminConversation,
  onProgress: (progress: P) => void,
): Promise<{ rows: Record<string, number>; seconds: number }> {
  const answer = await finalAnswer(conversation, (received) => {
    if (received.message.progress) onProgress(received.message.progress as P);
    else reportWaiting(received);
  });
  if (!('report' in answer)) throw new Error('The running orgraph server gave no seed report.');
  return answer.report;
}
