import type { Context } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { answerFor, answerForCode, type ErrorAnswer } from '../http/errors.ts';
import { logger } from '../http/observability/logger.ts';
import { redactPath } from '../http/observability/redact-path.ts';
import { errorEnvelope } from './envelope.ts';

/** Sends an error answer in the envelope, with the headers its code calls for. */
export function errorResponse(c: Context<AppEnv>, answer: ErrorAnswer, messages = [answer.message]) {
  for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
  return c.json(errorEnvelope(c, answer.status, messages), answer.status);
}

/** Where a thrown error becomes a REST response; anything unexpected is logged and masked. */
export function handleError(error: Error, c: Context<AppEnv>) {
  const answer = answerFor(error);
  if (answer) return errorResponse(c, answer);
  logger().error(
    { err: error, correlationId: c.var.correlationId, method: c.req.method, path: redactPath(c.req.path) },
    'unexpected error',
  );
  return errorResponse(c, answerForCode('INTERNAL_SERVER_ERROR'));
}
