import type { RequestContext } from './context.ts';

/** Hono's per-request variables. */
export interface AppEnv {
  Variables: {
    correlationId: string;
    /** Set by the authentication middleware on every authenticated route. */
    ctx: RequestContext;
  };
}
