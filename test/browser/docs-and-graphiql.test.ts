import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '../support/services.ts';
import { launchChromium } from './launch-chromium.ts';
import { type LiveServer, logLines, startLiveServer } from './live-server.ts';

// Debian's chromium (or CHROMIUM_PATH); .ci/run installs it. Playwright's own browser download is not reachable from
// our machines. Without it the file is skipped with the reason (failed under ORGRAPH_TEST_REQUIRE_SERVICES=1).
const withChromium = needs('chromium');
const artifacts = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** The thirteen endpoints of the interface spec. */
const specOperations = [
  'POST /v1/search/events',
  'GET /v1/search/suggestions',
  'GET /v1/organisations',
  'GET /v1/organisations/{organisationReference}',
  'GET /v1/organisations/{organisationReference}/people',
  'GET /v1/organisations/{organisationReference}/ownership',
  'GET /v1/profiles',
  'GET /v1/profiles/{profileReference}',
  'GET /v1/profiles/{profileReference}/articles',
  'GET /v1/profiles/{profileReference}/ownership',
  'GET /v1/articles/{articleReference}',
  'GET /v1/events/{eventReference}',
  'GET /v1/events',
];

/** Following a saved search: its feed and its webhooks, beside the spec's endpoints. */
const followOperations = [
  'GET /v1/searches/{queryId}/feed',
  'POST /v1/webhooks',
  'GET /v1/webhooks',
  'GET /v1/webhooks/{webhookId}/deliveries',
  'POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
];

/** Matching one's own records to ours, beside the spec's endpoints. */
const resolveOperations = ['POST /v1/resolve/organisations', 'POST /v1/resolve/profiles'];

let server: LiveServer;
let browser: Browser;

beforeAll(async () => {
  if (!withChromium) return;
  mkdirSync(artifacts, { recursive: true });
  server = await startLiveServer();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (server) expect(await server.stop()).toBe(0);
});

/** Opens a page that records every request it makes, so a test can prove none left the machine. */
async function openPage(): Promise<{ page: Page; requested: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  return { page, requested };
}

/** What an editor shows, with Monaco's non-breaking spaces made plain. */
async function editorText(editor: Locator): Promise<string> {
  return (await editor.innerText()).replaceAll('\u00a0', ' ');
}

function offMachine(urls: string[]): string[] {
  return urls.filter((url) => {
    const { protocol, hostname } = new URL(url);
    if (protocol === 'blob:' || protocol === 'data:') return false;
    return !['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
  });
}

describe('/docs', () => {
  it('renders the API reference from the OpenAPI document, listing every /v1 operation, with no request off the machine', async () => {
    const { page, requested } = await openPage();
    const documentLoaded = page.waitForResponse((response) => response.url().endsWith('/v1/openapi.json'));
    await page.goto(`${server.url}/docs`);
    expect((await documentLoaded).status()).toBe(200);
    await page
      .getByText('GET /v1/events/{eventReference}', { exact: false })
      .first()
      .waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: 'orgraph REST /v1' }).waitFor();

    // Each tag's "Operations" box lists its operations as method and path.
    const text = await page.evaluate(() => document.body.innerText);
    const listed = new Set(
      [...text.matchAll(/\b(GET|POST)\s+(\/v1\/[A-Za-z/{}]+)/g)].map(
        ([, method, path]) => `${method} ${path}`,
      ),
    );
    // The pattern reads GET and POST, so DELETE /v1/webhooks/{webhookId} is not among them.
    expect([...listed].sort()).toEqual([...specOperations, ...followOperations, ...resolveOperations].sort());
    await expect(page.getByText('Download OpenAPI Document').first().isVisible()).resolves.toBe(true);

    await page.screenshot({ path: `${artifacts}docs.png` });
    expect(offMachine(requested)).toEqual([]);
    expect(requested.some((url) => url.includes('/docs/assets/scalar-api-reference-'))).toBe(true);
    await page.close();
  }, 60_000);
});

/** Opens GraphiQL's Docs panel (when closed) and waits for the root types it lists. */
async function openDocs(page: Page): Promise<Locator> {
  const docs = page.locator('.graphiql-doc-explorer');
  if (!(await docs.isVisible()))
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
  await docs.locator('.graphiql-doc-explorer-root-type').first().waitFor({ timeout: 30_000 });
  return docs;
}

/** What the Docs panel shows for the Query type: its title, and the fields it lists. */
async function queryTypeInDocs(docs: Locator): Promise<{ title: string; text: string }> {
  await docs.getByRole('link', { name: 'Query', exact: true }).first().click();
  await docs.locator('.graphiql-doc-explorer-field-name', { hasText: 'organisations' }).first().waitFor();
  const title = (await docs.locator('.graphiql-doc-explorer-title').innerText()).trim();
  const text = await docs.innerText();
  // Back to the root types, as a reader would leave it.
  await docs.locator('.graphiql-doc-explorer-back').click();
  return { title, text };
}

describe('/graphql (GraphiQL)', () => {
  it('opens clean with the example query and a placeholder header, lists the schema in Docs, and runs the query with a real token', async () => {
    const { page, requested } = await openPage();
    const schemaFetch = page.waitForResponse(
      (response) =>
        response.url().endsWith('/graphql') &&
        (response.request().postData() ?? '').includes('IntrospectionQuery'),
    );
    await page.goto(`${server.url}/graphql`);
    const execute = page.locator('.graphiql-execute-button');
    await execute.waitFor({ timeout: 30_000 });

    // The first schema fetch goes without a token (the headers editor holds the placeholder) and is answered.
    const fetched = await schemaFetch;
    expect(fetched.status()).toBe(200);
    expect(((await fetched.json()) as { errors?: unknown }).errors).toBeUndefined();
    const docs = await openDocs(page);
    expect(await docs.locator('.graphiql-doc-explorer-error').count()).toBe(0);
    const before = await queryTypeInDocs(docs);
    expect(before.title).toBe('Query');
    expect(before.text).toContain('organisations');
    const result = page.locator('.graphiql-response');
    const opened = await editorText(result);
    expect(opened).not.toContain('UNAUTHENTICATED');
    expect(opened).not.toContain('"errors"');
    await page.screenshot({ path: `${artifacts}graphiql-opened.png` });

    const queryEditor = page.locator('.graphiql-query-editor');
    await expect(editorText(queryEditor)).resolves.toContain('query OrganisationPeopleArticles');
    const headersEditor = page.locator('.graphiql-editor-tool .graphiql-editor').last();
    await page.getByRole('button', { name: 'Headers' }).click();
    await expect(editorText(headersEditor)).resolves.toContain('Bearer <your orgr_ token>');

    // Replace the placeholder as a person would: select everything in the headers editor and type.
    await headersEditor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${server.token}` }));

    const answered = page.waitForResponse(
      (response) =>
        response.url().endsWith('/graphql') &&
        response.request().method() === 'POST' &&
        (response.request().postData() ?? '').includes('OrganisationPeopleArticles'),
    );
    await execute.click();
    const response = await answered;
    expect(response.status()).toBe(200);
    const body = (await response.json()) as {
      data?: { organisations: { edges: { node: { name: string } }[] } };
      errors?: unknown[];
    };
    expect(body.errors).toBeUndefined();
    const firstName = body.data?.organisations.edges[0]?.node.name;
    expect(firstName).toEqual(expect.any(String));

    await result
      .getByText(firstName as string, { exact: false })
      .first()
      .waitFor({ timeout: 15_000 });
    await expect(editorText(result)).resolves.toContain('"data"');
    await page.screenshot({ path: `${artifacts}graphiql.png` });

    // With the token set, Docs still lists the schema.
    const after = await queryTypeInDocs(await openDocs(page));
    expect(after).toEqual(before);
    expect(await docs.locator('.graphiql-doc-explorer-error').count()).toBe(0);

    // The name on the page is an organisation of the database, as the REST list finds it by name.
    const lookup = await fetch(
      `${server.url}/v1/organisations?show_empty=true&type=all&name=${encodeURIComponent(firstName as string)}`,
      { headers: { Authorization: `Bearer ${server.token}` } },
    );
    const found = (await lookup.json()) as { success: { name: string }[] };
    expect(found.success.map((row) => row.name)).toContain(firstName);

    expect(offMachine(requested)).toEqual([]);
    await page.close();
  }, 60_000);
});

describe('the live process log', () => {
  it('holds one JSON line per request the browser made, and never the token', () => {
    const lines = logLines(server.stdout());
    const graphql = lines.filter((line) => line.route === '/graphql' && line.method === 'POST');
    expect(graphql.length).toBeGreaterThan(0);
    expect(graphql.some((line) => line.status === 200 && line.plan === 'enterprise')).toBe(true);
    expect(lines.some((line) => line.route === '/docs' && line.status === 200)).toBe(true);
    for (const line of lines.filter((entry) => entry.msg === 'request')) {
      expect(line).toMatchObject({ service: 'orgraph', correlationId: expect.any(String) });
      expect(line.durationMs).toEqual(expect.any(Number));
    }
    expect(server.stdout() + server.stderr()).not.toContain(server.token);
  });
});
