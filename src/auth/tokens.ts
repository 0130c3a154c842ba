import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { preparedPerDatabase } from '../db/prepared-query.ts';
import { type ApiToken, apiTokensTable } from '../db/schema/access.ts';
import { DomainError } from '../domain/errors.ts';
import type { Plan } from './plans.ts';
import type { ViewerCache } from './viewer-cache.ts';

/** Every token starts with this, so a leaked one is easy to recognise (and to scan for). */
export const tokenPrefix = 'orgr_';
/** `orgr_`, 256 random bits in base64url, and a {@link checksumLength}-character checksum of both. */
const tokenPattern = /^orgr_[A-Za-z0-9_-]{49}$/;
/** Tokens issued before the checksum: still accepted, and looked up like any other. */
const legacyTokenPattern = /^orgr_[A-Za-z0-9_-]{43}$/;
const checksumLength = 6;

/** The first 36 bits of the SHA-256 of the token's prefix and random part, in base64url. */
function checksumOf(body: string): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, checksumLength);
}

/**
 * Whether a token can exist at all, told from its text alone: one of the current form with a checksum that
 * matches, or one of the form issued before the checksum. A typo, a truncated copy or a made-up token fails this
 * and needs no lookup.
 */
export function isPossibleToken(token: string): boolean {
  if (legacyTokenPattern.test(token)) return true;
  if (!tokenPattern.test(token)) return false;
  const body = token.slice(0, -checksumLength);
  return checksumOf(body) === token.slice(-checksumLength);
}

/** The caller behind a request: which token, and the plan it reaches. */
export interface Viewer {
  tokenId: string;
  plan: Plan;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Creates a token (256 random bits and a checksum) and stores only its hash; the secret is returned once. */
export async function createToken(
  db: Database,
  plans: ReadonlyMap<string, Plan>,
  input: { plan: string; label?: string | undefined },
): Promise<{ token: string; record: Omit<ApiToken, 'tokenHash'> }> {
  if (!plans.has(input.plan)) {
    throw new DomainError(
      'INVALID_PARAMETER',
      `Unknown plan "${input.plan}"; the plans are ${[...plans.keys()].join(', ')}.`,
    );
  }
  const body = `${tokenPrefix}${randomBytes(32).toString('base64url')}`;
  const token = `${body}${checksumOf(body)}`;
  const [record] = await db
    .insert(apiTokensTable)
    .values({
      id: randomUUID(),
      tokenHash: hashToken(token),
      hint: token.slice(0, tokenPrefix.length + 6),
      label: input.label ?? null,
      plan: input.plan,
    })
    .returning();
  const { tokenHash: _hash, ...visible } = record!;
  return { token, record: visible };
}

export async function listTokens(db: Database): Promise<Omit<ApiToken, 'tokenHash'>[]> {
  const rows = await db.select().from(apiTokensTable).orderBy(desc(apiTokensTable.createdAt));
  return rows.map(({ tokenHash: _hash, ...visible }) => visible);
}

/** Revokes by id or by the token itself; returns false when nothing active matched. */
export async function revokeToken(db: Database, idOrToken: string): Promise<boolean> {
  // Only a UUID in its textual form is an id; anything else (36 hex digits, say) is hashed as a token and matches none.
  const byId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrToken)
    ? eq(apiTokensTable.id, idOrToken)
    : undefined;
  const match = byId ?? eq(apiTokensTable.tokenHash, hashToken(idOrToken));
  const revoked = await db
    .update(apiTokensTable)
    .set({ revokedAt: new Date() })
    .where(and(or(match), isNull(apiTokensTable.revokedAt)))
    .returning({ id: apiTokensTable.id });
  return revoked.length > 0;
}

/**
 * Resolves a bearer token to its viewer; null for a malformed, unknown or revoked token. Looked up in the
 * database unless `cache` holds it (a cache that PostgreSQL empties on every change to the tokens), so a
 * revocation takes effect on every instance as soon as it is committed.
 */
export async function findViewer(
  db: Database,
  plans: ReadonlyMap<string, Plan>,
  token: string,
  cache?: ViewerCache | null,
): Promise<Viewer | null> {
  if (!isPossibleToken(token)) return null;
  const cached = cache?.get(token);
  if (cached) return cached;
  const version = cache?.version ?? 0;
  const [row] = await viewerLookup(db).execute({ tokenHash: hashToken(token) });
  const plan = row ? plans.get(row.plan) : undefined;
  if (!row || !plan) return null;
  const viewer = { tokenId: row.id, plan };
  cache?.set(token, viewer, version);
  return viewer;
}

/**
 * The lookup every request makes, built once per database: building it anew was a large share of a REST single
 * record's CPU (bench/NOTES.md 60). token_hash is unique, so there is no LIMIT.
 */
const viewerLookup = preparedPerDatabase((db) =>
  db
    .select({ id: apiTokensTable.id, plan: apiTokensTable.plan })
    .from(apiTokensTable)
    .where(and(eq(apiTokensTable.tokenHash, sql.placeholder('tokenHash')), isNull(apiTokensTable.revokedAt)))
    .prepare('orgraph_find_viewer'),
);

/** Reads the token from an `Authorization: Bearer <token>` header value. */
export function bearerToken(header: string | null | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}
