import { licenceAllowsText } from '../../domain/articles/licence.ts';
import { type PlannedAnnotation, plannedLicence } from '../../domain/profiles/planned-articles.ts';
import type { ProfileAnnotation } from '../../domain/profiles/profile-articles.ts';
import type { Annotation } from '../../domain/records.ts';
import { annotationTypes, speakerKinds } from '../../domain/vocabulary/articles.ts';
import { builder } from '../builder.ts';
import { AnnotationRef, ArticleRef, ProfileRef } from '../refs.ts';

const typeDescriptions: Record<(typeof annotationTypes)[number], string> = {
  speech: 'Words the speaker said or issued, quoted.',
  feedback: 'Feedback on the subject, as the speaker reports it.',
  recommendation: 'The speaker recommends the subject, e.g. for a role or a re-election.',
  review: 'The speaker rates the subject’s performance, e.g. in an annual review.',
};

export const AnnotationTypeEnum = builder.enumType('AnnotationType', {
  description: 'The kind of statement.',
  values: Object.fromEntries(
    annotationTypes.map((type) => [type.toUpperCase(), { value: type, description: typeDescriptions[type] }]),
  ) as Record<
    Uppercase<(typeof annotationTypes)[number]>,
    { value: (typeof annotationTypes)[number]; description: string }
  >,
});

const kindDescriptions: Record<(typeof speakerKinds)[number], string> = {
  person: 'A person.',
  body: 'A body: a board, a committee or the organisation itself.',
};

const SpeakerKindEnum = builder.enumType('SpeakerKind', {
  description:
    'Whether a statement comes from a person or from a body (a board, a committee, the organisation).',
  values: Object.fromEntries(
    speakerKinds.map((kind) => [kind.toUpperCase(), { value: kind, description: kindDescriptions[kind] }]),
  ) as Record<
    Uppercase<(typeof speakerKinds)[number]>,
    { value: (typeof speakerKinds)[number]; description: string }
  >,
});

const AnnotationSpeaker = builder.objectRef<Annotation>('AnnotationSpeaker').implement({
  description: 'Who made a statement.',
  fields: (t) => ({
    kind: t.field({
      type: SpeakerKindEnum,
      description: 'A person or a body.',
      resolve: (annotation) => annotation.speakerKind,
    }),
    name: t.exposeString('speakerName', { description: 'The speaker’s name, as the article gives it.' }),
    role: t.exposeString('speakerRole', {
      nullable: true,
      description: 'The speaker’s title or role, when known.',
    }),
    organisationName: t.exposeString('speakerOrganisationName', {
      nullable: true,
      description: 'The name of the speaker’s organisation, when known.',
    }),
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
    name: t.exposeString('subjectName', { description: 'The subject’s name, as the article gives it.' }),
    role: t.exposeString('subjectRole', {
      nullable: true,
      description: 'The subject’s title or role, when known.',
    }),
    organisationName: t.exposeString('subjectOrganisationName', {
      nullable: true,
      description: 'The name of the subject’s organisation, when known.',
    }),
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
    "A statement in an article (speech, feedback, recommendation or review). Its verbatim text is shown only where the article's licence allows; summary and offsets always are. Needs a plan covering `articles`.",
  authScopes: { covers: 'articles' },
  id: { resolve: (annotation) => annotation.reference },
  loadOne: (reference, context) => context.loaders.annotationByReference.load(reference),
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: 'The spec reference (UUID).' }),
    type: t.field({
      type: AnnotationTypeEnum,
      description: 'The kind of statement.',
      resolve: (annotation) => annotation.type,
    }),
    summary: t.exposeString('summary', { description: 'One-line summary.' }),
    text: t.string({
      nullable: true,
      description: "The verbatim passage; null when the article's licence (`METADATA_ONLY`) withholds it.",
      resolve: (annotation: PlannedAnnotation, _args, context) => {
        const licence = annotation[plannedLicence];
        if (licence) return licenceAllowsText(licence) ? annotation.text : null;
        return context.loaders.articleByReference
          .load(annotation.articleReference)
          .then((article) => (article && licenceAllowsText(article.licence) ? annotation.text : null));
      },
    }),
    start: t.exposeInt('start', {
      description: 'Start offset into the article content, in UTF-16 code units.',
    }),
    end: t.exposeInt('end', { description: 'End offset (exclusive), in UTF-16 code units.' }),
    speaker: t.field({
      type: AnnotationSpeaker,
      description: 'Who made the statement.',
      resolve: (annotation) => annotation,
    }),
    subject: t.field({
      type: AnnotationSubject,
      description: 'Whom the statement is about.',
      resolve: (annotation) => annotation,
    }),
    article: t.field({
      type: ArticleRef,
      description: 'The article the statement is in; `start` and `end` index its `content`.',
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
