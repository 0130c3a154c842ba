import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/database.ts';
import {
  type Annotation,
  type Article,
  annotationsTable,
  articleOrganisationsTable,
  articlesTable,
} from '../../db/schema/articles.ts';
import { type Event, eventArticlesTable, eventsTable } from '../../db/schema/events.ts';
import { organisationsTable } from '../../db/schema/organisations.ts';
import { notFound } from '../errors.ts';
import type { ListWindow, Total } from '../paging.ts';

/** One article; NOT_FOUND when no article has `reference`. */
export async function getArticle(db: Database, reference: string): Promise<Article> {
  const [article] = await db.select().from(articlesTable).where(eq(articlesTable.reference, reference));
  if (!article) throw notFound('article', reference);
  return article;
}

export function findArticlesByReference(db: Database, references: readonly string[]): Promise<Article[]> {
  return db
    .select()
    .from(articlesTable)
    .where(inArray(articlesTable.reference, [...references]));
}

/** The statements of each article in reading order (by start offset). */
export function findAnnotationsByArticle(
  db: Database,
  articleReferences: readonly string[],
): Promise<Annotation[]> {
  const a = annotationsTable;
  return db
    .select()
    .from(a)
    .where(inArray(a.articleReference, [...articleReferences]))
    .orderBy(a.articleReference, asc(a.start), asc(a.end), asc(a.reference));
}

export function findAnnotationsByReference(
  db: Database,
  references: readonly string[],
): Promise<Annotation[]> {
  return db
    .select()
    .from(annotationsTable)
    .where(inArray(annotationsTable.reference, [...references]));
}

/** The events each article reports, newest first. */
export function findEventsByArticle(
  db: Database,
  articleReferences: readonly string[],
): Promise<{ articleReference: string; event: Event }[]> {
  const link = eventArticlesTable;
  return db
    .select({ articleReference: link.articleReference, event: eventsTable })
    .from(link)
    .innerJoin(eventsTable, eq(eventsTable.reference, link.eventReference))
    .where(inArray(link.articleReference, [...articleReferences]))
    .orderBy(link.articleReference, desc(eventsTable.publishDate), asc(eventsTable.reference));
}

/** The articles reporting each event, newest first. */
export function findArticlesByEvent(
  db: Database,
  eventReferences: readonly string[],
): Promise<{ eventReference: string; article: Article }[]> {
  const link = eventArticlesTable;
  return db
    .select({ eventReference: link.eventReference, article: articlesTable })
    .from(link)
    .innerJoin(articlesTable, eq(articlesTable.reference, link.articleReference))
    .where(inArray(link.eventReference, [...eventReferences]))
    .orderBy(link.eventReference, desc(articlesTable.publishedAt), desc(articlesTable.reference));
}

/** Article list order, newest first: publication time (ISO, microseconds), then reference, both descending. */
export interface ArticleKey {
  publishedAt: string;
  reference: string;
}

export interface ArticlePage {
  items: { article: Article; key: ArticleKey }[];
  total: Total;
}

/**
 * The articles mentioning each organisation, newest first, paged per organisation, in two statements
 * whatever the number of organisations. Unknown organisations are absent from the map.
 */
export async function findOrganisationArticles(
  db: Database,
  organisationReferences: readonly string[],
  window: ListWindow<ArticleKey>,
): Promise<Map<string, ArticlePage>> {
  if (organisationReferences.length === 0) return new Map();
  const rows = await queryRows<{
    organisationReference: string;
    total: number;
    articleReference: string | null;
    publishedKey: string | null;
  }>(db, organisationArticlesQuery(organisationReferences, window));
  const articleReferences = [...new Set(rows.flatMap((row) => row.articleReference ?? []))];
  const articles = new Map(
    (articleReferences.length === 0 ? [] : await findArticlesByReference(db, articleReferences)).map(
      (article) => [article.reference, article],
    ),
  );
  const pages = new Map<string, ArticlePage>();
  for (const row of rows) {
    let page = pages.get(row.organisationReference);
    if (!page) {
      page = { items: [], total: { value: Number(row.total), isEstimate: false } };
      pages.set(row.organisationReference, page);
    }
    const article = row.articleReference ? articles.get(row.articleReference) : undefined;
    if (article && row.publishedKey) {
      page.items.push({ article, key: { publishedAt: row.publishedKey, reference: article.reference } });
    }
  }
  return pages;
}

function organisationArticlesQuery(
  organisationReferences: readonly string[],
  window: ListWindow<ArticleKey>,
): SQL {
  const link = articleOrganisationsTable;
  const o = organisationsTable;
  const refs = [...organisationReferences];
  const keyset: SQL[] = [];
  if (window.after) {
    keyset.push(
      sql`("publishedAt", "articleReference") < (${window.after.publishedAt}::timestamptz, ${window.after.reference}::uuid)`,
    );
  }
  if (window.before) {
    keyset.push(
      sql`("publishedAt", "articleReference") > (${window.before.publishedAt}::timestamptz, ${window.before.reference}::uuid)`,
    );
  }
  const direction = sql.raw(window.inverted ? 'asc' : 'desc');
  const offset = window.offset ?? 0;
  return sql`
    with linked as (
      select ${link.organisationReference} as "organisationReference", art.reference as "articleReference", art.published_at as "publishedAt"
      from ${link} join ${articlesTable} art on art.reference = ${link.articleReference}
      where ${inArray(link.organisationReference, refs)}
    ),
    windowed as (
      select l.*, row_number() over (partition by "organisationReference" order by "publishedAt" ${direction}, "articleReference" ${direction}) as "windowRank"
      from linked l${keyset.length > 0 ? sql` where ${and(...keyset)}` : sql``}
    ),
    page as (select * from windowed where "windowRank" > ${offset} and "windowRank" <= ${offset + window.limit}),
    totals as (
      select ${o.reference} as "organisationReference",
        (select count(*) from linked l where l."organisationReference" = ${o.reference})::int as total
      from ${o} where ${inArray(o.reference, refs)}
    )
    select t."organisationReference", t.total, pg."articleReference",
      to_char(pg."publishedAt" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "publishedKey"
    from totals t left join page pg on pg."organisationReference" = t."organisationReference"
    order by t."organisationReference", pg."windowRank"`;
}
