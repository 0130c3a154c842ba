/** Closed sets of articles and their annotations, named once for storage and both transports. */

/** `full_text` allows the content and verbatim passages to be shown; `metadata_only` withholds both. */
export const articleLicences = ['full_text', 'metadata_only'] as const;

export const annotationTypes = ['speech', 'feedback', 'recommendation', 'review'] as const;

export const speakerKinds = ['person', 'body'] as const;

export type ArticleLicence = (typeof articleLicences)[number];
export type AnnotationType = (typeof annotationTypes)[number];
export type SpeakerKind = (typeof speakerKinds)[number];
