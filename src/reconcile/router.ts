import type { Context, Hono } from 'hono';
import { every } from 'hono/combine';
import { cors } from 'hono/cors';
import type { DataArea } from '../auth/plans.ts';
import { DomainError, invalidParameter } from '../domain/errors.ts';
import type { AppEnv } from '../http/app-env.ts';
import { authenticate, type IdentifyCaller } from '../http/authenticate.ts';
import { RequestError } from '../http/errors.ts';
import { chargeInputs } from '../http/limits/charge-inputs.ts';
import { limitBodySize } from '../http/limits/limit-body-size.ts';
import { limitRequests } from '../http/limits/limit-requests.ts';
import type { Quotas } from '../http/limits/quotas.ts';
import type { AppServices } from '../http/services.ts';
import { manifestFor } from './manifest.ts';
import { findPreviewCard, renderPreview } from './preview.ts';
import { parseQueryBatch, reconcileBatch, typesOf } from './queries.ts';
import { readSuggestParameters, suggestOrganisations, suggestProperties } from './suggest.ts';
import { reconcileTypes } from './vocabulary.ts';

/** Where the reconciliation service answers with the token in the `Authorization` header. */
export const reconcilePath = '/reconcile';
/**
 * The same service with the token as the path's next segment, for a client that cannot send a header (OpenRefine):
 * `/reconcile/orgr_…`. Only a segment shaped like a token is one, so `/reconcile/preview` stays the header form's.
 */
const tokenPath = `${reconcilePath}/:token{orgr_[A-Za-z0-9_-]+}`;

/** A batch of 1,000 queries with a few properties each fits with room to spare. */
export const reconcileBodyLimitBytes = 1024 * 1024;

/**
 * The W3C Reconciliation Service API 0.2 for organisations and people, at `/reconcile` (bearer header) and
 * `/reconcile/<token>` (token in the path). Every endpoint answers cross-origin requests from any page, as the
 * specification requires: the token is sent by the client itself, never a cookie, so no page gains a visitor's access.
 */
export function registerReconcileRoutes(
  app: Hono<AppEnv>,
  services: AppServices,
  quotas: Quotas,
  identify: IdentifyCaller,
): void {
  const anyOrigin = cors({
    origin: '*',
    allowMethods: ['GET', 'POST'],
    allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'X-Correlation-ID'],
    exposeHeaders: ['X-Correlation-ID', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'WWW-Authenticate'],
    maxAge: 600,
  });
  app.use(`${reconcilePath}/*`, anyOrigin);

  const byHeader = every(authenticate(identify), limitRequests(quotas));
  const byPath = every(
    authenticate(identify, (c) => c.req.param('token')),
    limitRequests(quotas),
  );
  for (const [base, requireToken] of [
    [reconcilePath, byHeader],
    [tokenPath, byPath],
  ] as const) {
    // The manifest alone may be read without a token at the header form (the specification's rule for announced
    // authentication); at the path form a wrong token is told at once, when the client adds the service.
    const openManifest = base === reconcilePath;
    // With or without a trailing slash: an address pasted into a client often carries one.
    const endpoint = [base, `${base}/`];
    app.on(
      'GET',
      endpoint,
      async (c, next) => {
        if (openManifest && wantsManifest(c)) return c.json(manifestOf(c, services));
        await requireToken(c, next);
      },
      async (c) => {
        if (wantsManifest(c)) return c.json(manifestOf(c, services));
        refuseUnknownParameters(c, ['queries']);
        return c.json(await answerBatch(c, c.req.query('queries')));
      },
    );
    app.on('POST', endpoint, limitBodySize(reconcileBodyLimitBytes), requireToken, async (c) =>
      c.json(await answerBatch(c, await queriesOfBody(c))),
    );
    app.get(`${base}/suggest/entity`, requireToken, async (c) => {
      requireArea(c, 'suggestions');
      const { prefix, cursor } = readSuggestParameters(c.req.query('prefix'), c.req.query('cursor'));
      return c.json(await suggestOrganisations(c.var.ctx.db, prefix, cursor));
    });
    app.get(`${base}/suggest/property`, requireToken, async (c) => {
      const { prefix, cursor } = readSuggestParameters(c.req.query('prefix'), c.req.query('cursor'));
      return c.json(suggestProperties(prefix, cursor));
    });
    app.get(`${base}/preview`, requireToken, async (c) => {
      refuseUnknownParameters(c, ['id']);
      const id = c.req.query('id');
      if (!id) throw invalidParameter('id: give the reference of an organisation or person.');
      const card = await findPreviewCard(c.var.ctx.db, c.var.ctx.loaders, id);
      requireArea(c, card.kind === 'organisation' ? 'organisations' : 'people');
      // Nothing but the page itself: no script, no fetch, no frame of its own.
      c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *");
      return c.html(renderPreview(card));
    });
    // Another method on a path of the service is told as such, before any token is read.
    for (const [path, allow] of [
      [base, 'GET, POST'],
      [`${base}/suggest/entity`, 'GET'],
      [`${base}/suggest/property`, 'GET'],
      [`${base}/preview`, 'GET'],
    ] as const) {
      app.on(['PUT', 'PATCH', 'DELETE'], path, (c) => {
        c.header('Allow', allow);
        throw new RequestError('METHOD_NOT_ALLOWED', `${c.req.method} is not served here; use ${allow}.`);
      });
    }
  }
}

/** A GET without parameters asks for the manifest (the specification's rule). */
const wantsManifest = (c: Context<AppEnv>) => Object.keys(c.req.queries()).length === 0;

/** The manifest with this request's own address, so that every address in it reaches this endpoint. */
function manifestOf(c: Context<AppEnv>, services: AppServices) {
  const origin = publicOrigin(c, services.config.trustProxy);
  const path = c.req.path.replace(/\/+$/, '');
  return manifestFor(origin, `${origin}${path}`);
}

/**
 * The scheme and host the client used: the request's own, or behind trusted proxies the ones they forward, since a
 * proxy that ends TLS would otherwise make every address in the manifest `http:`.
 */
function publicOrigin(c: Context<AppEnv>, trustProxy: number): string {
  const own = new URL(c.req.url);
  if (trustProxy === 0) return own.origin;
  const first = (name: string) => c.req.header(name)?.split(',', 1)[0]?.trim() || undefined;
  const scheme = first('X-Forwarded-Proto');
  const host = first('X-Forwarded-Host');
  const protocol = scheme === 'https' || scheme === 'http' ? scheme : own.protocol.slice(0, -1);
  return `${protocol}://${host && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? host : own.host}`;
}

/** The `queries` of a POST: a form field (what OpenRefine sends) or a JSON body `{ "queries": … }`. */
async function queriesOfBody(c: Context<AppEnv>): Promise<string | undefined> {
  const mediaType = (c.req.header('Content-Type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType === 'application/json') {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new RequestError('BAD_REQUEST', 'The body is not valid JSON.');
    }
    const queries = (body as { queries?: unknown } | null)?.queries;
    if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length !== 1)
      throw invalidParameter('Send the batch as { "queries": { … } }.');
    return typeof queries === 'string' ? queries : JSON.stringify(queries);
  }
  if (mediaType === 'application/x-www-form-urlencoded' || mediaType === 'multipart/form-data') {
    const form = await c.req.parseBody();
    const unknown = Object.keys(form).filter((name) => name !== 'queries');
    if (unknown.length) throw invalidParameter(`Unknown form field ${unknown.join(', ')}; send queries.`);
    const queries = form.queries;
    return typeof queries === 'string' ? queries : undefined;
  }
  throw new RequestError(
    'UNSUPPORTED_MEDIA_TYPE',
    'Send the batch as a form field queries (application/x-www-form-urlencoded) or as JSON { "queries": … }.',
  );
}

/** Runs a batch for the caller: every query counts toward the plan's requests, as a resolve input does. */
async function answerBatch(c: Context<AppEnv>, text: string | undefined) {
  if (text === undefined) throw invalidParameter('queries: give the batch of reconciliation queries.');
  const queries = parseQueryBatch(text);
  for (const type of typesOf(queries))
    requireArea(c, reconcileTypes.find((candidate) => candidate.id === type)!.area);
  await chargeInputs(c, queries.length);
  return reconcileBatch(c.var.ctx.db, queries);
}

function requireArea(c: Context<AppEnv>, area: DataArea): void {
  const plan = c.var.ctx.viewer?.plan;
  if (plan?.covers.includes(area)) return;
  throw new DomainError(
    'FORBIDDEN',
    `Your plan (${plan?.name ?? 'none'}) does not cover ${area}; it covers ${plan?.covers.join(', ') || 'nothing'}.`,
  );
}

function refuseUnknownParameters(c: Context<AppEnv>, known: readonly string[]): void {
  const names = Object.keys(c.req.queries());
  if (names.includes('callback'))
    throw invalidParameter(
      'callback: JSONP is not served (optional in version 0.2); the service answers CORS.',
    );
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length)
    throw invalidParameter(
      `Unknown parameter ${unknown.join(', ')}; this endpoint takes ${known.join(', ')}.`,
    );
}
