import { parentPort } from 'node:worker_threads';
import type { DigestRequest, DigestResponse, ReadRequest, ReadResponse } from './read-pool.ts';
import { lineDigestOf, readRecord } from './read-record.ts';

// A worker of the read pool: reads, or digests, the chunks of lines it is sent, one after another.
parentPort?.on('message', (request: ReadRequest | DigestRequest) => {
  if (request.kind === 'digest') {
    const response: DigestResponse = {
      id: request.id,
      digests: request.texts.map((text) => lineDigestOf(text, request.defaultType)),
    };
    parentPort?.postMessage(response);
    return;
  }
  const response: ReadResponse = {
    id: request.id,
    records: request.lines.map(([number, text, digest]) =>
      readRecord(request.source, number, text, request.defaultType, digest),
    ),
  };
  parentPort?.postMessage(response);
});
