import { describe, expect, it } from 'vitest';
import type { Article } from '../../db/schema/articles.ts';
import { assembleProfileArticles, type ProfileArticleRow } from './profile-articles.ts';

const person = '11111111-1111-4111-8111-111111111111';
const other = '22222222-2222-4222-8222-222222222222';

function article(reference: string): Article {
  return {
    reference,
    title: `Article ${reference}`,
    url: null,
    publishedAt: new Date('2025-01-01T00:00:00Z'),
    content: '',
    licence: 'full_text',
  };
}

function row(overrides: Partial<ProfileArticleRow>): ProfileArticleRow {
  return {
    personReference: person,
    total: 2,
    windowRank: 1,
    publishedKey: '2025-01-01T00:00:00.000000Z',
    role: 'about',
    historyCount: 1,
    reference: 'n1',
    articleReference: 'a1',
    type: 'review',
    summary: 's',
    text: 't',
    start: 0,
    end: 1,
    organisationReference: null,
    speakerKind: 'body',
    speakerName: 'Board',
    speakerRole: null,
    speakerOrganisationName: null,
    speakerProfileReference: null,
    subjectName: 'Someone',
    subjectRole: null,
    subjectOrganisationName: null,
    subjectProfileReference: person,
    ...overrides,
  };
}

const articles = new Map([
  ['a1', article('a1')],
  ['a2', article('a2')],
]);

describe('assembleProfileArticles', () => {
  it('groups the statements of one page position into one item, each on its side, in row order', () => {
    const rows = [
      row({ reference: 'n1', role: 'about', start: 5 }),
      row({ reference: 'n2', role: 'about', start: 9, historyCount: 3 }),
      row({ reference: 'n3', role: 'by', start: 20 }),
      row({
        reference: 'n4',
        windowRank: 2,
        articleReference: 'a2',
        publishedKey: '2024-01-01T00:00:00.000000Z',
      }),
    ];
    const page = assembleProfileArticles(rows, articles, { collapse: 'latest' }).get(person)!;
    expect(page.total).toEqual({ value: 2, isEstimate: false });
    expect(page.items.map((item) => item.article.reference)).toEqual(['a1', 'a2']);
    expect(page.items[0]!.about.map((a) => [a.reference, a.historyCount])).toEqual([
      ['n1', 1],
      ['n2', 3],
    ]);
    expect(page.items[0]!.by.map((a) => a.reference)).toEqual(['n3']);
    expect(page.items[1]!.key).toEqual({
      publishedAt: '2024-01-01T00:00:00.000000Z',
      articleReference: 'a2',
    });
  });

  it('leaves historyCount off when nothing is folded', () => {
    const page = assembleProfileArticles([row({})], articles, { collapse: 'none' }).get(person)!;
    expect(page.items[0]!.about[0]).not.toHaveProperty('historyCount');
    expect(page.items[0]!.about[0]).toMatchObject({
      reference: 'n1',
      type: 'review',
      subjectProfileReference: person,
    });
  });

  it('keeps a known person whose page is empty, with their total, and omits unknown ones', () => {
    const empty = row({
      personReference: other,
      total: 7,
      windowRank: null,
      publishedKey: null,
      role: null,
      historyCount: null,
      reference: null,
      articleReference: null,
    });
    const pages = assembleProfileArticles([empty], articles, { collapse: 'latest' });
    expect([...pages.keys()]).toEqual([other]);
    expect(pages.get(other)).toEqual({ items: [], total: { value: 7, isEstimate: false } });
  });
});
