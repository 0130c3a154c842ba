import { type Annotation, annotationTypes, speakerKinds } from '../../db/schema/articles.ts';
import { licenceAllowsText } from '../../domain/articles/licence.ts';
import type { ProfileAnnotation } from '../../domain/profiles/profile-articles.ts';
import { builder } from '../builder.ts';
import { AnnotationRef, ArticleRef, ProfileRef } from '../refs.ts';

export const AnnotationTypeEnum = builder.enumType('AnnotationType', {
  description: 'The kind of statement.',
  values: Object.fromEntries(annotationTypes.map((type) => [type.toUpperCase(), { value: type }])) as Record<
    Uppercase<(typeof annotationTypes)[number]>,
    { value: (typeof annotationTypes)[number] }
  >,
});

const SpeakerKindEnum = builder.enumType('SpeakerKind', {
  description:
    'Whether a statement comes from a person or from a body (a board, a committee, the organisation).',
  values: Object.fromEntries(speakerKinds.map((kind) => [kind.toUpperCase(), { value: kind }])) as Record<
    Uppercase<(typeof speakerKinds)[number]>,
    { value: (typeof speakerKinds)[number] }
  >,
});

const AnnotationSpeaker = builder.objectRef<Annotation>('AnnotationSpeaker').implement({
  description: 'Who made a statement.',
  fields: (t) => ({
    kind: t.field({ type: SpeakerKindEnum, resolve: (annotation) => annotation.speakerKind }),
    name: t.exposeString('speakerName'),
    role: t.exposeString('speakerRole', { nullable: true }),
    organisationName: t.exposeString('speakerOrganisationName', { nullable: true }),
    profile: t.field({
      type: ProfileRef,
      nullable: true,
      description: 'The speaker as a person in the graph, when known.',
      resolve: (annotation, _args, context) =>
        annotation.speakerProfileReference
          ? context.loaders.profileByReference.load(annotation.speakerProfileReference)
          : null,
    }),
  }),
});

const AnnotationSubject = builder.objectRef<Annotation>('AnnotationSubject').implement({
  description: 'Whom a statement is about.',
  fields: (t) => ({
    name: t.exposeString('subjectName'),
    role: t.exposeString('subjectRole', { nullable: true }),
    organisationName: t.exposeString('subjectOrganisationName', { nullable: true }),
    profile: t.field({
      type: ProfileRef,
      nullable: true,
      description: 'The subject as a person in the graph, when known.',
      resolve: (annotation, _args, context) =>
        annotation.subjectProfileReference
          ? context.loaders.profileByReference.load(annotation.subjectProfileReference)
          : null,
    }),
  }),
});

builder.node(AnnotationRef, {
  description:
    "A statement in an article (speech, feedback, recommendation or review). Its verbatim text is shown only where the article's licence allows; summary and offsets always are.",
  authScopes: { covers: 'articles' },
  id: { resolve: (annotation) => annotation.reference },
  loadOne: (reference, context) => context.loaders.annotationByReference.load(reference),
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: 'The spec reference (UUID).' }),
    type: t.field({ type: AnnotationTypeEnum, resolve: (annotation) => annotation.type }),
    summary: t.exposeString('summary', { description: 'One-line summary.' }),
    text: t.string({
      nullable: true,
      description: "The verbatim passage; null when the article's licence (`METADATA_ONLY`) withholds it.",
      resolve: async (annotation, _args, context) => {
        const article = await context.loaders.articleByReference.load(annotation.articleReference);
        return article && licenceAllowsText(article.licence) ? annotation.text : null;
      },
    }),
    start: t.exposeInt('start', {
      description: 'Start offset into the article content, in UTF-16 code units.',
    }),
    end: t.exposeInt('end', { description: 'End offset (exclusive), in UTF-16 code units.' }),
    speaker: t.field({ type: AnnotationSpeaker, resolve: (annotation) => annotation }),
    subject: t.field({ type: AnnotationSubject, resolve: (annotation) => annotation }),
    article: t.field({
      type: ArticleRef,
      resolve: async (annotation, _args, context) => {
        const article = await context.loaders.articleByReference.load(annotation.articleReference);
        if (!article) throw new Error(`Annotation ${annotation.reference} has no article`);
        return article;
      },
    }),
    historyCount: t.int({
      nullable: true,
      description:
        "Only in a person's article list under `collapse: LATEST`: how many yearly statements of this series (same organisation, type and speaker) were folded into this one, itself included. Null elsewhere.",
      resolve: (annotation) => (annotation as ProfileAnnotation).historyCount ?? null,
    }),
  }),
});
