import type { Hono } from 'hono';
import { accepts } from 'hono/accepts';
import type { AppEnv } from '../http/app-env.ts';
import { docsPath, graphqlPath, openApiPath } from '../http/paths.ts';

/** Where a newcomer goes from `/`: the graph (GraphiQL in a browser), the REST reference and its document. */
export const homeLinks = [
  { rel: 'graphql', href: graphqlPath, title: 'GraphQL: GraphiQL in a browser, POST for programs' },
  { rel: 'docs', href: docsPath, title: 'REST /v1 API reference' },
  { rel: 'openapi', href: openApiPath, title: 'REST /v1 OpenAPI document' },
] as const;

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (character) => escapes[character]!);

const homeHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>orgraph</title>
    <link rel="icon" href="data:," />
    <style>body { margin: 2rem; font-family: system-ui, sans-serif; line-height: 1.5; }</style>
  </head>
  <body>
    <h1>orgraph</h1>
    <p>A business-intelligence data service: a GraphQL graph and a REST /v1 API. Every call but these pages needs a
      bearer token (<code>npx orgraph token create --plan enterprise</code>).</p>
    <ul>
${homeLinks.map((link) => `      <li><a href="${escapeHtml(link.href)}">${escapeHtml(link.href)}</a>: ${escapeHtml(link.title)}</li>`).join('\n')}
    </ul>
  </body>
</html>
`;

/**
 * `GET /` (and `HEAD /`): links to the graph and the REST reference, as HTML for a browser and as JSON for a client
 * that asks for it. Needs no token.
 */
export function registerHomePage(app: Hono<AppEnv>): void {
  app.get('/', (c) => {
    c.header('Cache-Control', 'no-cache');
    c.header('Vary', 'Accept');
    const wanted = accepts(c, {
      header: 'Accept',
      supports: ['text/html', 'application/json'],
      default: 'text/html',
    });
    if (wanted === 'application/json') return c.json({ service: 'orgraph', links: homeLinks });
    return c.html(homeHtml);
  });
}
