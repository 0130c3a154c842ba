import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphiqlExampleQuery } from '../../src/graphql/graphiql-example.ts';
import { scalarBundlePath } from '../../src/server/docs-page.ts';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

const html = { Accept: 'text/html' };

describe('/docs', () => {
  it('needs no token and loads Scalar from this service, configured to reach nothing else', async () => {
    const response = await app.request('/docs', { token: null, headers: html });
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain(`<script src="${scalarBundlePath}"></script>`);
    expect(page).toContain('"url":"/v1/openapi.json"');
    expect(page).toContain('"withDefaultFonts":false');
    expect(page).toContain('"agent":{"disabled":true}');
    expect(page).not.toMatch(/https?:\/\//);
  });

  it('serves the bundle from the npm package, gzipped on request, cacheable for good, 304 when unchanged', async () => {
    const plain = await app.request(scalarBundlePath, { token: null });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    const source = Buffer.from(await plain.arrayBuffer());
    expect(source.toString('utf8')).toContain('createApiReference');

    const gzipped = await app.request(scalarBundlePath, {
      token: null,
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(gzipped.headers.get('Content-Encoding')).toBe('gzip');
    const compressed = Buffer.from(await gzipped.arrayBuffer());
    expect(compressed.length).toBeLessThan(source.length / 2);
    expect(gunzipSync(compressed).equals(source)).toBe(true);

    const etag = plain.headers.get('ETag')!;
    const again = await app.request(scalarBundlePath, { token: null, headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });
});

describe('/graphql page', () => {
  it('needs no token, carries the example query and the placeholder header, and is rendered once', async () => {
    const first = await app.request('/graphql', {
      token: null,
      headers: { ...html, 'Accept-Encoding': 'gzip' },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('Content-Encoding')).toBe('gzip');
    const page = gunzipSync(Buffer.from(await first.arrayBuffer())).toString('utf8');
    expect(page).toContain('orgraph GraphiQL');
    expect(page).toContain(JSON.stringify(graphiqlExampleQuery).slice(1, -1));
    expect(page).toContain('Bearer <your orgr_ token>');

    const second = await app.request('/graphql', { token: null, headers: html });
    expect(second.headers.get('ETag')).toBe(first.headers.get('ETag'));
    const cached = await app.request('/graphql', {
      token: null,
      headers: { ...html, 'If-None-Match': first.headers.get('ETag')! },
    });
    expect(cached.status).toBe(304);
  });
});

describe('/', () => {
  it('links a browser to the graph, the REST reference and its document, each of which answers', async () => {
    const response = await app.request('/', {
      token: null,
      headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=UTF-8');
    expect(response.headers.get('Vary')).toBe('Accept');
    const page = await response.text();
    const hrefs = [...page.matchAll(/<a href="([^"]+)">/g)].map(([, href]) => href);
    expect(hrefs).toEqual(['/graphql', '/docs', '/v1/openapi.json']);
    for (const href of hrefs) {
      expect((await app.request(href!, { token: null, headers: html })).status, href).toBe(200);
    }
  });

  it('answers the same links as JSON to a client that asks for JSON', async () => {
    const response = await app.request('/', { token: null, headers: { Accept: 'application/json' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      service: 'orgraph',
      links: [
        { rel: 'graphql', href: '/graphql', title: expect.stringContaining('GraphiQL') },
        { rel: 'docs', href: '/docs', title: expect.stringContaining('reference') },
        { rel: 'openapi', href: '/v1/openapi.json', title: expect.stringContaining('OpenAPI') },
      ],
    });
  });

  it('answers HEAD with the headers of GET and no body, and other paths still 404', async () => {
    const head = await app.request('/', { method: 'HEAD', token: null, headers: html });
    expect(head.status).toBe(200);
    expect(head.headers.get('Content-Type')).toBe('text/html; charset=UTF-8');
    expect(await head.text()).toBe('');
    expect((await app.request('/nope', { token: null })).status).toBe(404);
  });
});
