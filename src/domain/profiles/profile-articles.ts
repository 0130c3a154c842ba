import { getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/database.ts';
import { perShape, renderedOnceWith } from '../../db/render-once.ts';
import { type Annotation, type Article, annotationsTable, articlesTable } from '../../db/schema/articles.ts';
import { profilesTable } from '../../db/schema/profiles.ts';
import { uuidArrayLiteral } from '../../db/uuid-array.ts';
import { notFound } from '../errors.ts';
import type { Loaders } from '../loaders.ts';
import type { ListWindow, Total } from '../paging.ts';
import type { Event } from '../records.ts';
import type { AnnotationType } from '../vocabulary/articles.ts';

/** Which side of a statement the person is on: its subject (`about`) or its speaker (`by`). */
export const annotationRoles = ['about', 'by'] as const;
export type AnnotationRole = (typeof annotationRoles)[number];

/** `latest` folds a repeated yearly statement into its newest occurrence; `none` keeps every one. */
export const collapseModes = ['latest', 'none'] as const;
export type CollapseMode = (typeof collapseModes)[number];

export interface ProfileArticleOptions {
  /** Only statements of this type, and only articles that have one. */
  type?: AnnotationType;
  /** Only this side, and only articles where the person is on it. */
  role?: AnnotationRole;
  collapse: CollapseMode;
}

/** The list order, newest first: publication time (ISO, microseconds), then article reference, both descending. */
export interface ProfileArticleKey {
  publishedAt: string;
  articleReference: string;
}

/** A statement as it appears in a person's article list. */
export interface ProfileAnnotation extends Annotation {
  /** Under `collapse: latest`, how many statements of the series were folded into this one, itself included. */
  historyCount?: number;
}

export interface ProfileArticle {
  article: Article;
  about: ProfileAnnotation[];
  by: ProfileAnnotation[];
  key: ProfileArticleKey;
}

export interface ProfileArticlePage {
  items: ProfileArticle[];
  /** Every matching article of the person after filtering and folding, not only this page. */
  total: Total;
}

/**
 * A person's articles (the person is the subject or the speaker of at least one statement), newest
 * first, with the statements on each side, filtered and folded per `options`. NOT_FOUND for an unknown person.
 */
export async function getProfileArticles(
  db: Database,
  profileReference: string,
  options: ProfileArticleOptions,
  window: ListWindow<ProfileArticleKey>,
): Promise<ProfileArticlePage> {
  const pages = await findProfileArticles(db, [profileReference], options, window);
  const page = pages.get(profileReference);
  if (!page) throw notFound('profile', profileReference);
  return page;
}

/**
 * `getProfileArticles` for many people at once, in two statements whatever their number: the folding,
 * filtering, paging (per person) and counting happen in one SQL statement, then the page's articles
 * are read. Unknown people are absent from the map.
 */
export async function findProfileArticles(
  db: Database,
  profileReferences: readonly string[],
  options: ProfileArticleOptions,
  window: ListWindow<ProfileArticleKey>,
): Promise<Map<string, ProfileArticlePage>> {
  if (profileReferences.length === 0) return new Map();
  const rows = await queryRows<ProfileArticleRow>(
    db,
    profileArticlesStatement(profileReferences, options, window, annotationKeys, []),
  );
  const articleReferences = [
    ...new Set(rows.flatMap((row) => (row.reference ? (row.articleReference ?? []) : []))),
  ];
  const articles =
    articleReferences.length === 0
      ? []
      : await db.select().from(articlesTable).where(inArray(articlesTable.reference, articleReferences));
  return assembleProfileArticles(
    rows,
    new Map(articles.map((article) => [article.reference, article])),
    options,
  );
}

/** One row of the SQL result: a person's total, and (when the page has any) one statement on the page. */
export type ProfileArticleRow = {
  personReference: string;
  total: number;
  windowRank: number | null;
  publishedKey: string | null;
  role: AnnotationRole | null;
  historyCount: number | null;
} & { [K in keyof Annotation]: Annotation[K] | null };

/**
 * Groups the statement rows (ordered by person, page position, role, offset) into article items.
 * `historyCount` is kept only when folding, since unfolded statements have no series to count.
 */
export function assembleProfileArticles(
  rows: readonly ProfileArticleRow[],
  articles: ReadonlyMap<string, Article>,
  options: Pick<ProfileArticleOptions, 'collapse'>,
): Map<string, ProfileArticlePage> {
  return assembleProfileArticlePages(
    rows,
    options,
    (row) => articles.get(row.articleReference!),
    toAnnotation,
  );
}

/** {@link assembleProfileArticles} with the article and the statement of a row taken by the caller. */
export function assembleProfileArticlePages<Row extends ProfileArticleRow>(
  rows: readonly Row[],
  options: Pick<ProfileArticleOptions, 'collapse'>,
  articleOf: (row: Row) => Article | undefined,
  annotationOf: (row: Row) => ProfileAnnotation,
): Map<string, ProfileArticlePage> {
  const pages = new Map<string, ProfileArticlePage>();
  const itemByPosition = new Map<string, ProfileArticle>();
  for (const row of rows) {
    let page = pages.get(row.personReference);
    if (!page) {
      page = { items: [], total: { value: Number(row.total), isEstimate: false } };
      pages.set(row.personReference, page);
    }
    if (row.reference === null || row.role === null || row.publishedKey === null) continue;
    const positionKey = `${row.personReference}:${row.windowRank}`;
    let item = itemByPosition.get(positionKey);
    if (!item) {
      const article = articleOf(row);
      if (!article) continue;
      item = {
        article,
        about: [],
        by: [],
        key: { publishedAt: row.publishedKey, articleReference: article.reference },
      };
      itemByPosition.set(positionKey, item);
      page.items.push(item);
    }
    const annotation = annotationOf(row);
    if (options.collapse === 'latest') annotation.historyCount = Number(row.historyCount);
    item[row.role].push(annotation);
  }
  return pages;
}

const annotationColumns = getTableColumns(annotationsTable);
/** Every statement column, in the table's order. */
export const annotationKeys = Object.keys(annotationColumns) as (keyof Annotation)[];
/** Every article column, in the table's order. */
export const articleKeys = Object.keys(getTableColumns(articlesTable)) as (keyof Article)[];

function toAnnotation(row: ProfileArticleRow): ProfileAnnotation {
  const annotation = {} as Record<string, unknown>;
  for (const key of annotationKeys) annotation[key] = row[key];
  return annotation as unknown as ProfileAnnotation;
}

/** The statement columns the folding, the paging and the grouping read, whatever else is selected. */
const seriesKeys = new Set<keyof Annotation>([
  'reference',
  'articleReference',
  'organisationReference',
  'type',
  'speakerKind',
  'speakerName',
  'speakerProfileReference',
  'start',
]);

/** The prefix of a joined article column's property in a statement row. */
export const articleColumnPrefix = 'article_';

type StatementValue =
  | 'references'
  | 'type'
  | 'afterPublishedAt'
  | 'afterReference'
  | 'beforePublishedAt'
  | 'beforeReference'
  | 'offset'
  | 'end';

/** What a statement's text depends on; its values come apart. */
interface StatementShape {
  type: boolean;
  role: AnnotationRole | null;
  collapse: CollapseMode;
  after: boolean;
  before: boolean;
  inverted: boolean;
  /** Statement columns in each row, besides the reference and the article's. */
  annotationKeys: readonly (keyof Annotation)[];
  /** Article columns joined to each row (as `article_<key>`); none leaves the articles to be read apart. */
  articleKeys: readonly (keyof Article)[];
}

/** Statements rendered once per shape; a shape comes from a document, so their number is capped. */
const statements = perShape<(values: Readonly<Record<StatementValue, unknown>>) => SQL>();

/**
 * The statement of people's article pages, its text rendered once per shape: `annotations` and `articles` name the
 * columns each row carries (in any order; the table's order is used).
 */
export function profileArticlesStatement(
  profileReferences: readonly string[],
  options: ProfileArticleOptions,
  window: ListWindow<ProfileArticleKey>,
  annotations: readonly (keyof Annotation)[],
  articles: readonly (keyof Article)[],
): SQL {
  const shape: StatementShape = {
    type: options.type !== undefined,
    role: options.role ?? null,
    collapse: options.collapse,
    after: window.after !== undefined,
    before: window.before !== undefined,
    inverted: window.inverted === true,
    annotationKeys: annotationKeys.filter(
      (key) => key === 'reference' || key === 'articleReference' || annotations.includes(key),
    ),
    articleKeys: articleKeys.filter((key) => articles.includes(key)),
  };
  const statement = statements(JSON.stringify(shape), () =>
    renderedOnceWith((value: (name: StatementValue) => SQL) => profileArticlesQuery(shape, value)),
  );
  const offset = window.offset ?? 0;
  return statement({
    references: uuidArrayLiteral(profileReferences),
    type: options.type ?? null,
    afterPublishedAt: window.after?.publishedAt ?? null,
    afterReference: window.after?.articleReference ?? null,
    beforePublishedAt: window.before?.publishedAt ?? null,
    beforeReference: window.before?.articleReference ?? null,
    offset,
    end: offset + window.limit,
  });
}

function fromAlias(alias: string, keys: readonly string[]): SQL {
  return sql.join(
    keys.map((key) => sql`${sql.identifier(alias)}.${sql.identifier(key)}`),
    sql`, `,
  );
}

/**
 * The statement behind `findProfileArticles`:
 * - `mine`: the person's statements, once per side they are on (a self-statement is on both);
 * - `ranked`: each statement's place in its series — same person, side, organisation, type and speaker
 *   (the speaker's profile, or its kind and name when it has none), newest article first — and the
 *   series' size. A statement with no organisation is a series of its own: nothing says it repeats;
 * - `kept`: everything (`none`) or each series' newest statement (`latest`), so an article whose
 *   statements were all folded away drops out;
 * - `windowed`/`page`: the person's articles newest first, the keyset bounds applied, numbered in the
 *   reading direction and cut to the window;
 * - `totals`: one row per known person, with the count of their articles before paging.
 */
function profileArticlesQuery(shape: StatementShape, value: (name: StatementValue) => SQL): SQL {
  const a = annotationsTable;
  const references = sql`any(${value('references')}::uuid[])`;
  const selection = sql.join(
    annotationKeys
      .filter((key) => seriesKeys.has(key) || shape.annotationKeys.includes(key))
      .map((key) => sql`${annotationColumns[key]} as ${sql.identifier(key)}`),
    sql`, `,
  );
  const typeFilter = shape.type ? sql` and ${a.type} = ${value('type')}` : sql``;
  const sides: SQL[] = [];
  if (shape.role !== 'by') {
    sides.push(
      sql`select ${selection}, 'about'::text as "role", ${a.subjectProfileReference} as "personReference" from ${a} where ${a.subjectProfileReference} = ${references}${typeFilter}`,
    );
  }
  if (shape.role !== 'about') {
    sides.push(
      sql`select ${selection}, 'by'::text as "role", ${a.speakerProfileReference} as "personReference" from ${a} where ${a.speakerProfileReference} = ${references}${typeFilter}`,
    );
  }
  const series = sql`m."personReference", m."role", coalesce(m."organisationReference"::text, 'annotation:' || m."reference"::text), m."type", coalesce(m."speakerProfileReference"::text, m."speakerKind"::text || ':' || m."speakerName")`;
  const keyset: SQL[] = [];
  if (shape.after) {
    keyset.push(
      sql`("publishedAt", "articleReference") < (${value('afterPublishedAt')}::timestamptz, ${value('afterReference')}::uuid)`,
    );
  }
  if (shape.before) {
    keyset.push(
      sql`("publishedAt", "articleReference") > (${value('beforePublishedAt')}::timestamptz, ${value('beforeReference')}::uuid)`,
    );
  }
  const direction = sql.raw(shape.inverted ? 'asc' : 'desc');
  const articleColumns = getTableColumns(articlesTable);
  const joined = shape.articleKeys.map(
    (key) => sql`, ${articleColumns[key]} as ${sql.identifier(articleColumnPrefix + key)}`,
  );
  return sql`
    with mine as (${sql.join(sides, sql` union all `)}),
    ranked as (
      select m.*, art.published_at as "publishedAt",
        row_number() over (partition by ${series} order by art.published_at desc, art.reference desc, m."start", m."reference") as "seriesRank",
        (count(*) over (partition by ${series}))::int as "historyCount"
      from mine m join ${articlesTable} art on art.reference = m."articleReference"
    ),
    kept as (select * from ranked${shape.collapse === 'latest' ? sql` where "seriesRank" = 1` : sql``}),
    article_list as (
      select distinct "personReference", "articleReference", "publishedAt" from kept
    ),
    windowed as (
      select al.*, row_number() over (partition by "personReference" order by "publishedAt" ${direction}, "articleReference" ${direction}) as "windowRank"
      from article_list al${keyset.length > 0 ? sql` where ${sql.join(keyset, sql` and `)}` : sql``}
    ),
    page as (select * from windowed where "windowRank" > ${value('offset')} and "windowRank" <= ${value('end')}),
    totals as (
      select ${profilesTable.reference} as "personReference",
        (select count(*) from article_list al where al."personReference" = ${profilesTable.reference})::int as total
      from ${profilesTable} where ${profilesTable.reference} = ${references}
    )
    select t."personReference", t.total, pg."windowRank"::int as "windowRank",
      to_char(pg."publishedAt" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "publishedKey",
      ${fromAlias('k', shape.annotationKeys)}, k."role", k."historyCount"${sql.join(joined)}
    from totals t
    left join page pg on pg."personReference" = t."personReference"
    left join kept k on k."personReference" = pg."personReference" and k."articleReference" = pg."articleReference"${
      joined.length > 0
        ? sql` left join ${articlesTable} on ${articlesTable.reference} = pg."articleReference"`
        : sql``
    }
    order by t."personReference", pg."windowRank", k."role", k."start", k."reference"`;
}

/** A profile-article item with the events its article reports. */
export interface ProfileArticleEntry {
  item: ProfileArticle;
  events: Event[];
}

/** {@link getProfileArticles} with each article's events, for a list that shows them beside the item. */
export async function getProfileArticlesPage(
  db: Database,
  loaders: Loaders,
  profileReference: string,
  options: ProfileArticleOptions,
  window: ListWindow<ProfileArticleKey>,
): Promise<{ rows: ProfileArticleEntry[]; total: Total }> {
  const { items, total } = await getProfileArticles(db, profileReference, options, window);
  const events = await loaders.eventsByArticle.loadMany(items.map((item) => item.article.reference));
  return {
    rows: items.map((item, index) => {
      const found = events[index] ?? [];
      if (found instanceof Error) throw found;
      return { item, events: found };
    }),
    total,
  };
}
