import { resolve } from 'node:path';
import type { ImportSummary } from '../domain/import/import-records.ts';

/**
 * What the CLI asks a running server on the embedded store (admin-socket.ts). Every connection opens with one of
 * these as its first message (admin-messages.ts); a token command is answered with one `AdminResponse` and the
 * connection closes, a records command converses until its `AdminResponse` (admin-records.ts). A new command is a
 * new member here and a case in admin-socket.ts.
 */
export type AdminRequest =
  | { command: 'create'; plan: string; label?: string }
  | { command: 'list' }
  | { command: 'revoke'; idOrToken: string }
  | AdminImportRequest
  | { command: 'import-source'; key: string }
  | { command: 'export'; types: string[] }
  | { command: 'seed'; scale: number; reset: boolean }
  | AdminResolveRequest;

/** One call of `orgraph resolve`: the inputs follow as a JSON payload, the rows come back as one (admin-resolve.ts). */
export interface AdminResolveRequest {
  command: 'resolve';
  kind: 'organisations' | 'profiles';
  minScore: number;
  maxCandidates: number;
}

/**
 * An import. The server asks for each file with `{ open: { source, key } }` when the import reads it (perhaps twice),
 * and the CLI answers on a new connection opened with `{ command: 'import-source', key }`, then the file's bytes in
 * `{ bytes }` messages and `{ end: true }` (a connection that closes before it cuts the file short, an error).
 * Rejected records come back as `{ rejects: true, bytes }`, progress as `{ progress }`.
 */
export interface AdminImportRequest {
  command: 'import';
  sources: { name: string; rereadable: boolean }[];
  dryRun: boolean;
  allOrNothing: boolean;
  batchSize: number;
  /** The rejects file's path as the CLI names it (it writes the file), or null to only count them. */
  rejects: string | null;
  progress: boolean;
}

export interface AdminTokenRow {
  id: string;
  hint: string;
  plan: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export type AdminResponse =
  | { ok: true; token: string }
  | { ok: true; tokens: AdminTokenRow[] }
  | { ok: true; revoked: boolean }
  | { ok: true; summary: ImportSummary }
  | { ok: true; exported: Record<string, number> }
  | { ok: true; report: { rows: Record<string, number>; seconds: number } }
  | { ok: true; resolved: number }
  | { ok: false; error: string };

/** The socket of the server running on the embedded store in `dataDir`. */
export function adminSocketPath(dataDir: string): string {
  return `${resolve(dataDir)}.admin/socket`;
}
