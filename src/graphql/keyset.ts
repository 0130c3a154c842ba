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

export async function resolveKeysetConnection<Node, Key>(
  args: DefaultConnectionArguments,
  keys: { schema: z.ZodType<Key>; of: (node: Node) => Key },
  fetch: (window: ListWindow<Key>) => Promise<readonly Node[]>,
): Promise<KeysetConnection<Node>> {
  for (const name of ['first', 'last'] as const) {
    const size = args[name];
    if (size != null && (size < 0 || size > maxConnectionPage)) {
      throw invalidParameter(
        `\`${name}\` is between 0 and ${maxConnectionPage}; page with the cursors instead.`,
      );
    }
  }
  const connection = await resolveCursorConnection(
    {
      args,
      defaultSize: 20,
      maxSize: maxConnectionPage,
      toCursor: (node) => encodeCursor(keys.of(node as Node)),
    },
    ({ after, before, limit, inverted }) =>
      fetch({
        limit,
        inverted,
        ...(after ? { after: decodeCursor(after, keys.schema) } : {}),
        ...(before ? { before: decodeCursor(before, keys.schema) } : {}),
      }),
  );
  return connection as KeysetConnection<Node>;
}
