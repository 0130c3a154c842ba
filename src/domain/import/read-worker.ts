import { parentPort } from 'node:worker_threads';
import { readChunk } from './read-chunk.ts';
import type { ReadRequest, ReadResponse } from './read-pool.ts';

// A worker of the read pool: reads the chunks of lines it is sent, one after another, and hands their COPY text
// over without copying it.
parentPort?.on('message', (request: ReadRequest) => {
  const response: ReadResponse = { id: request.id, ...readChunk(request) };
  parentPort?.postMessage(response, [
    response.staged.buffer,
    response.keys.buffer,
    response.links.buffer,
    ...Object.values(response.rows).map((rows) => rows.buffer),
  ]);
});
