import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { maxPayloadBytes, type ReceivedMessage, readMessages, sendMessage } from './admin-messages.ts';

async function collect(chunks: Buffer[]): Promise<ReceivedMessage[]> {
  const received: ReceivedMessage[] = [];
  for await (const message of readMessages(chunks)) received.push(message);
  return received;
}

/** What `sendMessage` writes, as the bytes a socket would carry. */
async function sent(...messages: [object, Uint8Array?][]): Promise<Buffer> {
  const stream = new PassThrough();
  const parts: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => parts.push(chunk));
  for (const [message, payload] of messages) await sendMessage(stream, message, payload);
  stream.end();
  return Buffer.concat(parts);
}

describe('admin socket messages', () => {
  it('carry JSON lines and raw payloads, however the bytes are cut on the way', async () => {
    const payload = Buffer.from('{"type":"organisation"}\n{"name":"Zoë"}\n');
    const bytes = await sent(
      [{ command: 'import' }],
      [{ progress: { read: 2 } }],
      [{}, payload],
      [{ end: true }],
    );
    for (const size of [1, 3, 7, bytes.length]) {
      const chunks: Buffer[] = [];
      for (let offset = 0; offset < bytes.length; offset += size)
        chunks.push(bytes.subarray(offset, offset + size));
      expect(await collect(chunks)).toEqual([
        { message: { command: 'import' } },
        { message: { progress: { read: 2 } } },
        { message: { bytes: payload.length }, payload },
        { message: { end: true } },
      ]);
    }
  });

  it('cut a payload larger than a message may carry into several messages alike', async () => {
    const payload = Buffer.alloc(maxPayloadBytes * 2 + 5, 7);
    const received = await collect([await sent([{ export: 'event' }, payload])]);
    expect(received.map(({ message }) => message)).toEqual([
      { export: 'event', bytes: maxPayloadBytes },
      { export: 'event', bytes: maxPayloadBytes },
      { export: 'event', bytes: 5 },
    ]);
    expect(Buffer.concat(received.map((r) => r.payload as Buffer)).equals(payload)).toBe(true);
  });

  it('refuse a stream that ends inside a message, a malformed line and an impossible payload size', async () => {
    const cut = await sent([{}, Buffer.from('abcdef')]);
    await expect(collect([cut.subarray(0, cut.length - 2)])).rejects.toThrow(
      'The connection ended inside a message.',
    );
    await expect(collect([Buffer.from('{"command":\n')])).rejects.toThrow('Malformed message.');
    await expect(collect([Buffer.from('[1,2]\n')])).rejects.toThrow('Malformed message.');
    await expect(collect([Buffer.from('{"bytes":-1}\n')])).rejects.toThrow('Malformed message.');
    await expect(collect([Buffer.alloc(70 * 1024, 97)])).rejects.toThrow('A message line is too long.');
  });
});
