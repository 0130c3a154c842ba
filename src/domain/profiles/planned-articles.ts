import { getTableColumns } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type Database, queryRows } from '../../db/database.ts';
import { articlesTable } from '../../db/schema/articles.ts';
import type { ListWindow } from '../paging.ts';
import type { PlannedColumns } from '../read-plan.ts';
import type { Article } from '../records.ts';
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
}

/** On a profile: the page of articles its plan loaded, with the arguments it was loaded for. */
export const plannedArticles = Symbol('planned articles');
/** On a statement whose text is planned: its article's licence, which decides whether the text is shown. */
export const plannedLicence = Symbol('planned licence');

export interface PlannedArticlePage {
  key: string;
  page: ProfileArticlePage;
}

export type PlannedAnnotation = ProfileAnnotation & { [plannedLicence]?: ArticleLicence };

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

/** Loads the page `plan` asks for of each of `profiles`' articles in one statement, and attaches it to them. */
export async function loadProfileArticlesPlan(
  db: Database,
  profiles: readonly { reference: string; [plannedArticles]?: PlannedArticlePage }[],
  plan: ProfileArticlesPlan,
): Promise<void> {
  const asked = plan.annotation;
  const annotations = asked === 'all' ? annotationKeys : annotationKeys.filter((key) => asked.has(key));
  const withLicence = annotations.includes('text');
  const articles = articleKeys.filter(
    (key) =>
      key === 'reference' ||
      plan.article === 'all' ||
      plan.article.has(key) ||
      (withLicence && key === 'licence'),
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
  const key = profileArticlesKey(plan.options, plan.window);
  for (const profile of profiles) {
    const page = pages.get(profile.reference);
    if (page) profile[plannedArticles] = { key, page };
  }
}
