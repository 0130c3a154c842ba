import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';
import { docPages, pageText } from './readme-blocks.ts';

/**
 * Every relative link in README.md and docs/ leads to a file or folder that exists, and a link to a heading
 * (`page.md#anchor`, `#anchor`) to a heading of that page, by the anchors GitHub gives headings, so a table of contents
 * cannot rot when a page or a heading is renamed.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Each line of a Markdown text, or '' for a line of a fenced block (its fences included). */
function outsideFences(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = line.match(/^\s*(`{3,}|~{3,})/)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        fence = undefined;
      }
      return '';
    }
    if (marker) fence = marker;
    return marker ? '' : line;
  });
}

/** The text outside fenced blocks and code spans, where a Markdown link is a link. */
function prose(text: string): string[] {
  return outsideFences(text).map((line) => line.replace(/(`+)[^`]*?\1/g, '``'));
}

/** The anchors GitHub makes of a page's headings (duplicates numbered as GitHub numbers them). */
function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const line of outsideFences(text)) {
    const heading = line.match(/^#{1,6}\s+(.*?)\s*#*\s*$/)?.[1];
    // The rendered text: a link's text, code without its backticks, no emphasis markers.
    if (heading) anchors.add(slugger.slug(heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')));
  }
  return anchors;
}

interface Link {
  page: string;
  line: number;
  target: string;
}

/** The inline links of a page's text whose target is not a URL. */
function linksIn(text: string, page: string): Link[] {
  const links: Link[] = [];
  prose(text).forEach((line, index) => {
    for (const match of line.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1] ?? '';
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ page, line: index + 1, target });
    }
  });
  return links;
}

/** Each link that leads to no file, or to no heading of its page, with where it is. */
function brokenLinks(links: readonly Link[]): string[] {
  const broken: string[] = [];
  for (const { page, line, target } of links) {
    const [path = '', anchor] = target.split('#', 2);
    const file = path === '' ? page : posix.normalize(posix.join(posix.dirname(page), decodeURI(path)));
    const where = `${page}:${line} → ${target}`;
    if (file.startsWith('..') || !existsSync(join(root, file))) {
      broken.push(`${where}: no file ${file}`);
      continue;
    }
    if (anchor === undefined) continue;
    if (statSync(join(root, file)).isDirectory() || !file.endsWith('.md')) {
      broken.push(`${where}: ${file} has no headings`);
      continue;
    }
    const text = docPages.includes(file) ? pageText(file) : readFileSync(join(root, file), 'utf8');
    if (!anchorsOf(text).has(decodeURIComponent(anchor)))
      broken.push(`${where}: no heading #${anchor} in ${file}`);
  }
  return broken;
}

describe('links in the README and docs', () => {
  const links = docPages.flatMap((page) => linksIn(pageText(page), page));

  it('are found on every page, the README leading to each docs page', () => {
    for (const page of docPages)
      expect(
        links.some((link) => link.page === page),
        page,
      ).toBe(true);
    const fromReadme = new Set(links.filter((link) => link.page === 'README.md').map((link) => link.target));
    for (const page of docPages.filter((page) => page !== 'README.md')) {
      expect(fromReadme, `README.md links to ${page}`).toContain(page);
    }
  });

  it('lead to files and headings that exist', () => {
    expect(brokenLinks(links)).toEqual([]);
  });

  it('are read from the prose only, and a missing file or heading is reported with where the link is', () => {
    const text = [
      '# Title',
      'See [rest](rest.md#paging), [gone](gone.md), [no heading](rest.md#no-such-heading) and [here](#title).',
      'A URL is not checked: [spec](https://example.com/x.md), nor `[code](nowhere.md)`.',
      '```md',
      '[in a block](nowhere.md)',
      '```',
    ].join('\n');
    const found = linksIn(text, 'docs/page.md');
    expect(found.map((link) => link.target)).toEqual([
      'rest.md#paging',
      'gone.md',
      'rest.md#no-such-heading',
      '#title',
    ]);
    expect(brokenLinks(found.filter((link) => link.target !== '#title'))).toEqual([
      'docs/page.md:2 → gone.md: no file docs/gone.md',
      'docs/page.md:2 → rest.md#no-such-heading: no heading #no-such-heading in docs/rest.md',
    ]);
  });

  it('take anchors as GitHub makes them', () => {
    expect([
      ...anchorsOf('# A\n## `@defer` and `@stream`\n## The typed client (`@orgraph/client`)\n## A\n'),
    ]).toEqual(['a', 'defer-and-stream', 'the-typed-client-orgraphclient', 'a-1']);
    expect([...anchorsOf("## An example: an organisation's people\n```sh\n# not a heading\n```\n")]).toEqual([
      'an-example-an-organisations-people',
    ]);
  });
});
