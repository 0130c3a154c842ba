import DataLoader from 'dataloader';
import type { Database } from '../../db/database.ts';
import { loaderByArguments, oneByKey } from '../batch.ts';
import type { ListWindow } from '../paging.ts';
import {
  type ArticleKey,
  type ArticlePage,
  findAnnotationsByArticle,
  findAnnotationsByReference,
  findArticlesByEvent,
  findArticlesByReference,
  findEventsByArticle,
  findOrganisationArticles,
} from './get-article.ts';

export function createArticleLoaders(db: Database) {
  return {
    articleByReference: oneByKey(
      (references: readonly string[]) => findArticlesByReference(db, references),
      (row) => row.reference,
    ),
    annotationByReference: oneByKey(
      (references: readonly string[]) => findAnnotationsByReference(db, references),
      (row) => row.reference,
    ),
    annotationsByArticle: groupedBy(
      (references) => findAnnotationsByArticle(db, references),
      (row) => ({ key: row.articleReference, value: row }),
    ),
    /** Event rows (any type) reported by each article. */
    eventsByArticle: groupedBy(
      (references) => findEventsByArticle(db, references),
      (row) => ({ key: row.articleReference, value: row.event }),
    ),
    articlesByEvent: groupedBy(
      (references) => findArticlesByEvent(db, references),
      (row) => ({ key: row.eventReference, value: row.article }),
    ),
    /** A page of the articles mentioning an organisation; organisations asking for the same window share a query. */
    organisationArticles: loaderByArguments<ListWindow<ArticleKey>, ArticlePage>(
      (references, window) => findOrganisationArticles(db, references, window),
      () => ({ items: [], total: { value: 0, isEstimate: false } }),
    ),
  };
}

/** Like `manyByKey`, for queries whose rows carry the key beside the record (link tables). */
function groupedBy<Row, Value>(
  fetch: (keys: readonly string[]) => Promise<Row[]>,
  split: (row: Row) => { key: string; value: Value },
): DataLoader<string, Value[]> {
  return new DataLoader<string, Value[]>(async (keys) => {
    const byKey = new Map<string, Value[]>();
    for (const row of await fetch(keys)) {
      const { key, value } = split(row);
      const list = byKey.get(key);
      if (list) list.push(value);
      else byKey.set(key, [value]);
    }
    return keys.map((key) => byKey.get(key) ?? []);
  });
}
