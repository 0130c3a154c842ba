import { describe, expect, it } from 'vitest';
import { ArticleText, hasAstralBefore } from './article-text.ts';
import { articlesOf, type GeneratedArticle } from './articles.ts';
import { createWorld } from './world.ts';

const world = createWorld(0.2, new Date('2025-06-15T10:00:00Z'));
const articles: GeneratedArticle[] = [];
for (let story = 0; story < world.counts.stories; story += 1) articles.push(...articlesOf(world, story));
const annotations = articles.flatMap((article) =>
  article.annotations.map((annotation) => ({ article, annotation })),
);

describe('ArticleText', () => {
  it('records offsets in UTF-16 code units', () => {
    const text = new ArticleText();
    text.append('📈 𠮷 ');
    const { start, end } = text.mark('“Hello,” said Ana.');
    expect(start).toBe(6);
    expect([...'📈 𠮷 '].length).toBe(4);
    expect(text.toString().slice(start, end)).toBe('“Hello,” said Ana.');
    expect(hasAstralBefore(text.toString(), start)).toBe(true);
  });
});

describe('generated articles', () => {
  it('produces a few annotations per article', () => {
    expect(articles.length).toBeGreaterThan(world.counts.stories);
    expect(annotations.length / articles.length).toBeGreaterThan(2.5);
  });

  it('locates every annotation exactly: content.slice(start, end) === text', () => {
    for (const { article, annotation } of annotations) {
      expect(article.content.slice(annotation.start, annotation.end)).toBe(annotation.text);
      expect(annotation.articleReference).toBe(article.reference);
    }
  });

  it('puts characters outside the BMP before every annotation, so UTF-16 and code point offsets differ', () => {
    for (const { article, annotation } of annotations) {
      expect(hasAstralBefore(article.content, annotation.start)).toBe(true);
      const codePointStart = [...article.content.slice(0, annotation.start)].length;
      expect(codePointStart).toBeLessThan(annotation.start);
    }
  });

  it('covers all four types and both speaker kinds, with and without linked profiles', () => {
    const types = new Set(annotations.map(({ annotation }) => annotation.type));
    expect([...types].sort()).toEqual(['feedback', 'recommendation', 'review', 'speech']);
    const persons = annotations.filter(({ annotation }) => annotation.speakerKind === 'person');
    const bodies = annotations.filter(({ annotation }) => annotation.speakerKind === 'body');
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.every(({ annotation }) => annotation.speakerProfileReference === null)).toBe(true);
    const linkedSpeakers = persons.filter(
      ({ annotation }) => annotation.speakerProfileReference !== null,
    ).length;
    expect(linkedSpeakers / persons.length).toBeGreaterThan(0.7);
    expect(linkedSpeakers).toBeLessThan(persons.length);
    const linkedSubjects = annotations.filter(
      ({ annotation }) => annotation.subjectProfileReference !== null,
    ).length;
    expect(linkedSubjects / annotations.length).toBeGreaterThan(0.7);
    expect(linkedSubjects).toBeLessThan(annotations.length);
    expect(annotations.every(({ annotation }) => annotation.organisationReference.length === 36)).toBe(true);
  });

  it('repeats statements yearly: same organisation, type, speaker and subject in consecutive years', () => {
    const years = new Map<string, number[]>();
    for (const { article, annotation } of annotations) {
      if (!annotation.subjectProfileReference) continue;
      const key = [
        annotation.organisationReference,
        annotation.type,
        annotation.speakerKind,
        annotation.speakerName,
        annotation.subjectProfileReference,
      ].join('|');
      years.set(key, [...(years.get(key) ?? []), article.publishedAt.getUTCFullYear()]);
    }
    const series = [...years.values()]
      .map((list) => [...new Set(list)].sort())
      .filter((list) => list.length >= 2);
    expect(series.length).toBeGreaterThanOrEqual(3);
    const consecutive = series.filter((list) => list.every((year, i) => i === 0 || year - list[i - 1]! <= 2));
    expect(consecutive.length).toBe(series.length);
  });

  it('links reported moves to at most two articles each, and some articles to several events', () => {
    const perEvent = new Map<string, number>();
    for (const article of articles) {
      for (const event of article.eventReferences) perEvent.set(event, (perEvent.get(event) ?? 0) + 1);
    }
    expect(perEvent.size).toBeGreaterThan(0);
    expect(Math.max(...perEvent.values())).toBeLessThanOrEqual(2);
    expect(articles.some((article) => article.eventReferences.length >= 2)).toBe(true);
  });

  it('has both licences, and articles with and without a url', () => {
    const metadataOnly = articles.filter((article) => article.licence === 'metadata_only').length;
    expect(metadataOnly / articles.length).toBeGreaterThan(0.08);
    expect(metadataOnly / articles.length).toBeLessThan(0.25);
    expect(articles.some((article) => article.url === null)).toBe(true);
    expect(articles.some((article) => article.url?.startsWith('https://'))).toBe(true);
  });

  it('is deterministic', () => {
    const again = createWorld(0.2, new Date('2025-06-15T23:59:00Z'));
    expect(articlesOf(again, 5)).toEqual(articlesOf(world, 5));
  });
});
