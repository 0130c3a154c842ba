import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-env.ts';
import { answerForCode } from '../http/errors.ts';
import { openApiPath } from '../http/paths.ts';
import { errorResponse } from './errors.ts';
import { registerArticleRoutes } from './routes/articles.ts';
import { registerEventRoutes } from './routes/events.ts';
import { registerFeedRoutes } from './routes/feed.ts';
import { registerOrganisationRoutes } from './routes/organisations.ts';
import { registerProfileOwnershipRoutes } from './routes/profile-ownership.ts';
import { registerProfileRoutes } from './routes/profiles.ts';
import { registerSearchRoutes } from './routes/searches.ts';
import { registerWebhookRoutes } from './routes/webhooks.ts';

export type RestApp = OpenAPIHono<AppEnv>;

/** The `/v1` compatibility router: every endpoint of the interface spec, documented as OpenAPI 3.1. */
export function createRestRouter(): RestApp {
  const app: RestApp = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const messages = result.error.issues.map((issue) => {
        const name = issue.path.join('.') || result.target;
        return `Invalid ${result.target === 'param' ? 'path' : result.target} parameter \`${name}\`: ${issue.message}.`;
      });
      const code = result.target === 'json' ? 'BAD_REQUEST' : 'INVALID_PARAMETER';
      return errorResponse(c, answerForCode(code), messages);
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
  registerFeedRoutes(app);
  registerWebhookRoutes(app);
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
