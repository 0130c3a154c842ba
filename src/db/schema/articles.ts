import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { annotationTypes, articleLicences, speakerKinds } from '../../domain/vocabulary/articles.ts';
import { organisationsTable } from './organisations.ts';
import { profilesTable } from './profiles.ts';

export const articleLicenceEnum = pgEnum('article_licence', articleLicences);
export const annotationTypeEnum = pgEnum('annotation_type', annotationTypes);
export const speakerKindEnum = pgEnum('speaker_kind', speakerKinds);

export const articlesTable = pgTable(
  'articles',
  {
    reference: uuid().primaryKey(),
    title: text().notNull(),
    url: text(),
    publishedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    content: text().notNull(),
    licence: articleLicenceEnum().notNull(),
  },
  (t) => [index().on(t.publishedAt.desc(), t.reference)],
);

/** A statement in an article; `start`/`end` are UTF-16 code unit offsets into the content. */
export const annotationsTable = pgTable(
  'annotations',
  {
    reference: uuid().primaryKey(),
    articleReference: uuid()
      .notNull()
      .references(() => articlesTable.reference, { onDelete: 'cascade' }),
    type: annotationTypeEnum().notNull(),
    summary: text().notNull(),
    text: text().notNull(),
    start: integer().notNull(),
    end: integer().notNull(),
    /** The organisation the statement comes from; with type and speaker it identifies a repeated yearly statement. */
    organisationReference: uuid().references(() => organisationsTable.reference, { onDelete: 'set null' }),
    speakerKind: speakerKindEnum().notNull(),
    speakerName: text().notNull(),
    speakerRole: text(),
    speakerOrganisationName: text(),
    speakerProfileReference: uuid().references(() => profilesTable.reference, { onDelete: 'set null' }),
    subjectName: text().notNull(),
    subjectRole: text(),
    subjectOrganisationName: text(),
    subjectProfileReference: uuid().references(() => profilesTable.reference, { onDelete: 'set null' }),
  },
  (t) => [
    index().on(t.articleReference, t.start),
    index().on(t.speakerProfileReference),
    index().on(t.subjectProfileReference),
    check('annotations_offsets', sql`${t.start} >= 0 and ${t.end} >= ${t.start}`),
  ],
);

export const articleOrganisationsTable = pgTable(
  'article_organisations',
  {
    articleReference: uuid()
      .notNull()
      .references(() => articlesTable.reference, { onDelete: 'cascade' }),
    organisationReference: uuid()
      .notNull()
      .references(() => organisationsTable.reference, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.articleReference, t.organisationReference] }),
    index().on(t.organisationReference),
  ],
);

export type Article = typeof articlesTable.$inferSelect;
export type Annotation = typeof annotationsTable.$inferSelect;
