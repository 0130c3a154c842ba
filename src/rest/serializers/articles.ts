import { z } from '@hono/zod-openapi';
import type { ArticleRecord } from '../../domain/articles/article-record.ts';
import { licenceAllowsText } from '../../domain/articles/licence.ts';
import type { ProfileAnnotation, ProfileArticleEntry } from '../../domain/profiles/profile-articles.ts';
import { type ArticleLicence, articleLicences } from '../../domain/vocabulary/articles.ts';
import { eventTypes } from '../../domain/vocabulary/events.ts';
import { annotationSchema, serializeAnnotation } from './annotations.ts';

const profileAnnotationSchema = annotationSchema
  .extend({
    history_count: z.number().int().min(1).optional().openapi({
      description:
        'With `collapse=latest`: how many yearly statements of this series (same organisation, type and speaker) were folded into this one, itself included. Absent with `collapse=none`.',
    }),
  })
  .openapi('ProfileAnnotation');

function serializeProfileAnnotation(
  annotation: ProfileAnnotation,
  licence: ArticleLicence,
): z.infer<typeof profileAnnotationSchema> {
  const wire = serializeAnnotation(annotation, licence);
  return annotation.historyCount === undefined ? wire : { ...wire, history_count: annotation.historyCount };
}

export const profileArticleItemSchema = z
  .object({
    article: z.object({
      reference: z.uuid(),
      title: z.string(),
      url: z.string().nullable(),
      published_at: z.iso.datetime(),
    }),
    events: z.array(
      z.object({ reference: z.uuid(), type: z.enum(eventTypes), summary: z.string().nullable() }),
    ),
    about: z
      .array(profileAnnotationSchema)
      .openapi({ description: 'Statements where the person is the subject.' }),
    by: z
      .array(profileAnnotationSchema)
      .openapi({ description: 'Statements where the person is the speaker.' }),
  })
  .openapi('ProfileArticleItem');

export function serializeProfileArticleItem({
  item,
  events,
}: ProfileArticleEntry): z.infer<typeof profileArticleItemSchema> {
  const { article } = item;
  return {
    article: {
      reference: article.reference,
      title: article.title,
      url: article.url,
      published_at: article.publishedAt.toISOString(),
    },
    events: events.map((event) => ({ reference: event.reference, type: event.type, summary: event.summary })),
    about: item.about.map((annotation) => serializeProfileAnnotation(annotation, article.licence)),
    by: item.by.map((annotation) => serializeProfileAnnotation(annotation, article.licence)),
  };
}

export const articleSchema = z
  .object({
    reference: z.uuid(),
    title: z.string(),
    url: z.string().nullable(),
    published_at: z.iso.datetime(),
    content: z.string().openapi({
      description:
        'The article text under a `full_text` licence; an empty string when the licence withholds it.',
    }),
    licence: z.enum(articleLicences).openapi({
      description:
        'Unlisted in the interface (unstable): `full_text` shows the content and verbatim passages, `metadata_only` withholds both.',
    }),
    offsets_unit: z.literal('utf16').openapi({
      description: 'Annotation offsets count UTF-16 code units: `content.slice(start, end)` is the passage.',
    }),
    annotations: z.array(annotationSchema).openapi({ description: 'In reading order (by start offset).' }),
    events: z.array(z.object({ reference: z.uuid(), type: z.enum(eventTypes) })),
    organisations: z.array(z.object({ reference: z.uuid(), name: z.string() })),
  })
  .openapi('Article');

export function serializeArticle(record: ArticleRecord): z.infer<typeof articleSchema> {
  const { article, ...parts } = record;
  return {
    reference: article.reference,
    title: article.title,
    url: article.url,
    published_at: article.publishedAt.toISOString(),
    content: licenceAllowsText(article.licence) ? article.content : '',
    licence: article.licence,
    offsets_unit: 'utf16',
    annotations: parts.annotations.map((annotation) => serializeAnnotation(annotation, article.licence)),
    events: parts.events.map((event) => ({ reference: event.reference, type: event.type })),
    organisations: parts.organisations.map((organisation) => ({
      reference: organisation.reference,
      name: organisation.name,
    })),
  };
}
