import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../server/app-env.ts';
import { errorResponse } from './errors.ts';
import { registerArticleRoutes } from './routes/articles.ts';
import { registerEventRoutes } from './routes/events.ts';
import { registerOrganisationRoutes } from './routes/organisations.ts';
import { registerProfileOwnershipRoutes } from './routes/profile-ownership.ts';
import { registerProfileRoutes } from './routes/profiles.ts';
import { registerSearchRoutes } from './routes/searches.ts';

export type RestApp = OpenAPIHono<AppEnv>;

export const openApiPath = '/v1/openapi.json';

/** The `/v1` compatibility router: every endpoint of the interface spec, documented as OpenAPI 3.1. */
export function createRestRouter(): RestApp {
  const app: RestApp = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const messages = result.error.issues.map((issue) => {
        const name = issue.path.join('.') || result.target;
        return `Invalid ${result.target === 'param' ? 'path' : result.target} parameter \`${name}\`: ${issue.message}.`;
      });
      if (result.target === 'json') return errorResponse(c, 400, messages);
      return errorResponse(c, 422, messages);
    },
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An orgraph API token (`orgr_…`), created with `orgraph token create --plan <plan>`.',
  });
  registerSearchRoutes(app);
  registerOrganisationRoutes(app);
  registerProfileRoutes(app);
  registerProfileOwnershipRoutes(app);
  registerArticleRoutes(app);
  registerEventRoutes(app);
  app.doc31(openApiPath, {
    openapi: '3.1.0',
    info: {
      title: 'orgraph REST /v1',
      version: '1.0.0',
      description:
        'The business-intelligence interface: organisations, people, events, articles, ownership and saved event searches. ' +
        'Every response is an envelope `{ status, success, meta, correlation_id }`.',
    },
    security: [{ bearerAuth: [] }],
  });
  return app;
}
