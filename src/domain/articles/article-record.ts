import type { Database } from '../../db/database.ts';
import type { Loaders } from '../loaders.ts';
import type { Annotation, Article, Event, Organisation } from '../records.ts';
import { getArticle } from './get-article.ts';

/** An article's single record: the article, its statements, the events it reports and the organisations it names. */
export interface ArticleRecord {
  article: Article;
  annotations: Annotation[];
  events: Event[];
  organisations: Organisation[];
}

/** One article's record; NOT_FOUND when no article has `reference`. */
export async function getArticleRecord(
  db: Database,
  loaders: Loaders,
  reference: string,
): Promise<ArticleRecord> {
  const article = await getArticle(db, reference);
  const [annotations, events, organisations] = await Promise.all([
    loaders.annotationsByArticle.load(reference),
    loaders.eventsByArticle.load(reference),
    loaders.organisationsByArticle.load(reference),
  ]);
  return { article, annotations, events, organisations };
}
