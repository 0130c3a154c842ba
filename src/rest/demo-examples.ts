/**
 * Records of the demo dataset (`orgraph seed`, scale 1, the dataset `npm start` loads), so that every reference
 * example in the OpenAPI document can be sent as it is and answers. The seed is deterministic;
 * test/rest/openapi-examples.test.ts holds these to it.
 */
export const demoExamples = {
  organisation: { reference: '8477db4a-3568-43d9-bca0-7825fa907725', name: '100% Organic Foods Ltd' },
  profile: { reference: '27135eaa-f2f3-487f-af0d-aedb929cfc4f', name: 'Rodrigue Abbott' },
  article: { reference: 'a0d60e67-c586-46da-9b22-1095426c7dc3' },
  event: { reference: '904eebc4-870f-4e3b-8b8c-c76526d79a16' },
} as const;

/** The example of each reference parameter, by its name; a saved search's `queryId` has none, as saving makes it. */
export const referenceExamples: Readonly<Record<string, string>> = {
  organisationReference: demoExamples.organisation.reference,
  profileReference: demoExamples.profile.reference,
  articleReference: demoExamples.article.reference,
  eventReference: demoExamples.event.reference,
};
