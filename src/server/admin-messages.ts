import type { Writable } from 'node:stream';

/**
 * The admin socket's messages, both ways: one JSON object on a line, followed by `bytes` raw bytes when it carries
 * data (a part of a file being imported or exported, rejected records), so data is never escaped into JSON.
 */
export type AdminMessage = Record<string, unknown> & { bytes?: number };

export interface ReceivedMessage {
  message: AdminMessage;
  /** The raw bytes the message announced, when it announced any. */
  payload?: Buffer;
}

/** Longest JSON line accepted; a command or a progress report is a few hundred bytes. */
export const maxMessageLineBytes = 64 * 1024;
/** Largest payload accepted in one message; senders cut their data into parts of at most this. */
export const maxPayloadBytes = 4 * 1024 * 1024;

/** The messages of a byte stream (a socket), as they arrive. A stream that ends inside a message is an error. */
export async function* readMessages(
  source: AsyncIterable<Buffer> | Iterable<Buffer>,
): AsyncGenerator<ReceivedMessage> {
  let buffered: Buffer = Buffer.alloc(0);
  let pending: { message: AdminMessage; parts: Buffer[]; missing: number } | null = null;
  for await (const chunk of source) {
    buffered = buffered.length > 0 ? Buffer.concat([buffered, chunk]) : chunk;
    for (;;) {
      if (pending) {
        if (buffered.length === 0) break;
        const part = buffered.subarray(0, pending.missing);
        buffered = buffered.subarray(part.length);
        pending.parts.push(part);
        pending.missing -= part.length;
        if (pending.missing > 0) break;
        const done = pending;
        pending = null;
        yield { message: done.message, payload: Buffer.concat(done.parts) };
        continue;
      }
      const end = buffered.indexOf(10);
      if (end < 0) {
        if (buffered.length > maxMessageLineBytes) throw new Error('A message line is too long.');
        break;
      }
      const message = parseMessage(buffered.subarray(0, end));
      buffered = buffered.subarray(end + 1);
      if (message.bytes === undefined || message.bytes === 0) yield { message };
      else pending = { message, parts: [], missing: message.bytes };
    }
  }
  if (pending || buffered.length > 0) throw new Error('The connection ended inside a message.');
}

function parseMessage(line: Buffer): AdminMessage {
  let message: unknown;
  try {
    message = JSON.parse(line.toString('utf8'));
  } catch {
    throw new Error('Malformed message.');
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new Error('Malformed message.');
  }
  const { bytes } = message as AdminMessage;
  if (bytes !== undefined && !(Number.isSafeInteger(bytes) && bytes >= 0 && bytes <= maxPayloadBytes)) {
    throw new Error('Malformed message.');
  }
  return message as AdminMessage;
}

/**
 * Writes a message; a payload larger than `maxPayloadBytes` goes as several messages alike, each with its part.
 * Resolves once the stream can take more, so that a slow reader slows the writer; rejects if it closes first.
 */
export async function sendMessage(stream: Writable, message: object, payload?: Uint8Array): Promise<void> {
  if (!payload) {
    if (!stream.write(`${JSON.stringify(message)}\n`)) await drained(stream);
    return;
  }
  for (let offset = 0; offset < payload.byteLength || offset === 0; offset += maxPayloadBytes) {
    const part = payload.subarray(offset, offset + maxPayloadBytes);
    stream.write(`${JSON.stringify({ ...message, bytes: part.byteLength })}\n`);
    if (!stream.write(part)) await drained(stream);
    if (payload.byteLength === 0) break;
  }
}

function drained(stream: Writable): Promise<void> {
  if (stream.destroyed) return Promise.reject(new Error('The connection is closed.'));
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      stream.off('drain', onDrain);
      stream.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(new Error('The connection is closed.'));
    stream.on('drain', onDrain);
    stream.on('close', onClose);
  });
}
