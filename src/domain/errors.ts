/** What went wrong, in the domain's terms; `src/http/errors.ts` maps each code to what a client is told. */
export type DomainErrorCode =
  | 'NOT_FOUND'
  | 'INVALID_PARAMETER'
  | 'INVALID_CHIPS'
  | 'FORBIDDEN'
  | 'UNAVAILABLE';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function notFound(kind: string, reference: string): DomainError {
  return new DomainError('NOT_FOUND', `No ${kind} has the reference ${reference}.`);
}

export function invalidParameter(message: string): DomainError {
  return new DomainError('INVALID_PARAMETER', message);
}

const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'POOL_WAIT_TIMEOUT', // no pooled connection came free in time (src/db/pool-guard.ts)
  '57014', // statement timeout or cancel
  '57P01', // admin shutdown
  '57P02',
  '57P03', // cannot connect now
  '53300', // too many connections
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** True when an error means the database is down, unreachable or too slow, not that the request was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && unavailableCodes.has(code)) return true;
    if (current instanceof DomainError) return current.code === 'UNAVAILABLE';
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
