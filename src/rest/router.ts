import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-env.ts';
import { answerForCode } from '../http/errors.ts';
import { openApiPath } from '../http/paths.ts';
import { errorResponse } from './errors.ts';
import { finishOpenApiDocument } from './openapi-document.ts';
import { indexPaths, refuseUnknownQueryParameters } from './operation-guard.ts';
import { registerArticleRoutes } from './routes/articles.ts';
import { registerEventRoutes } from './routes/events.ts';
import { registerFeedRoutes } from './routes/feed.ts';
import { registerOrganisationRoutes } from './routes/organisations.ts';
import { registerProfileOwnershipRoutes } from './routes/profile-ownership.ts';
import { registerProfileRoutes } from './routes/profiles.ts';
import { registerResolveRoutes } from './routes/resolve.ts';
import { registerSearchRoutes } from './routes/searches.ts';
import { registerWebhookRoutes } from './routes/webhooks.ts';

export type RestApp = OpenAPIHono<AppEnv>;

const documentedPaths = new WeakMap<RestApp, ReturnType<typeof indexPaths>>();

/** The router's paths with the methods each serves, for refusing other methods before authentication. */
export function pathsOf(app: RestApp): ReturnType<typeof indexPaths> {
  return documentedPaths.get(app) ?? [];
}

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
  // Registered before the routes so that it runs before their validation; the paths are known once they are.
  let paths: ReturnType<typeof indexPaths> = [];
  app.use(
    '/v1/*',
    refuseUnknownQueryParameters(() => paths),
  );
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
  registerResolveRoutes(app);
  const document = finishOpenApiDocument(
    app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'orgraph REST /v1',
        version: '1.0.0',
        description:
          'The business-intelligence interface: organisations, people, events, articles, ownership and saved event searches. ' +
          'Every response is an envelope `{ status, success, meta, correlation_id }`.',
        contact: { name: 'orgraph maintainers' },
        license: {
          name: 'Proprietary; all rights reserved',
          identifier: 'LicenseRef-orgraph-proprietary',
        } as never,
      },
      servers: [
        {
          url: '/',
          description:
            'The server that serves this document (production, staging or local development alike).',
          'x-internal': false,
        } as never,
      ],
      security: [{ bearerAuth: [] }],
    }),
  );
  paths = indexPaths(document);
  documentedPaths.set(app, indexPaths(document, { [openApiPath]: ['get'] }));
  app.get(openApiPath, (c) => c.json(document));
  return app;
}
