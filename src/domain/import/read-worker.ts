import { parentPort } from 'node:worker_threads';
import type { ReadRequest, ReadResponse } from './read-pool.ts';
import { readRecord } from './read-record.ts';

// A worker of the read pool: reads the chunks of lines it is sent, one after another.
parentPort?.on('message', (request: ReadRequest) => {
  const response: ReadResponse = {
    id: request.id,
    records: request.lines.map(([number, text, digest]) =>
      readRecord(request.source, number, text, request.defaultType, digest),
    ),
  };
  parentPort?.postMessage(response);
});
