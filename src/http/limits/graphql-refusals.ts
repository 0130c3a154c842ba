import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { answerFor, type ErrorAnswer } from '../errors.ts';

/**
 * The media type a GraphQL answer takes for this `Accept` header, chosen as Yoga chooses: the first of the two
 * GraphQL media types the client lists (weights aside), and `application/json` when it lists neither.
 */
export function graphqlMediaType(accept: string | undefined): string {
  for (const entry of (accept ?? '').toLowerCase().split(',')) {
    const mediaType = entry.split(';')[0]?.trim();
    if (mediaType === 'application/graphql-response+json' || mediaType === 'application/json')
      return mediaType;
  }
  return 'application/json';
}

/**
 * A GraphQL-shaped error body (`{ errors: [{ message, extensions: { code } }] }`) with the HTTP status, in the
 * media type the client accepts: a client that accepts only `application/graphql-response+json` reads the body of
 * a 401, 413 or 429 too.
 */
export function graphqlRefusal(c: Context<AppEnv>, answer: ErrorAnswer): Response {
  for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
  c.header('Content-Type', `${graphqlMediaType(c.req.header('Accept'))}; charset=utf-8`);
  const body = JSON.stringify({ errors: [{ message: answer.message, extensions: { code: answer.code } }] });
  return c.body(body, answer.status);
}

/**
 * The answer to an error the graph's HTTP guards threw (token, rate limit, body size), the way a GraphQL client
 * expects it, with the same status codes and headers as REST; REST answers them in the envelope. Any other error
 * is thrown on, to the app's error handler.
 */
export function refuseAsGraphql(c: Context<AppEnv>, error: unknown): Response {
  const answer = answerFor(error);
  if (!answer) throw error;
  return graphqlRefusal(c, answer);
}
