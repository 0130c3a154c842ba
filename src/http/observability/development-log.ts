import type { DestinationStream } from 'pino';

/** The messages of the per-request line (request-log.ts). */
export const requestMessages: ReadonlySet<string> = new Set(['request', 'request failed']);

/** A log record as pino writes it, parsed. */
type LogRecord = Record<string, unknown>;

/**
 * A request's record in one line, `POST /graphql 200 12.34 ms <correlation id>`, or undefined for any other record.
 * The pretty printer would spread its fields over a line each.
 */
export function requestLineOf(record: LogRecord): string | undefined {
  const { msg, method, path, status, durationMs, correlationId } = record;
  if (typeof msg !== 'string' || !requestMessages.has(msg) || typeof method !== 'string') return undefined;
  return `${method} ${String(path)} ${String(status)} ${String(durationMs)} ms ${String(correlationId)}`;
}

/**
 * The terminal's log in development: each request in one line, every other record as `prettify` renders it (its
 * fields, an error's stack). Both go through `prettify`, so the time and level look alike.
 */
export function developmentStream(
  prettify: (record: LogRecord) => string,
  destination: { write(text: string): unknown },
): DestinationStream {
  return {
    write(line: string) {
      let record: LogRecord;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        destination.write(line);
        return;
      }
      const requestLine = requestLineOf(record);
      destination.write(
        prettify(
          requestLine === undefined ? record : { level: record.level, time: record.time, msg: requestLine },
        ),
      );
    },
  };
}
