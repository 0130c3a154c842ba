import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { Config } from '../../config.ts';
import { developmentStream } from './development-log.ts';

export type { Logger };
export type LogLevel = Config['logLevel'];

const logLevels: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Paths censored in every line. Nothing logs headers or tokens on purpose; this catches an error object or a
 * context that carries one by accident.
 */
const redactedPaths = [
  'authorization',
  'Authorization',
  'token',
  'headers.authorization',
  'headers.Authorization',
  '*.authorization',
  '*.Authorization',
  '*.token',
  '*.headers.authorization',
  '*.headers.Authorization',
];

export interface CreateLoggerOptions {
  level: LogLevel;
  /** Where lines go; standard output when absent. */
  destination?: DestinationStream;
  /**
   * Human-readable lines, one per request; by default only on a terminal (standard output, no `destination`)
   * outside production, and only when pino-pretty is installed.
   */
  pretty?: boolean;
}

/** One JSON object per line (pino), so that a log shipper needs no parsing rules. */
export function createLogger(options: CreateLoggerOptions): Logger {
  const settings: LoggerOptions = {
    level: options.level,
    base: { service: 'orgraph', pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
  };
  const wantsPretty =
    options.pretty ??
    (!options.destination && process.stdout.isTTY === true && process.env.NODE_ENV !== 'production');
  const pretty = wantsPretty ? loadPrettyStream(options.destination) : undefined;
  if (pretty) return pino(settings, pretty);
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

/** pino-pretty is a development dependency: a production install without it falls back to JSON. */
function loadPrettyStream(destination: DestinationStream | undefined): DestinationStream | undefined {
  let prettyFactory: (options: object) => (record: object) => string;
  try {
    ({ prettyFactory } = createRequire(import.meta.url)('pino-pretty') as {
      prettyFactory: typeof prettyFactory;
    });
  } catch {
    return undefined;
  }
  const prettify = prettyFactory({
    colorize: !destination,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
  return developmentStream(prettify, destination ?? pino.destination({ fd: 1, sync: true }));
}

function levelFromEnvironment(): LogLevel {
  const wanted = process.env.LOG_LEVEL as LogLevel | undefined;
  return wanted && logLevels.includes(wanted) ? wanted : 'info';
}

let current: Logger = createLogger({ level: levelFromEnvironment() });

/**
 * The process's logger. It is read at each call rather than imported as a value so that the server can replace it
 * once the configuration is loaded, and a test can capture what it writes.
 */
export function logger(): Logger {
  return current;
}

/** Replaces the process's logger and returns the one it replaced. */
export function useLogger(next: Logger): Logger {
  const previous = current;
  current = next;
  return previous;
}
