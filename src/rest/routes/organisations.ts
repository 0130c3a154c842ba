import { createRoute, z } from '@hono/zod-openapi';
import { countrySpellings } from '../../domain/organisations/country.ts';
import {
  type ActivityType,
  activityPeriods,
  activityTypes,
  findOrganisationsPage,
  type OrganisationFilter,
} from '../../domain/organisations/find-organisations.ts';
import { getOrganisation } from '../../domain/organisations/get-organisation.ts';
import { industryCodes } from '../../domain/organisations/industries.ts';
import { getOrganisationPeople } from '../../domain/organisations/organisation-people.ts';
import { getOrganisationOwnership } from '../../domain/ownership/organisation-ownership.ts';
import { organisationStatuses, scoreDimensions } from '../../domain/vocabulary/organisations.ts';
import { requireActivityCoverage } from '../../http/activity-coverage.ts';
import { covers } from '../../http/authenticate.ts';
import {
  commonErrorResponses,
  envelope,
  envelopeSchema,
  errorContent,
  notFoundResponse,
} from '../envelope.ts';
import { listResponse } from '../list-response.ts';
import { maxLimit, pageMetaSchema, pagingQuery } from '../paging.ts';
import { referenceParam } from '../params.ts';
import type { RestApp } from '../router.ts';
import {
  organisationListRowSchema,
  organisationPeopleSchema,
  organisationRecordSchema,
  serializeOrganisationListRow,
  serializeOrganisationPeople,
  serializeOrganisationRecord,
} from '../serializers/organisations.ts';
import { organisationOwnershipSchema, serializeOrganisationOwnership } from '../serializers/ownership.ts';

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;

function enumQuery<const Values extends readonly [string, ...string[]]>(
  name: string,
  values: Values,
  description: string,
) {
  return z
    .enum(values, { error: oneOf(values) })
    .optional()
    .openapi({ param: { name, in: 'query' }, description });
}

function booleanQuery(name: string, description: string) {
  return z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .optional()
    .openapi({ param: { name, in: 'query' }, type: 'boolean', description });
}

/** A decimal integer in [min, max]; `''`, `1.5`, `1e2` and `0x10` are refused rather than coerced. */
function integerQuery(name: string, min: number, max: number, description: string) {
  const message = `must be an integer from ${min} to ${max}`;
  return z
    .string()
    .regex(/^[+-]?\d{1,9}$/, { error: message })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: message }).max(max, { error: message }))
    .optional()
    .openapi({
      param: { name, in: 'query' },
      type: 'integer',
      format: 'int32',
      minimum: min,
      maximum: max,
      description,
    });
}

/** The longest name substring searched; longer values give 422. */
const maxNameLength = 200;

const statusValues = [...organisationStatuses, 'all'] as const;

const listQuery = z.object({
  name: z
    .string()
    .max(maxNameLength, { error: `must be at most ${maxNameLength} characters long` })
    .optional()
    .openapi({
      param: { name: 'name', in: 'query' },
      description: 'Substring of the name, any case; `%`, `_` and `\\` match themselves; no NUL.',
      pattern: '^[^\\x00]*$',
    }),
  show_empty: enumQuery(
    'show_empty',
    ['true'],
    'Only value `true`: search every organisation, not only those with recorded activity (an index refreshed periodically); ' +
      'also lowers the default `min_confidence` to 0. Set it for name lookups.',
  ),
  industry: z
    .string()
    .regex(/^(?:\d{2}){1,4}$/, { error: 'must be a GICS code of 2, 4, 6 or 8 digits' })
    .optional()
    .openapi({
      param: { name: 'industry', in: 'query' },
      pattern: '^(?:[0-9]{2}){1,4}$',
      maxLength: 8,
      // The codes that exist, so that the document allows only what the server answers.
      enum: [...industryCodes],
      description:
        'A GICS code (sector, industry group, industry or sub-industry); matches it and every code below it. A code that is no GICS classification gives 422.',
      example: '45',
    }),
  country: z
    .string()
    .min(1, { error: 'must be a country code or name' })
    .max(64, { error: 'must be a country code or name' })
    .optional()
    .openapi({
      param: { name: 'country', in: 'query' },
      maxLength: 64,
      enum: countrySpellings(),
      description:
        'Country of the company address: an ISO 3166 alpha-2 or alpha-3 code or an English name (the listed spellings), in any case. Anything else gives 422, so that a typo is not taken for "no organisations there".',
      example: 'GB',
    }),
  type: enumQuery(
    'type',
    ['fund', 'all'],
    '`fund`: only funds; `all`: everything. Without it funds are excluded.',
  ),
  status: enumQuery('status', statusValues, 'Organisation status; `all` (the default) does not filter.'),
  verified: booleanQuery('verified', 'Only verified (true) or unverified (false) organisations.'),
  min_confidence: integerQuery(
    'min_confidence',
    0,
    100,
    'Lowest confidence to include; defaults to 5, or to 0 with `show_empty=true`.',
  ),
  has_raum: booleanQuery(
    'has_raum',
    'Only organisations with (true) or without (false) assets-under-management records.',
  ),
  activity_type: z
    .string()
    .refine(
      (value) => value.split(',').every((type) => (activityTypes as readonly string[]).includes(type.trim())),
      { error: `must be a comma-separated list of ${activityTypes.join(', ')}` },
    )
    .transform((value) => [...new Set(value.split(',').map((type) => type.trim() as ActivityType))])
    .optional()
    .openapi({
      param: { name: 'activity_type', in: 'query', style: 'form', explode: false },
      type: 'array',
      items: { type: 'string', enum: [...activityTypes] },
      minItems: 1,
      maxItems: activityTypes.length,
      uniqueItems: true,
      description: `Comma-separated from ${activityTypes.join(', ')}: organisations with activity of any of them.`,
      example: ['move', 'funding'],
    }),
  activity_period: enumQuery(
    'activity_period',
    activityPeriods as [string, ...string[]],
    'Only organisations with activity (of `activity_type`, when given) within the last 7, 30, 91 or 365 days.',
  ),
  score_min: integerQuery(
    'score_min',
    1,
    100,
    'Only organisations with a score of at least this on `score_dimension`; without it, on any dimension.',
  ),
  score_dimension: enumQuery(
    'score_dimension',
    scoreDimensions,
    'The score `score_min` applies to; without `score_min`, organisations scored on this dimension at all (every score is 1 to 100).',
  ),
  ...pagingQuery(maxLimit),
});

type ListQuery = z.infer<typeof listQuery>;

function filterOf(query: ListQuery): OrganisationFilter {
  return {
    name: query.name,
    showEmpty: query.show_empty === 'true',
    industry: query.industry,
    country: query.country,
    kind: query.type === 'fund' ? 'funds' : query.type,
    status: query.status === 'all' ? undefined : query.status,
    verified: query.verified,
    minConfidence: query.min_confidence,
    hasAum: query.has_raum,
    activityTypes: query.activity_type,
    activityPeriod: query.activity_period as OrganisationFilter['activityPeriod'],
    // Each narrows on its own: a dimension alone means scored on it (every score is at least 1), a minimum
    // alone means that high on any dimension.
    score:
      query.score_min !== undefined || query.score_dimension !== undefined
        ? { dimension: query.score_dimension, min: query.score_min ?? 1 }
        : undefined,
  };
}

export const organisationReferenceParam = z.object({
  organisationReference: referenceParam('organisationReference', "The organisation's reference."),
});

const json = <Schema extends z.ZodType>(description: string, schema: Schema) => ({
  description,
  content: { 'application/json': { schema } },
});

const listRoute = createRoute({
  method: 'get',
  path: '/v1/organisations',
  operationId: 'listOrganisations',
  tags: ['Organisations'],
  summary: 'List organisations',
  description:
    'Organisations matching every given filter, sorted by name then reference. Without `show_empty=true` only ' +
    'organisations with recorded activity are searched. A bad value of any parameter gives 422.',
  middleware: [covers('organisations')] as const,
  request: { query: listQuery },
  responses: {
    200: json(
      'A page of organisation list rows.',
      envelopeSchema(z.array(organisationListRowSchema), pageMetaSchema),
    ),
    ...commonErrorResponses,
    422: errorContent(
      'A parameter has the wrong type or a value outside its allowed set; also an unknown country, a code that is no GICS classification, or an undeclared query parameter.',
    ),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/v1/organisations/{organisationReference}',
  operationId: 'getOrganisation',
  tags: ['Organisations'],
  summary: 'Get an organisation',
  description:
    'One organisation with its tickers, industries, both addresses (null fields when unknown), latest assets-under-management record, relationship counts, status and confidence.',
  middleware: [covers('organisations')] as const,
  request: { params: organisationReferenceParam },
  responses: {
    200: json('The organisation single record.', envelopeSchema(organisationRecordSchema, z.null())),
    ...notFoundResponse,
    ...commonErrorResponses,
  },
});

const peopleRoute = createRoute({
  method: 'get',
  path: '/v1/organisations/{organisationReference}/people',
  operationId: 'listOrganisationPeople',
  tags: ['Organisations'],
  summary: "List an organisation's people",
  description: 'Current executives, current professionals and alumni, all in one response (not paginated).',
  middleware: [covers('organisations')] as const,
  request: { params: organisationReferenceParam },
  responses: {
    200: json("The organisation's people.", envelopeSchema(organisationPeopleSchema, z.null())),
    ...notFoundResponse,
    ...commonErrorResponses,
  },
});

const ownershipRoute = createRoute({
  method: 'get',
  path: '/v1/organisations/{organisationReference}/ownership',
  operationId: 'getOrganisationOwnership',
  tags: ['Ownership'],
  summary: "Get an organisation's ownership",
  description: 'Who owns the organisation (people and organisations) and what it owns, in one response.',
  middleware: [covers('ownership')] as const,
  request: { params: organisationReferenceParam },
  responses: {
    200: json('The organisation ownership record.', envelopeSchema(organisationOwnershipSchema, z.null())),
    ...notFoundResponse,
    ...commonErrorResponses,
  },
});

export function registerOrganisationRoutes(app: RestApp): void {
  app.openapi(listRoute, async (c) => {
    const { db, config } = c.var.ctx;
    const query = c.req.valid('query');
    const filter = filterOf(query);
    requireActivityCoverage(c.var.ctx.viewer, filter);
    return listResponse(
      c,
      query,
      (window) => findOrganisationsPage(db, filter, window, { timeoutMs: config.countTimeoutMs }),
      serializeOrganisationListRow,
      { countLimited: true },
    );
  });

  app.openapi(getRoute, async (c) => {
    const { organisationReference } = c.req.valid('param');
    const record = await getOrganisation(c.var.ctx.db, organisationReference);
    return c.json(envelope(c, serializeOrganisationRecord(record), null), 200);
  });

  app.openapi(peopleRoute, async (c) => {
    const { organisationReference } = c.req.valid('param');
    const people = await getOrganisationPeople(c.var.ctx.db, organisationReference);
    return c.json(envelope(c, serializeOrganisationPeople(people), null), 200);
  });

  app.openapi(ownershipRoute, async (c) => {
    const { organisationReference } = c.req.valid('param');
    const ownership = await getOrganisationOwnership(c.var.ctx.db, organisationReference);
    return c.json(envelope(c, serializeOrganisationOwnership(ownership), null), 200);
  });
}
