import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../http/app-env.ts';

const statusSchema = z.object({
  code: z.number().int().min(100).max(599).openapi({ description: 'Equals the HTTP status.' }),
  messages: z
    .array(z.string())
    .openapi({ description: 'Empty on success; at least one sentence on errors.' }),
});

/** The spec's envelope around a payload: `{ status, success, meta, correlation_id }`. */
export function envelopeSchema<Success extends z.ZodType, Meta extends z.ZodType>(
  success: Success,
  meta: Meta,
) {
  return z.object({
    status: statusSchema,
    success,
    meta,
    correlation_id: z
      .string()
      .openapi({ description: 'The request identifier, also sent as X-Correlation-ID.' }),
  });
}

export const errorEnvelopeSchema = envelopeSchema(z.null(), z.null()).openapi('ErrorEnvelope');

export function envelope<Success, Meta>(c: Context<AppEnv>, success: Success, meta: Meta, code = 200) {
  return { status: { code, messages: [] as string[] }, success, meta, correlation_id: c.var.correlationId };
}

export function errorEnvelope(c: Context<AppEnv>, code: number, messages: string[]) {
  return { status: { code, messages }, success: null, meta: null, correlation_id: c.var.correlationId };
}

/** An error response of the OpenAPI document: the envelope with `success` and `meta` null. */
export const errorContent = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorEnvelopeSchema } },
});

/** Error responses every authenticated `/v1` endpoint can give. */
export const commonErrorResponses = {
  401: errorContent('Missing, malformed, unknown or revoked bearer token.'),
  403: errorContent("The caller's plan does not cover this endpoint."),
  422: errorContent(
    'A parameter has the wrong type or a value outside its allowed set, or the query has a parameter the endpoint does not declare (each named, with the closest declared name).',
  ),
  429: errorContent('Rate limit reached; retry after the number of seconds in Retry-After.'),
  500: errorContent('An unexpected error; it is logged and its details are not shown.'),
  503: errorContent('The database is unavailable; retry after the number of seconds in Retry-After.'),
} as const;

export const notFoundResponse = { 404: errorContent('No record has that reference.') } as const;
