import { type Agent, request } from 'node:http';

/** How one request ended, as the client saw it. */
export type OutcomeKind =
  /** A complete response: every byte Content-Length announced, and JSON that parses. */
  | 'complete'
  /** The connection was refused before anything was sent: the server no longer listens. */
  | 'refused'
  /** The connection broke before a response began. */
  | 'reset'
  /** The response began but ended short, or its body does not parse. */
  | 'truncated';

export interface Outcome {
  path: string;
  kind: OutcomeKind;
  status?: number;
  startedAt: number;
  /** When the TCP connection was established (absent when it never was, or a kept-alive one was reused). */
  connectedAt?: number;
  endedAt: number;
  detail?: string;
}

/** One GET against `baseUrl`, classified by what reached the client. */
export function getOnce(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  agent: Agent,
): Promise<Outcome> {
  const startedAt = performance.now();
  let connectedAt: number | undefined;
  return new Promise((resolve) => {
    const done = (kind: OutcomeKind, status?: number, detail?: string) =>
      resolve({ path, kind, status, startedAt, connectedAt, endedAt: performance.now(), detail });
    const outgoing = request(new URL(path, baseUrl), { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('aborted', () => done('truncated', response.statusCode, 'aborted'));
      response.on('error', (error) => done('truncated', response.statusCode, error.message));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        const announced = Number(response.headers['content-length'] ?? Number.NaN);
        if (!Number.isNaN(announced) && announced !== body.length) {
          return done('truncated', response.statusCode, `${body.length} of ${announced} bytes`);
        }
        try {
          JSON.parse(body.toString('utf8'));
        } catch {
          return done('truncated', response.statusCode, 'body is not JSON');
        }
        done('complete', response.statusCode);
      });
    });
    outgoing.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => (connectedAt = performance.now()));
      else connectedAt ??= startedAt;
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      done(
        error.code === 'ECONNREFUSED' ? 'refused' : 'reset',
        undefined,
        `${error.code ?? ''} ${error.message}`,
      ),
    );
    outgoing.end();
  });
}

/**
 * `clients` loops, each sending the next of `paths` as soon as the previous answer is in, until `stop()` or until
 * the server refuses them; every outcome is kept.
 */
export function runLoad(
  baseUrl: string,
  paths: string[],
  headers: Record<string, string>,
  options: { clients: number; agent: Agent },
): { outcomes: Outcome[]; stop(): Promise<void> } {
  const outcomes: Outcome[] = [];
  let stopped = false;
  const loops = Array.from({ length: options.clients }, async (_, client) => {
    for (let index = client; !stopped; index += options.clients) {
      const outcome = await getOnce(baseUrl, paths[index % paths.length]!, headers, options.agent);
      outcomes.push(outcome);
      if (outcome.kind === 'refused') return;
    }
  });
  return {
    outcomes,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}
