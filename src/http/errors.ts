import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, type DomainErrorCode, isDatabaseUnavailable } from '../domain/errors.ts';

/** Refusals made at the door, before the domain is asked: no token, a spent budget, a body or request it cannot take. */
export type RequestErrorCode =
  | 'UNAUTHENTICATED'
  | 'RATE_LIMITED'
  | 'PAYLOAD_TOO_LARGE'
  | 'BAD_REQUEST'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NOT_ACCEPTABLE'
  | 'METHOD_NOT_ALLOWED'
  | 'QUERY_LIMIT_EXCEEDED';

/**
 * The graph's refusals of an operation before it runs: a document that does not parse or validate, variables that
 * do not fit their types, an operation type HTTP cannot carry, and the persisted-query protocol. Yoga's and
 * Apollo's names, which client libraries test for.
 */
export type GraphqlRequestErrorCode =
  | 'GRAPHQL_PARSE_FAILED'
  | 'GRAPHQL_VALIDATION_FAILED'
  | 'BAD_USER_INPUT'
  | 'OPERATION_NOT_SUPPORTED'
  | 'PERSISTED_QUERY_NOT_FOUND'
  | 'PERSISTED_QUERY_NOT_SUPPORTED'
  | 'PERSISTED_QUERY_HASH_MISMATCH';

/** Every code a client can meet, in the REST envelope's messages and in a GraphQL error's `extensions.code`. */
export type ErrorCode =
  | DomainErrorCode
  | RequestErrorCode
  | GraphqlRequestErrorCode
  | 'INTERNAL_SERVER_ERROR';

export class RequestError extends Error {
  constructor(
    readonly code: RequestErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

export const retryAfterUnavailableSeconds = 5;

interface ErrorRule {
  status: ContentfulStatusCode;
  /** Headers the status calls for, whatever the transport. */
  headers?: Readonly<Record<string, string>>;
  /** The public message, where the error's own message must not reach the client or there is none. */
  message?: string;
}

/** The one table from an error code to what the client gets: REST's envelope, the graph's refusals and masking. */
export const errorRules: Readonly<Record<ErrorCode, ErrorRule>> = {
  NOT_FOUND: { status: 404 },
  INVALID_PARAMETER: { status: 422 },
  INVALID_CHIPS: { status: 400 },
  FORBIDDEN: { status: 403 },
  UNAVAILABLE: {
    status: 503,
    headers: { 'Retry-After': String(retryAfterUnavailableSeconds) },
    message: 'The database is unavailable right now; try again shortly.',
  },
  UNAUTHENTICATED: { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="orgraph"' } },
  RATE_LIMITED: { status: 429 },
  PAYLOAD_TOO_LARGE: { status: 413 },
  BAD_REQUEST: { status: 400 },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message:
      'Send the operation as JSON (Content-Type: application/json) in a POST, or as query parameters in a GET.',
  },
  NOT_ACCEPTABLE: {
    status: 406,
    message: 'The graph answers application/graphql-response+json or application/json; accept one of them.',
  },
  QUERY_LIMIT_EXCEEDED: { status: 400 },
  // The graph's request errors are 400 to `application/graphql-response+json` clients and 200 to legacy
  // `application/json` ones, as the GraphQL-over-HTTP specification asks (`extensions.http.spec` in Yoga).
  GRAPHQL_PARSE_FAILED: { status: 400 },
  GRAPHQL_VALIDATION_FAILED: { status: 400 },
  BAD_USER_INPUT: { status: 400 },
  OPERATION_NOT_SUPPORTED: {
    status: 400,
    message: 'A subscription is answered over Server-Sent Events: send it with Accept: text/event-stream.',
  },
  PERSISTED_QUERY_NOT_FOUND: { status: 400, message: 'PersistedQueryNotFound' },
  PERSISTED_QUERY_NOT_SUPPORTED: { status: 400, message: 'PersistedQueryNotSupported' },
  PERSISTED_QUERY_HASH_MISMATCH: {
    status: 400,
    message:
      "The persisted query's sha256Hash is not the SHA-256 of its query; send the hash of the query sent.",
  },
  METHOD_NOT_ALLOWED: { status: 405 },
  INTERNAL_SERVER_ERROR: { status: 500, message: 'An unexpected error occurred; it has been logged.' },
};

/** What a client is told about an error. */
export interface ErrorAnswer {
  code: ErrorCode;
  status: ContentfulStatusCode;
  headers: Readonly<Record<string, string>>;
  message: string;
}

export function answerForCode(code: ErrorCode, message?: string): ErrorAnswer {
  const rule = errorRules[code];
  return { code, status: rule.status, headers: rule.headers ?? {}, message: rule.message ?? message ?? code };
}

const codeByHttpStatus: Partial<Record<number, RequestErrorCode>> = {
  400: 'BAD_REQUEST',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  406: 'NOT_ACCEPTABLE',
};

/** What an error means to the client, or undefined when it is unexpected (to be logged and masked). */
export function answerFor(error: unknown): ErrorAnswer | undefined {
  if (error instanceof DomainError || error instanceof RequestError) {
    // An unavailable database is told in the table's words whatever layer noticed it.
    return answerForCode(error.code, error.code === 'UNAVAILABLE' ? undefined : error.message);
  }
  if (isDatabaseUnavailable(error)) return answerForCode('UNAVAILABLE');
  if (error instanceof HTTPException) {
    const code = codeByHttpStatus[error.status] ?? 'BAD_REQUEST';
    const message = error.message || 'The request could not be processed.';
    return { ...answerForCode(code, message), status: error.status as ContentfulStatusCode, message };
  }
  return undefined;
}
