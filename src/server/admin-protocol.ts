import { resolve } from 'node:path';

/** What the token commands ask a running server on the embedded store (admin-socket.ts). */
export type AdminRequest =
  | { command: 'create'; plan: string; label?: string }
  | { command: 'list' }
  | { command: 'revoke'; idOrToken: string };

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
  | { ok: false; error: string };

/** The socket of the server running on the embedded store in `dataDir`. */
export function adminSocketPath(dataDir: string): string {
  return `${resolve(dataDir)}.admin/socket`;
}
