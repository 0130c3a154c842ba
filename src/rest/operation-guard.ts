import { closest, distance } from 'fastest-levenshtein';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { answerForCode } from '../http/errors.ts';
import { errorResponse } from './errors.ts';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface DocumentedPath {
  pattern: RegExp;
  /** Upper-case methods, with HEAD wherever GET is served. */
  allow: string[];
  /** The query parameters each method declares. */
  query: Map<string, string[]>;
}

interface OpenApiPaths {
  paths?: Record<string, Record<string, { parameters?: { name: string; in: string }[] } | undefined>>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The paths of an OpenAPI document as patterns, with the methods and query parameters each declares. */
export function indexPaths(document: OpenApiPaths, extra: Record<string, string[]> = {}): DocumentedPath[] {
  const entries: [string, Record<string, { parameters?: { name: string; in: string }[] } | undefined>][] = [
    ...Object.entries(document.paths ?? {}),
    ...Object.entries(extra).map(
      ([path, verbs]) => [path, Object.fromEntries(verbs.map((verb) => [verb, {}]))] as [string, never],
    ),
  ];
  return entries.map(([template, item]) => {
    const served = methods.filter((method) => item[method]);
    const allow = served.map((method) => method.toUpperCase());
    if (served.includes('get') && !served.includes('head')) allow.push('HEAD');
    const query = new Map(
      served.map((method) => [
        method.toUpperCase(),
        (item[method]?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      ]),
    );
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : escapeRegExp(part)))
      .join('');
    return { pattern: new RegExp(`^${source}$`), allow, query };
  });
}

const find = (paths: DocumentedPath[], path: string) => paths.find(({ pattern }) => pattern.test(path));

/**
 * A method the document does not serve on a path it does: 405 with `Allow` and the envelope. Mounted before
 * authentication, so a wrong method is told as such with or without a token.
 */
export function refuseUnsupportedMethods(paths: DocumentedPath[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const documented = find(paths, c.req.path);
    if (!documented || documented.allow.includes(c.req.method)) return next();
    c.header('Allow', documented.allow.join(', '));
    return errorResponse(c, answerForCode('METHOD_NOT_ALLOWED'), [
      `${c.req.method} is not served on ${c.req.path}; use ${documented.allow.join(' or ')}.`,
    ]);
  };
}

/** The known name a mistyped one most likely meant: within a third of its length (at least 2) edits. */
export function suggestName(unknown: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = unknown.toLowerCase();
  const best = closest(
    lower,
    known.map((name) => name.toLowerCase()),
  );
  const budget = Math.max(2, Math.floor(unknown.length / 3));
  if (distance(lower, best) > budget) return undefined;
  return known.find((name) => name.toLowerCase() === best);
}

/**
 * A query parameter the operation does not declare is refused with 422, each one named, with the closest
 * declared name where one is close: a mistyped filter must not silently return unfiltered data.
 */
export function refuseUnknownQueryParameters(paths: () => DocumentedPath[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const known = find(paths(), c.req.path)?.query.get(c.req.method === 'HEAD' ? 'GET' : c.req.method);
    if (!known) return next();
    const unknown = [...new Set(new URL(c.req.url).searchParams.keys())].filter(
      (name) => !known.includes(name),
    );
    if (unknown.length === 0) return next();
    const messages = unknown.map((name) => {
      const suggestion = suggestName(name, known);
      if (suggestion) return `Unknown query parameter \`${name}\`: did you mean ${suggestion}?`;
      if (known.length === 0) return `Unknown query parameter \`${name}\`: this endpoint takes none.`;
      return `Unknown query parameter \`${name}\`: accepted are ${known.join(', ')}.`;
    });
    return errorResponse(c, answerForCode('INVALID_PARAMETER'), messages);
  };
}
