import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { answerFor, type ErrorAnswer } from '../errors.ts';

/** A GraphQL-shaped error body (`{ errors: [{ message, extensions: { code } }] }`) with the HTTP status. */
export function graphqlRefusal(c: Context<AppEnv>, answer: ErrorAnswer): Response {
  for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
  return c.json({ errors: [{ message: answer.message, extensions: { code: answer.code } }] }, answer.status);
}

/**
 * Runs the HTTP-level guards of the graph (token, rate limit, body size) and answers their refusals the way a
 * GraphQL client expects, with the same status codes and headers as REST; REST answers them in the envelope.
 */
export function refuseAsGraphql(guard: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    try {
      return await guard(c, next);
    } catch (error) {
      const answer = answerFor(error);
      if (!answer) throw error;
      return graphqlRefusal(c, answer);
    }
  };
}
