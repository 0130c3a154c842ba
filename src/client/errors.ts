import type { GraphQLFormattedError } from 'graphql';

/** A `/v1` request answered with an error status; `messages` are the envelope's `status.messages`. */
export class OrgraphApiError extends Error {
  override readonly name = 'OrgraphApiError';

  constructor(
    readonly status: number,
    readonly messages: string[],
    /** The request's correlation id, to quote when reporting a problem. */
    readonly correlationId: string | undefined,
    /** Seconds the service asked to wait before trying again (429 and 503), when it said. */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(`orgraph answered ${status}: ${messages.join(' ') || 'no message'}`);
  }
}

/** A GraphQL response that carries errors; `data` holds whatever part of the result could be computed. */
export class OrgraphGraphqlError<Data = unknown> extends Error {
  override readonly name = 'OrgraphGraphqlError';

  constructor(
    readonly errors: readonly GraphQLFormattedError[],
    readonly data: Data | null | undefined,
    readonly correlationId: string | undefined,
  ) {
    super(errors.map((error) => error.message).join(' '));
  }
}

/** Iterating a list reached the page cap before a short page: the list is longer than the caller allowed for. */
export class OrgraphPageLimitError extends Error {
  override readonly name = 'OrgraphPageLimitError';

  constructor(readonly maxPages: number) {
    super(
      `Stopped after ${maxPages} pages without reaching the end of the list; raise maxPages to read further.`,
    );
  }
}
