import { readdirSync, readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);

/** The pages whose examples are checked: the README and every page of `docs/`, as paths from the repository root. */
export const docPages: readonly string[] = [
  'README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

const texts = new Map<string, string>();

/** The text of a page (`README.md`, `docs/rest.md`), read once. */
export function pageText(page: string): string {
  let text = texts.get(page);
  if (text === undefined) {
    text = readFileSync(new URL(page, root), 'utf8');
    texts.set(page, text);
  }
  return text;
}

/** What the line before a block says about it (docs/testing.md, "The README and docs examples"). */
export type Marker = { kind: 'not run'; reason: string } | { kind: 'run by'; file: string };

export interface DocBlock {
  /** The page it is on, from the repository root (`README.md`, `docs/rest.md`). */
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word (`sh`, `json`, `ts`…), or ''. */
  language: string;
  /** The lines between the fences, with the fence's indentation removed. */
  body: string;
  /** The nearest heading above the block. */
  heading: string;
  marker?: Marker;
}

const markerPattern = /^<!--\s*example:\s*(not run|run by)\s*(?:—|-)?\s*(.*?)\s*-->$/;

/**
 * The fenced code blocks of a Markdown text, as CommonMark reads them: a fence of three or more backticks or tildes
 * opens a block that only a fence of the same character, at least as long and with nothing after it, closes. A block
 * left open is an error naming the page and the line it opens on.
 */
export function blocksOf(text: string, page: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  let heading = '';
  let previous = '';
  let open: { line: number; fence: string; indent: number; language: string; marker?: Marker } | undefined;
  let body: string[] = [];
  lines.forEach((line, index) => {
    if (open) {
      const close = line.match(/^(\s*)(`{3,}|~{3,})\s*$/);
      const closing = close?.[2] ?? '';
      if (closing[0] === open.fence[0] && closing.length >= open.fence.length) {
        blocks.push({
          page,
          line: open.line,
          language: open.language,
          body: body.join('\n'),
          heading,
          ...(open.marker ? { marker: open.marker } : {}),
        });
        open = undefined;
        previous = '';
      } else body.push(line.slice(Math.min(open.indent, line.length - line.trimStart().length)));
      return;
    }
    const title = line.match(/^#{1,6}\s+(.*)$/);
    if (title?.[1]) heading = title[1].trim();
    const fence = line.match(/^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/);
    if (fence?.[2]) {
      const marked = previous.match(markerPattern);
      let marker: Marker | undefined;
      if (marked?.[1] === 'not run') marker = { kind: 'not run', reason: marked[2] ?? '' };
      else if (marked?.[1] === 'run by') marker = { kind: 'run by', file: marked[2] ?? '' };
      open = {
        line: index + 1,
        fence: fence[2],
        indent: fence[1]?.length ?? 0,
        language: fence[3] ?? '',
        marker,
      };
      body = [];
      return;
    }
    if (line.trim() !== '') previous = line.trim();
  });
  if (open) throw new Error(`${page}: the code block opened on line ${open.line} is never closed`);
  return blocks;
}

/** The fenced blocks of one page. */
export function pageBlocks(page: string): DocBlock[] {
  return blocksOf(pageText(page), page);
}

/** The one block of `page` under `heading` whose text contains `contains`. */
export function pageBlock(
  page: string,
  heading: string,
  contains: string,
  blocks: readonly DocBlock[] = pageBlocks(page),
): DocBlock {
  const found = blocks.filter(
    (block) => block.page === page && block.heading === heading && block.body.includes(contains),
  );
  if (found.length !== 1) {
    throw new Error(`${page} has ${found.length} blocks under "${heading}" containing "${contains}", not 1`);
  }
  return found[0] as DocBlock;
}
