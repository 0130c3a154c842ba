import { z } from 'zod';
import { annotationTypes, articleLicences, speakerKinds } from '../vocabulary/articles.ts';
import { eventTypes } from '../vocabulary/events.ts';
import {
  addressKinds,
  organisationStatuses,
  scoreDimensions,
  summaryTypes,
} from '../vocabulary/organisations.ts';
import { ownerRelationships } from '../vocabulary/ownership.ts';
import { type RecordTypeName, recordTypeNames } from './record-types.ts';

/**
 * The import format: one JSON record per line, keyed by `reference`. Field names are the spec's where it names
 * them (snake_case throughout, also where the spec's REST shapes use camelCase); a link to another record is
 * `<name>_reference`. These schemas validate the import and generate the shipped JSON Schemas
 * (`schemas/import/*.json`), so the two cannot drift apart.
 */

const reference = () => z.guid({ error: 'not a UUID' });
const nullableReference = () => reference().nullable().default(null);
const text = () => z.string();
const nullableText = () => z.string().nullable().default(null);
const date = () => z.iso.date({ error: 'not a date (YYYY-MM-DD)' });
const nullableDate = () => date().nullable().default(null);
const datetime = () => z.iso.datetime({ offset: true, error: 'not a date-time (ISO 8601 with a zone)' });
const count = () => z.int().min(0).max(2_147_483_647);
const unit = () => z.number().min(0).max(1);

const alias = z.strictObject({
  reference: reference(),
  name: text(),
  start_date: nullableDate(),
  end_date: nullableDate(),
});
const ticker = z.strictObject({
  reference: reference(),
  value: text(),
  exchange: z.strictObject({ name: text(), code: text() }),
  currency: text(),
  status: text(),
  is_primary_listing: z.boolean(),
});
const domainName = z.strictObject({
  reference: reference(),
  domain: text(),
  confidence_score: unit(),
  is_valid: z.boolean(),
});
const phone = z.strictObject({ reference: reference(), number: text(), type: text(), is_valid: z.boolean() });
const industry = z.strictObject({
  code: z.string().regex(/^\d{2,8}$/, 'not a GICS code'),
  is_primary: z.boolean(),
});
const address = z.strictObject({
  city: nullableText(),
  state: nullableText(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'not an ISO 3166-1 alpha-2 country code')
    .nullable()
    .default(null),
  zip_postal_code: nullableText(),
});
const clientSummaryEntry = z.strictObject({
  client_type: text(),
  client_type_label: text(),
  number_of_clients: count().nullable(),
  fewer_than_5: z.boolean(),
  regulatory_assets_under_management: z.number().min(0).nullable(),
});
const clientSummary = z.strictObject({
  reference: reference(),
  currency_code: text(),
  summary_type: z.enum(summaryTypes),
  publish_date: datetime(),
  entries: z.array(clientSummaryEntry),
});

const addressesShape = Object.fromEntries(
  addressKinds.map((kind) => [kind, address.nullable().default(null)]),
);
const scoresShape = Object.fromEntries(
  scoreDimensions.map((dimension) => [dimension, z.int().min(1).max(100).optional()]),
);

export const organisationRecord = z.strictObject({
  type: z.literal('organisation').optional(),
  reference: reference(),
  name: z.string().min(1),
  description: nullableText(),
  status: z.enum(organisationStatuses),
  verified: z.boolean(),
  confidence: z.int().min(0).max(100),
  is_fund: z.boolean().default(false),
  totals: z.strictObject({ employees: count() }),
  relationships: z
    .strictObject({
      customers: count().default(0),
      suppliers: count().default(0),
      partners: count().default(0),
      service_providers: count().default(0),
    })
    .default({ customers: 0, suppliers: 0, partners: 0, service_providers: 0 }),
  aliases: z.array(alias).default([]),
  tickers: z.array(ticker).default([]),
  domains: z.array(domainName).default([]),
  phones: z.array(phone).default([]),
  industries: z.array(industry).default([]),
  addresses: z.strictObject(addressesShape).default({ company: null, mailing: null }),
  scores: z.strictObject(scoresShape).default({}),
  client_summaries: z.array(clientSummary).default([]),
});

export const occupationRecord = z.strictObject({
  type: z.literal('occupation').optional(),
  reference: reference(),
  name: z.string().min(1),
});

const email = z.strictObject({
  reference: reference(),
  value: text(),
  domain: text(),
  confidence_score: unit(),
  is_valid: z.boolean(),
});

export const profileRecord = z.strictObject({
  type: z.literal('profile').optional(),
  reference: reference(),
  first_name: text(),
  last_name: text(),
  name: text(),
  linkedin_url: nullableText(),
  confidence_score: unit().nullable().default(null),
  is_registered_adviser: z.boolean().default(false),
  emails: z.array(email).default([]),
});

export const experienceRecord = z
  .strictObject({
    type: z.literal('experience').optional(),
    reference: reference(),
    profile_reference: reference(),
    organisation_reference: nullableReference(),
    occupation_title: text(),
    occupation_reference: nullableReference(),
    start_date: nullableDate(),
    end_date: nullableDate(),
  })
  .check((ctx) => {
    const { start_date: start, end_date: end } = ctx.value;
    if (start && end && end < start) {
      ctx.issues.push({
        code: 'custom',
        input: end,
        path: ['end_date'],
        message: `the experience ends (${end}) before it starts (${start})`,
      });
    }
  });

export const organisationOwnershipRecord = z
  .strictObject({
    type: z.literal('organisation_ownership').optional(),
    reference: reference(),
    owner_reference: reference(),
    owned_reference: reference(),
    relationship_type: z.enum(ownerRelationships),
    ownership_label: text(),
    is_controlling_interest: z.boolean(),
  })
  .check((ctx) => {
    if (ctx.value.owner_reference.toLowerCase() === ctx.value.owned_reference.toLowerCase()) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value.owned_reference,
        path: ['owned_reference'],
        message: 'an organisation cannot own itself (owner_reference equals owned_reference)',
      });
    }
  });

export const profileStakeRecord = z
  .strictObject({
    type: z.literal('profile_stake').optional(),
    reference: reference(),
    profile_reference: reference(),
    organisation_reference: reference(),
    ownership_type: text(),
    ownership_percentage: text(),
    title_or_status: nullableText(),
    is_control_person: z.boolean(),
    is_active: z.boolean(),
    start_date: nullableDate(),
    end_date: nullableDate(),
  })
  .check((ctx) => {
    const { start_date: start, end_date: end } = ctx.value;
    if (start && end && end < start) {
      ctx.issues.push({
        code: 'custom',
        input: end,
        path: ['end_date'],
        message: `the stake ends (${end}) before it starts (${start})`,
      });
    }
  });

const annotation = z.strictObject({
  reference: reference(),
  type: z.enum(annotationTypes),
  summary: text(),
  text: text(),
  start: z.int().min(0),
  end: z.int().min(0),
  organisation_reference: nullableReference(),
  speaker: z.strictObject({
    kind: z.enum(speakerKinds),
    name: text(),
    role: nullableText(),
    organisation_name: nullableText(),
    profile_reference: nullableReference(),
  }),
  subject: z.strictObject({
    name: text(),
    role: nullableText(),
    organisation_name: nullableText(),
    profile_reference: nullableReference(),
  }),
});

export const articleRecord = z
  .strictObject({
    type: z.literal('article').optional(),
    reference: reference(),
    title: text(),
    url: nullableText(),
    published_at: datetime(),
    content: text(),
    licence: z.enum(articleLicences),
    annotations: z.array(annotation).default([]),
    organisation_references: z.array(reference()).default([]),
  })
  .check((ctx) => {
    // Offsets count UTF-16 code units, as JavaScript string lengths do.
    const length = ctx.value.content.length;
    ctx.value.annotations.forEach((entry, i) => {
      if (entry.end < entry.start) {
        ctx.issues.push({
          code: 'custom',
          input: entry.end,
          path: ['annotations', i, 'end'],
          message: `the annotation ends (${entry.end}) before it starts (${entry.start})`,
        });
      } else if (entry.end > length) {
        ctx.issues.push({
          code: 'custom',
          input: entry.end,
          path: ['annotations', i, 'end'],
          message: `the annotation's end offset ${entry.end} is outside the article content (${length} UTF-16 code units)`,
        });
      }
    });
  });

const compensation = z.strictObject({
  type: text(),
  value: z.number(),
  value_type: text(),
  value_suffix: z.string().nullable(),
});

const eventData = z.strictObject({
  compensations: z.array(compensation).optional(),
  round: text().optional(),
  value: z.number().optional(),
  currency_code: text().optional(),
  deal: z
    .strictObject({
      type: text(),
      status: text(),
      value: z.number().nullable(),
      value_usd: z.number().nullable(),
      announcement_date: z.string().nullable(),
      completion_date: z.string().nullable(),
      terms: z.string().nullable(),
    })
    .optional(),
  offering: z
    .strictObject({
      exchange: text(),
      ticker: text(),
      price: z.number().nullable(),
      shares_offered: z.number().nullable(),
      currency_code: text(),
    })
    .optional(),
});

/** Which links each event type needs. */
const requiredEventLinks: Record<(typeof eventTypes)[number], readonly string[]> = {
  move: ['organisation_reference', 'profile_reference'],
  funding: ['organisation_reference'],
  deal: ['acquirer_reference', 'acquiree_reference'],
  public_offering: ['organisation_reference'],
  client_summary: ['organisation_reference', 'client_summary_reference'],
};

export const eventRecord = z
  .strictObject({
    type: z.literal('event').optional(),
    reference: reference(),
    event_type: z.enum(eventTypes),
    summary: nullableText(),
    publish_date: datetime(),
    organisation_reference: nullableReference(),
    profile_reference: nullableReference(),
    occupation_reference: nullableReference(),
    move_type: nullableText(),
    effective_date: datetime().nullable().default(null),
    acquirer_reference: nullableReference(),
    acquiree_reference: nullableReference(),
    deal_type: nullableText(),
    deal_status: nullableText(),
    client_summary_reference: nullableReference(),
    data: eventData.default({}),
    participants: z.array(z.strictObject({ profile_reference: reference(), role: text() })).default([]),
    article_references: z.array(reference()).default([]),
  })
  .check((ctx) => {
    const record = ctx.value as Record<string, unknown>;
    for (const link of requiredEventLinks[ctx.value.event_type]) {
      if (record[link] === null) {
        ctx.issues.push({
          code: 'custom',
          input: null,
          path: [link],
          message: `a ${ctx.value.event_type} event needs ${link}`,
        });
      }
    }
  });

/** Every record type, in the order they are stored: a type only links to types before it. */
export const recordSchemas = {
  occupation: occupationRecord,
  organisation: organisationRecord,
  profile: profileRecord,
  experience: experienceRecord,
  organisation_ownership: organisationOwnershipRecord,
  profile_stake: profileStakeRecord,
  article: articleRecord,
  event: eventRecord,
} as const satisfies Record<RecordTypeName, z.ZodType>;

export type RecordType = RecordTypeName;
export const recordTypes: RecordType[] = [...recordTypeNames];

export function isRecordType(value: unknown): value is RecordType {
  return typeof value === 'string' && Object.hasOwn(recordSchemas, value);
}

/** A removal: `{ "type": …, "reference": …, "deleted": true }`; what cascades from the record goes with it. */
export const deletionRecord = z.strictObject({
  type: z.enum(recordTypes as [RecordType, ...RecordType[]]).optional(),
  reference: reference(),
  deleted: z.literal(true),
});

/** Where a record links to, as a JSON path into its canonical document, and the record type it must name. */
export interface RecordLink {
  path: string;
  target: RecordType | 'client_summary' | 'industry';
}

export const recordLinks: Record<RecordType, readonly RecordLink[]> = {
  occupation: [],
  organisation: [{ path: '$.industries[*].code', target: 'industry' }],
  profile: [],
  experience: [
    { path: '$.profile_reference', target: 'profile' },
    { path: '$.organisation_reference', target: 'organisation' },
    { path: '$.occupation_reference', target: 'occupation' },
  ],
  organisation_ownership: [
    { path: '$.owner_reference', target: 'organisation' },
    { path: '$.owned_reference', target: 'organisation' },
  ],
  profile_stake: [
    { path: '$.profile_reference', target: 'profile' },
    { path: '$.organisation_reference', target: 'organisation' },
  ],
  article: [
    { path: '$.organisation_references[*]', target: 'organisation' },
    { path: '$.annotations[*].organisation_reference', target: 'organisation' },
    { path: '$.annotations[*].speaker.profile_reference', target: 'profile' },
    { path: '$.annotations[*].subject.profile_reference', target: 'profile' },
  ],
  event: [
    { path: '$.organisation_reference', target: 'organisation' },
    { path: '$.profile_reference', target: 'profile' },
    { path: '$.occupation_reference', target: 'occupation' },
    { path: '$.acquirer_reference', target: 'organisation' },
    { path: '$.acquiree_reference', target: 'organisation' },
    { path: '$.client_summary_reference', target: 'client_summary' },
    { path: '$.participants[*].profile_reference', target: 'profile' },
    { path: '$.article_references[*]', target: 'article' },
  ],
};
