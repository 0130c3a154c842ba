import { loadPlans } from '../../src/auth/plans.ts';
import { createToken } from '../../src/auth/tokens.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { openReadRouting } from '../../src/db/read-routing.ts';
import { observeReadRouting } from '../../src/http/observability/read-replica.ts';
import { type AppServices, createClosing } from '../../src/http/services.ts';
import { createApp } from '../../src/server/app.ts';

export type PlanName = 'starter' | 'professional' | 'enterprise';

export interface TestApp {
  services: AppServices;
  /** A fresh token per plan, created for this test file. */
  tokens: Record<PlanName, string>;
  /** In-process request; authenticated as `token` (default: the enterprise token) unless `token: null`. */
  request(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  /** GET a `/v1` path and parse the envelope. */
  getJson<Body = Envelope>(path: string, token?: string | null): Promise<{ status: number; body: Body }>;
  /** POST a GraphQL operation. */
  graphql<Data = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string | null,
  ): Promise<{
    status: number;
    body: { data?: Data; errors?: GraphqlError[]; extensions?: Record<string, unknown> };
  }>;
  close(): Promise<void>;
}

export interface Envelope<Success = unknown, Meta = unknown> {
  status: { code: number; messages: string[] };
  success: Success;
  meta: Meta;
  correlation_id: string;
}

export interface GraphqlError {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string } & Record<string, unknown>;
}

/** The whole service in-process on the test database (no port), with a token per plan. */
export async function openTestApp(overrides: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const config = loadConfig({ ...process.env, ...overrides });
  const plans = loadPlans(config.plansFile);
  const handle = await openDatabase(config);
  const reads = openReadRouting(config, handle, { events: observeReadRouting() });
  const closing = createClosing();
  const services: AppServices = {
    config,
    handle,
    db: handle.db,
    reads,
    plans,
    readiness: { accepting: true },
    closing: closing.signal,
  };
  const app = createApp(services);
  const tokens = {} as Record<PlanName, string>;
  for (const plan of ['starter', 'professional', 'enterprise'] as const) {
    tokens[plan] = (await createToken(handle.db, plans, { plan, label: 'test' })).token;
  }

  const request: TestApp['request'] = async (path, init = {}) => {
    const { token = tokens.enterprise, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token !== null && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    return app.fetch(new Request(`http://orgraph.test${path}`, { ...rest, headers }));
  };

  return {
    services,
    tokens,
    request,
    async getJson(path, token) {
      const response = await request(path, { token: token === undefined ? tokens.enterprise : token });
      return { status: response.status, body: await response.json() };
    },
    async graphql(query, variables, token) {
      const response = await request('/graphql', {
        method: 'POST',
        token: token === undefined ? tokens.enterprise : token,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: await response.json() };
    },
    async close() {
      closing.abort();
      await services.quotas?.close();
      await services.persistedQueries?.close();
      await reads?.close();
      await handle.close();
    },
  };
}
