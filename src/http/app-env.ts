import type { RequestContext } from './context.ts';
import type { Quotas } from './limits/quotas.ts';

/** Hono's per-request variables. */
export interface AppEnv {
  Variables: {
    correlationId: string;
    /** Set by the authentication middleware on every authenticated route. */
    ctx: RequestContext;
    /** Set by the request limit on every authenticated route: the budgets a handler charges further work to. */
    quotas: Quotas;
  };
}
