// @graphql-eslint's `schema-recommended` and `schema-relay` rules over the committed schema.graphql (run by
// scripts/lint-graphql.ts). Every option that departs from the presets has its reason in docs/decisions.md.
import graphql from '@graphql-eslint/eslint-plugin';

const schema = new URL('../../schema.graphql', import.meta.url).pathname;

/**
 * Object types that are values inside their parent rather than records of their own, so they carry no global
 * `id` (client caches embed them: `embeddedTypes` in src/client/graphql-setup/). Connections and edges are
 * excepted by suffix. A new object type without an `id: ID!` fails the lint until it is listed here.
 */
const valueTypes = [
  'Address',
  'AnnotationSpeaker',
  'AnnotationSubject',
  'Chip',
  'ClientSummaryEntry',
  'Compensation',
  'CreatedWebhook',
  'Deal',
  'Exchange',
  'Industry',
  'InvalidChipsError',
  'MatchedOn',
  'OrganisationAddresses',
  'OrganisationAlias',
  'OrganisationCandidate',
  'OrganisationDomain',
  'OrganisationIndustry',
  'OrganisationOwnership',
  'OrganisationPhone',
  'OrganisationResolveRow',
  'OrganisationRole',
  'OrganisationScore',
  'PageInfo',
  'ProfileArticle',
  'ProfileCandidate',
  'ProfileEmail',
  'ProfileResolveRow',
  'PublicOffering',
  'RelationshipCounts',
  'SavedSearchFeedEvent',
  'Suggestion',
  'Ticker',
  'TotalCount',
];

/** Records identified by the same string id as their REST resource (`id: String!`), not by a global ID. */
const restIdentifiedTypes = ['Webhook', 'WebhookDelivery'];

export default [
  {
    files: ['**/*.graphql'],
    languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig: { schema } } },
    plugins: { '@graphql-eslint': graphql },
    rules: {
      ...graphql.configs['flat/schema-recommended'].rules,
      ...graphql.configs['flat/schema-relay'].rules,
      '@graphql-eslint/strict-id-in-types': [
        'error',
        { exceptions: { types: [...valueTypes, ...restIdentifiedTypes], suffixes: ['Connection', 'Edge'] } },
      ],
      '@graphql-eslint/relay-edge-types': [
        'error',
        { withEdgeSuffix: true, shouldImplementNode: false, listTypeCanWrapOnlyEdgeType: false },
      ],
      '@graphql-eslint/no-typename-prefix': 'off',
    },
  },
];
