import type { MiddlewareHandler } from 'hono';
import type { DataArea } from '../auth/plans.ts';
import { bearerToken, findViewer } from '../auth/tokens.ts';
import { DomainError } from '../domain/errors.ts';
import type { AppEnv } from './app-env.ts';
import { createRequestContext } from './context.ts';
import { RequestError } from './errors.ts';
import type { AppServices } from './services.ts';

/** Resolves the bearer token to a viewer and builds the request context; 401 when there is none. */
export function authenticate(services: AppServices): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c.req.header('Authorization'));
    if (!token) {
      throw new RequestError('UNAUTHENTICATED', 'Send a bearer token: Authorization: Bearer <token>.');
    }
    const viewer = await findViewer(services.db, services.plans, token, services.viewerCache);
    if (!viewer)
      throw new RequestError('UNAUTHENTICATED', 'The bearer token is unknown, revoked or malformed.');
    c.set(
      'ctx',
      createRequestContext({
        db: services.readReplica?.db ?? services.db,
        primaryDb: services.db,
        config: services.config,
        plans: services.plans,
        viewer,
        correlationId: c.var.correlationId,
      }),
    );
    await next();
  };
}

/** 403 unless the caller's plan covers `area`. */
export function covers(area: DataArea): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const plan = c.var.ctx.viewer?.plan;
    if (!plan?.covers.includes(area)) {
      throw new DomainError(
        'FORBIDDEN',
        `Your plan (${plan?.name ?? 'none'}) does not cover ${area}; it covers ${plan?.covers.join(', ') || 'nothing'}.`,
      );
    }
    await next();
  };
}
