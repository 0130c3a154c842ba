import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type Database, queryRows } from '../../db/database.ts';
import { requireUnmappedColumns } from '../../db/prepared-query.ts';
import { perShape, renderedOnce } from '../../db/render-once.ts';
import { annotationsTable, articlesTable } from '../../db/schema/articles.ts';
import { uuidArrayLiteral } from '../../db/uuid-array.ts';
import type { ListWindow } from '../paging.ts';
import type { PlannedColumns } from '../read-plan.ts';
import type { Annotation, Article } from '../records.ts';
import type { ArticleLicence } from '../vocabulary/articles.ts';
import {
  type AnnotationRole,
  annotationKeys,
  articleColumnPrefix,
  articleKeys,
  assembleProfileArticlePages,
  type CollapseMode,
  type ProfileAnnotation,
  type ProfileArticleKey,
  type ProfileArticleOptions,
  type ProfileArticlePage,
  type ProfileArticleRow,
  profileArticlesStatement,
} from './profile-articles.ts';

/** The articles level of a read plan: one page of each person's articles, as the loader would read it. */
export interface ProfileArticlesPlan {
  options: ProfileArticleOptions;
  window: ListWindow<ProfileArticleKey>;
  /** Article columns the fields read. */
  article: PlannedColumns;
  /** Statement columns the fields read, on both sides; `text` brings its article's licence along. */
  annotation: PlannedColumns;
  /** Set when an article's own statements are asked for: the columns their fields read. */
  articleAnnotations?: PlannedColumns;
}

/** On a profile: the page of articles its plan loaded, with the arguments it was loaded for. */
export const plannedArticles = Symbol('planned articles');
/** On a statement whose text is planned: its article's licence, which decides whether the text is shown. */
export const plannedLicence = Symbol('planned licence');
/** On a planned article: its statements in reading order. */
export const plannedAnnotations = Symbol('planned annotations');

export interface PlannedArticlePage {
  key: string;
  page: ProfileArticlePage;
}

export type PlannedAnnotation = ProfileAnnotation & { [plannedLicence]?: ArticleLicence };
export type PlannedArticle = Article & { [plannedAnnotations]?: PlannedAnnotation[] };

/** What a page is loaded for; a field asking with other arguments reads its page through the loader. */
export function profileArticlesKey(
  options: ProfileArticleOptions,
  window: ListWindow<ProfileArticleKey>,
): string {
  return JSON.stringify([options, window]);
}

/** The options of a person's article list from its arguments, in one order whoever builds them. */
export function profileArticleOptions(args: {
  collapse: CollapseMode;
  type?: ProfileArticleOptions['type'] | null;
  role?: AnnotationRole | null;
}): ProfileArticleOptions {
  return {
    collapse: args.collapse,
    ...(args.type ? { type: args.type } : {}),
    ...(args.role ? { role: args.role } : {}),
  };
}

const articleColumns = getTableColumns(articlesTable) as Record<string, PgColumn>;

// The statements' rows are handed out as they come from the driver.
requireUnmappedColumns(annotationsTable);

/** Loads the page `plan` asks for of each of `profiles`' articles in one statement, and attaches it to them. */
export async function loadProfileArticlesPlan(
  db: Database,
  profiles: readonly { reference: string; [plannedArticles]?: PlannedArticlePage }[],
  plan: ProfileArticlesPlan,
): Promise<void> {
  const annotations = keysOf(plan.annotation);
  const withLicence = annotations.includes('text');
  const ownKeys = plan.articleAnnotations && keysOf(plan.articleAnnotations);
  const articles = articleKeys.filter(
    (key) =>
      key === 'reference' ||
      plan.article === 'all' ||
      plan.article.has(key) ||
      (key === 'licence' && (withLicence || ownKeys?.includes('text'))),
  );
  const rows = await queryRows<ProfileArticleRow & Record<string, unknown>>(
    db,
    profileArticlesStatement(
      profiles.map((profile) => profile.reference),
      plan.options,
      plan.window,
      annotations,
      articles,
    ),
  );
  const byReference = new Map<string, Article>();
  const articleOf = (row: Record<string, unknown>): Article => {
    const reference = row[`${articleColumnPrefix}reference`] as string;
    let article = byReference.get(reference);
    if (!article) {
      const object: Record<string, unknown> = {};
      // Drizzle's own mapping of each column (a timestamp to a `Date`), as the loader's rows have it.
      for (const key of articles) {
        const value = row[articleColumnPrefix + key];
        object[key] = value === null ? null : (articleColumns[key] as PgColumn).mapFromDriverValue(value);
      }
      article = object as Article;
      byReference.set(reference, article);
    }
    return article;
  };
  const annotationOf = (row: Record<string, unknown>): ProfileAnnotation => {
    const annotation: Record<string | symbol, unknown> = {};
    for (const key of annotations) annotation[key] = row[key];
    if (withLicence) annotation[plannedLicence] = row[`${articleColumnPrefix}licence`];
    return annotation as unknown as PlannedAnnotation;
  };
  const pages = assembleProfileArticlePages(rows, plan.options, articleOf, annotationOf);
  if (ownKeys) await loadArticleAnnotations(db, [...byReference.values()], ownKeys);
  const key = profileArticlesKey(plan.options, plan.window);
  for (const profile of profiles) {
    const page = pages.get(profile.reference);
    if (page) profile[plannedArticles] = { key, page };
  }
}

function keysOf(columns: PlannedColumns): (keyof Annotation)[] {
  return columns === 'all' ? annotationKeys : annotationKeys.filter((key) => columns.has(key));
}

/** Statements by the columns they select, rendered once each. */
const annotationStatements = perShape<(articles: unknown) => SQL>();

/** Loads the statements of `articles` (as the articles' loader orders them) in one statement, and attaches them. */
async function loadArticleAnnotations(
  db: Database,
  articles: readonly PlannedArticle[],
  keys: readonly (keyof Annotation)[],
): Promise<void> {
  if (articles.length === 0) return;
  const selected = annotationKeys.filter(
    (key) => key === 'reference' || key === 'articleReference' || keys.includes(key),
  );
  const statement = annotationStatements(selected.join(','), () => {
    const a = annotationsTable;
    const columns = getTableColumns(a);
    return renderedOnce(
      (references) => sql`select ${sql.join(
        selected.map((key) => sql`${columns[key]} as ${sql.identifier(key)}`),
        sql`, `,
      )} from ${a} where ${a.articleReference} = any(${references}::uuid[])
        order by ${a.articleReference}, ${a.start}, ${a.end}, ${a.reference}`,
    );
  });
  const rows = await queryRows<PlannedAnnotation>(
    db,
    statement(uuidArrayLiteral(articles.map((article) => article.reference))),
  );
  const byArticle = new Map<string, PlannedAnnotation[]>();
  for (const row of rows) {
    const list = byArticle.get(row.articleReference);
    if (list) list.push(row);
    else byArticle.set(row.articleReference, [row]);
  }
  const withLicence = keys.includes('text');
  for (const article of articles) {
    const list = byArticle.get(article.reference) ?? [];
    if (withLicence) for (const annotation of list) annotation[plannedLicence] = article.licence;
    article[plannedAnnotations] = list;
  }
}
