import { parseCursorConnectionArgs } from '@pothos/core';
import { type DefaultConnectionArguments, resolveCursorConnection } from '@pothos/plugin-relay';
import type { z } from 'zod';
import { invalidParameter } from '../domain/errors.ts';
import type { ListWindow } from '../domain/paging.ts';

/** The largest `first`/`last` a connection accepts; more is refused rather than silently cut. */
export const maxConnectionPage = 100;

/** Opaque cursor: base64url JSON of the row's sort key. */
export function encodeCursor(key: unknown): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<Key>(cursor: string, schema: z.ZodType<Key>): Key {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const result = schema.safeParse(parsed);
  if (!result.success)
    throw invalidParameter(`The cursor ${JSON.stringify(cursor)} was not issued by this list.`);
  return result.data;
}

/**
 * A relay connection over a keyset-ordered list: decodes the cursors into sort keys, reads one row
 * past the page in the requested direction through `fetch`, and encodes each row's key as its cursor.
 */
export interface KeysetConnection<Node> {
  edges: { cursor: string; node: Node }[];
  pageInfo: { startCursor: string; endCursor: string; hasPreviousPage: boolean; hasNextPage: boolean };
}

const sizes = { defaultSize: 20, maxSize: maxConnectionPage };

function checkSizes(args: DefaultConnectionArguments): void {
  for (const name of ['first', 'last'] as const) {
    const size = args[name];
    if (size != null && (size < 0 || size > maxConnectionPage)) {
      throw invalidParameter(
        `\`${name}\` is between 0 and ${maxConnectionPage}; page with the cursors instead.`,
      );
    }
  }
}

function windowOf<Key>(
  bounds: { after?: string | null; before?: string | null; limit: number; inverted: boolean },
  schema: z.ZodType<Key>,
): ListWindow<Key> {
  return {
    limit: bounds.limit,
    inverted: bounds.inverted,
    ...(bounds.after ? { after: decodeCursor(bounds.after, schema) } : {}),
    ...(bounds.before ? { before: decodeCursor(bounds.before, schema) } : {}),
  };
}

/** The window {@link resolveKeysetConnection} reads for `args`, for a read plan that loads it ahead. */
export function keysetWindow<Key>(args: DefaultConnectionArguments, schema: z.ZodType<Key>): ListWindow<Key> {
  checkSizes(args);
  return windowOf(parseCursorConnectionArgs({ args, ...sizes }), schema);
}

export async function resolveKeysetConnection<Node, Key>(
  args: DefaultConnectionArguments,
  keys: { schema: z.ZodType<Key>; of: (node: Node) => Key },
  fetch: (window: ListWindow<Key>) => Promise<readonly Node[]>,
): Promise<KeysetConnection<Node>> {
  checkSizes(args);
  const connection = await resolveCursorConnection(
    { args, ...sizes, toCursor: (node) => encodeCursor(keys.of(node as Node)) },
    (bounds) => fetch(windowOf(bounds, keys.schema)),
  );
  return connection as KeysetConnection<Node>;
}
