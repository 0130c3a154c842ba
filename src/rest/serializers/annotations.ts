import { z } from '@hono/zod-openapi';
import { licenceAllowsText } from '../../domain/articles/licence.ts';
import type { Annotation } from '../../domain/records.ts';
import type { ArticleLicence } from '../../domain/vocabulary/articles.ts';
import { annotationTypes, speakerKinds } from '../../domain/vocabulary/articles.ts';

export const annotationSchema = z
  .object({
    reference: z.uuid(),
    type: z.enum(annotationTypes),
    summary: z.string(),
    text: z
      .string()
      .nullable()
      .openapi({ description: "The verbatim passage, where the article's licence allows it." }),
    start: z
      .number()
      .int()
      .openapi({ description: 'Start offset into the article content, in UTF-16 code units.' }),
    end: z.number().int().openapi({ description: 'End offset, in UTF-16 code units.' }),
    speaker: z.object({
      kind: z.enum(speakerKinds),
      name: z.string(),
      role: z.string().nullable(),
      organisation_name: z.string().nullable(),
      profile_reference: z.uuid().nullable(),
    }),
    subject: z.object({
      name: z.string(),
      role: z.string().nullable(),
      organisation_name: z.string().nullable(),
      profile_reference: z.uuid().nullable(),
    }),
  })
  .openapi('Annotation');

export function serializeAnnotation(
  annotation: Annotation,
  licence: ArticleLicence,
): z.infer<typeof annotationSchema> {
  return {
    reference: annotation.reference,
    type: annotation.type,
    summary: annotation.summary,
    text: licenceAllowsText(licence) ? annotation.text : null,
    start: annotation.start,
    end: annotation.end,
    speaker: {
      kind: annotation.speakerKind,
      name: annotation.speakerName,
      role: annotation.speakerRole,
      organisation_name: annotation.speakerOrganisationName,
      profile_reference: annotation.speakerProfileReference,
    },
    subject: {
      name: annotation.subjectName,
      role: annotation.subjectRole,
      organisation_name: annotation.subjectOrganisationName,
      profile_reference: annotation.subjectProfileReference,
    },
  };
}
