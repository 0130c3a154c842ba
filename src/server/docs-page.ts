import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { docsPath, openApiPath } from '../http/paths.ts';

/**
 * Scalar's browser bundle, served from the installed npm package: the pages must work on machines with no internet,
 * and a CDN would also learn who reads the docs. The version is in the path, so the file can be cached for good.
 */
const scalarPackageRoot = join(
  dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')),
  '..',
);
const scalarVersion = (
  JSON.parse(readFileSync(join(scalarPackageRoot, 'package.json'), 'utf8')) as { version: string }
).version;
export const scalarBundlePath = `${docsPath}/assets/scalar-api-reference-${scalarVersion}.js`;

/**
 * Scalar's defaults reach out to the internet: fonts from its font host, telemetry, the "Ask AI" agent (which
 * loads a catalogue of APIs through Scalar's proxy) and, on localhost, a toolbar whose Share button uploads the
 * document. All are off, so the page makes no request that leaves the service.
 */
const scalarConfiguration = {
  title: 'orgraph REST /v1',
  slug: 'v1',
  url: openApiPath,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  withDefaultFonts: false,
  telemetry: false,
  defaultOpenAllTags: true,
  authentication: { preferredSecurityScheme: 'bearerAuth' },
  metaData: { title: 'orgraph REST /v1 API reference' },
};

function docsPage(): string {
  // `<` is escaped so that nothing in the configuration can close the script element.
  const configuration = JSON.stringify(scalarConfiguration).replaceAll('<', '\\u003c');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>orgraph REST /v1 API reference</title>
    <link rel="icon" href="data:," />
    <style>body { margin: 0; font-family: system-ui, sans-serif; }</style>
  </head>
  <body>
    <!-- Not "api-reference": the bundle mounts itself, with its defaults, on an element of that id. -->
    <div id="reference"></div>
    <script src="${scalarBundlePath}"></script>
    <script>Scalar.createApiReference('#reference', ${configuration});</script>
  </body>
</html>
`;
}

interface Asset {
  plain: Uint8Array<ArrayBuffer>;
  gzipped: Uint8Array<ArrayBuffer>;
  etag: string;
}

function assetOf(content: Uint8Array<ArrayBuffer>): Asset {
  const etag = `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
  return { plain: content, gzipped: new Uint8Array(gzipSync(content)), etag };
}

/** Sends a prepared asset: gzipped when the client takes it, 304 when it already has this version. */
function sendAsset(c: Context, asset: Asset, contentType: string, cacheControl: string): Response {
  c.header('Cache-Control', cacheControl);
  c.header('ETag', asset.etag);
  c.header('Vary', 'Accept-Encoding');
  if (c.req.header('If-None-Match') === asset.etag) return c.body(null, 304);
  c.header('Content-Type', contentType);
  if (!/\bgzip\b/.test(c.req.header('Accept-Encoding') ?? '')) return c.body(asset.plain);
  c.header('Content-Encoding', 'gzip');
  return c.body(asset.gzipped);
}

let scalarBundle: Asset | undefined;

/** `/docs`: the REST API reference rendered by Scalar from the generated OpenAPI document. No token needed. */
export function registerDocsPage(app: Hono<AppEnv>): void {
  app.get(docsPath, (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(docsPage());
  });
  app.get(scalarBundlePath, (c) => {
    // Read and compressed on first use, not at startup: only a browser opening /docs needs it (bench/NOTES.md 60).
    scalarBundle ??= assetOf(
      new Uint8Array(readFileSync(join(scalarPackageRoot, 'dist', 'browser', 'standalone.js'))),
    );
    return sendAsset(
      c,
      scalarBundle,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    );
  });
}

/**
 * GraphiQL's page as Yoga renders it, kept in memory. Yoga inlines the whole of GraphiQL and builds the page on
 * every request at a high CPU cost; the page needs no token, so rendering it once (and sending it gzipped, or as a
 * 304) also keeps it from being a cheap way to load the server (bench/NOTES.md 59).
 */
export function cachedGraphiqlPage(
  render: () => Promise<Response> | Response,
): (c: Context) => Promise<Response> {
  let page: Promise<Asset> | undefined;
  return async (c) => {
    if (!page) {
      page = Promise.resolve(render()).then(async (response) => {
        if (!response.ok) throw new Error(`rendering GraphiQL answered ${response.status}`);
        return assetOf(new Uint8Array(await response.arrayBuffer()));
      });
      // A failed render is tried again by the next request rather than kept.
      page.catch(() => {
        page = undefined;
      });
    }
    return sendAsset(c, await page, 'text/html; charset=utf-8', 'no-cache');
  };
}
