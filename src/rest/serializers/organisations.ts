import { z } from '@hono/zod-openapi';
import type { OrganisationRecord } from '../../domain/organisations/get-organisation.ts';
import type { OrganisationPeople, OrganisationRole } from '../../domain/organisations/organisation-people.ts';
import { sizeBand, sizeBands } from '../../domain/organisations/size-band.ts';
import type {
  ClientSummary,
  Organisation,
  OrganisationAddress,
  OrganisationTicker,
} from '../../domain/records.ts';
import { organisationStatuses, summaryTypes } from '../../domain/vocabulary/organisations.ts';

const sizeSchema = z.enum(sizeBands).openapi({
  description: 'The headcount band of `totals.employees`; `-` when the headcount is unknown (0).',
});
const totalsSchema = z.object({
  employees: z.number().int().openapi({ description: 'The recorded headcount.' }),
});
const statusSchema = z.enum(organisationStatuses);
const confidenceSchema = z.number().int().min(0).max(100);
const dateSchema = z.string().openapi({ format: 'date', example: '2021-04-30' });

export const organisationListRowSchema = z
  .object({
    reference: z.uuid(),
    name: z.string(),
    size: sizeSchema,
    totals: totalsSchema,
    status: statusSchema,
    verified: z.boolean(),
    confidence: confidenceSchema,
  })
  .openapi('OrganisationListRow');

export function serializeOrganisationListRow(
  organisation: Organisation,
): z.infer<typeof organisationListRowSchema> {
  return {
    reference: organisation.reference,
    name: organisation.name,
    size: sizeBand(organisation.employees),
    totals: { employees: organisation.employees },
    status: organisation.status,
    verified: organisation.verified,
    confidence: organisation.confidence,
  };
}

export const tickerSchema = z
  .object({
    value: z.string().openapi({ description: 'The ticker symbol.' }),
    exchange: z.object({ name: z.string(), code: z.string() }),
    currency: z.string(),
    status: z.string(),
    is_primary_listing: z.boolean(),
  })
  .openapi('Ticker');

export function serializeTicker(ticker: OrganisationTicker): z.infer<typeof tickerSchema> {
  return {
    value: ticker.value,
    exchange: { name: ticker.exchangeName, code: ticker.exchangeCode },
    currency: ticker.currency,
    status: ticker.status,
    is_primary_listing: ticker.isPrimaryListing,
  };
}

export const addressSchema = z
  .object({
    city: z.string().nullable(),
    state: z.string().nullable(),
    country: z.string().nullable().openapi({ description: 'ISO 3166-1 alpha-2 code.', example: 'GB' }),
    zip_postal_code: z.string().nullable(),
  })
  .openapi('OrganisationAddress', { description: 'Every field null when the address is unknown.' });

/** Both addresses, always objects: an unknown address has null fields. */
export const addressesSchema = z.object({ company: addressSchema, mailing: addressSchema });

const clientSummarySchema = z
  .object({
    currency_code: z.string(),
    summary_type: z.enum(summaryTypes),
    publish_date: z.iso.datetime(),
    entries: z.array(
      z.object({
        client_type: z.string(),
        client_type_label: z.string(),
        number_of_clients: z.number().int().nullable(),
        fewer_than_5: z.boolean(),
        regulatory_assets_under_management: z.number().nullable(),
      }),
    ),
  })
  .openapi('ClientSummary', { description: 'An assets-under-management record.' });

export const organisationRecordSchema = z
  .object({
    reference: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    totals: totalsSchema,
    size: sizeSchema,
    aliases: z
      .array(
        z.object({ name: z.string(), start_date: dateSchema.nullable(), end_date: dateSchema.nullable() }),
      )
      .openapi({
        description: 'Other names; current ones (no end date) first, then the latest ended first.',
      }),
    tickers: z.array(tickerSchema),
    domains: z.array(z.object({ domain: z.string(), confidence_score: z.number(), is_valid: z.boolean() })),
    phones: z.array(z.object({ number: z.string(), type: z.string(), is_valid: z.boolean() })),
    industries: z
      .array(
        z.object({
          code: z.string(),
          name: z.string(),
          level: z.number().int().min(1).max(4),
          is_primary: z.boolean(),
        }),
      )
      .openapi({
        description: 'GICS classification; level 1 sector to 4 sub-industry; the primary one first.',
      }),
    addresses: addressesSchema,
    client_summary: clientSummarySchema
      .nullable()
      .openapi({ description: 'The latest assets-under-management record, or null.' }),
    relationships: z.object({
      customers: z.number().int(),
      suppliers: z.number().int(),
      partners: z.number().int(),
      service_providers: z.number().int(),
    }),
    status: statusSchema,
    verified: z.boolean(),
    confidence: confidenceSchema,
  })
  .openapi('Organisation');

export function serializeAddress(address: OrganisationAddress | null): z.infer<typeof addressSchema> {
  return {
    city: address?.city ?? null,
    state: address?.state ?? null,
    country: address?.country ?? null,
    zip_postal_code: address?.zipPostalCode ?? null,
  };
}

export function serializeClientSummary(summary: ClientSummary): z.infer<typeof clientSummarySchema> {
  return {
    currency_code: summary.currencyCode,
    summary_type: summary.summaryType,
    publish_date: summary.publishDate.toISOString(),
    entries: summary.entries.map((entry) => ({
      client_type: entry.client_type,
      client_type_label: entry.client_type_label,
      number_of_clients: entry.number_of_clients,
      fewer_than_5: entry.fewer_than_5,
      regulatory_assets_under_management: entry.regulatory_assets_under_management,
    })),
  };
}

export function serializeOrganisationRecord(
  record: OrganisationRecord,
): z.infer<typeof organisationRecordSchema> {
  const { organisation } = record;
  return {
    reference: organisation.reference,
    name: organisation.name,
    description: organisation.description,
    totals: { employees: organisation.employees },
    size: sizeBand(organisation.employees),
    aliases: record.aliases.map((alias) => ({
      name: alias.name,
      start_date: alias.startDate,
      end_date: alias.endDate,
    })),
    tickers: record.tickers.map(serializeTicker),
    domains: record.domains.map((domain) => ({
      domain: domain.domain,
      confidence_score: domain.confidenceScore,
      is_valid: domain.isValid,
    })),
    phones: record.phones.map((phone) => ({
      number: phone.number,
      type: phone.type,
      is_valid: phone.isValid,
    })),
    industries: record.industries.map(({ industry, isPrimary }) => ({
      code: industry.code,
      name: industry.name,
      level: industry.level,
      is_primary: isPrimary,
    })),
    addresses: {
      company: serializeAddress(record.addresses.company),
      mailing: serializeAddress(record.addresses.mailing),
    },
    client_summary: record.clientSummary ? serializeClientSummary(record.clientSummary) : null,
    relationships: {
      customers: organisation.customers,
      suppliers: organisation.suppliers,
      partners: organisation.partners,
      service_providers: organisation.serviceProviders,
    },
    status: organisation.status,
    verified: organisation.verified,
    confidence: organisation.confidence,
  };
}

const personRowSchema = z
  .object({
    reference: z.uuid().openapi({ description: "The person's reference." }),
    name: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    linkedin_url: z.string().nullable(),
    confidence_score: z
      .number()
      .openapi({ description: "Match confidence, 0 to 1; 0 where the person's confidence is not recorded." }),
    role: z.object({
      title: z.string().openapi({ description: 'The title as recorded.' }),
      organisation: z.string().openapi({ description: "The organisation's name." }),
      start_date: dateSchema.nullable(),
      end_date: dateSchema.nullable().openapi({ description: 'Null for current staff.' }),
    }),
  })
  .openapi('OrganisationPersonRow', {
    description: 'A person in one role; someone with two roles at the organisation appears once per role.',
  });

export const organisationPeopleSchema = z
  .object({
    current_executives: z.array(personRowSchema).openapi({
      description:
        'Current staff whose title reads as executive: C-suite titles and abbreviations, president, founder, owner, ' +
        'director, VP/SVP/EVP, general or country manager, partner, head of, chair, board member; not assistants ' +
        'or HR business partners. Latest joiner first.',
    }),
    current_professionals: z
      .array(personRowSchema)
      .openapi({ description: 'Everyone else currently there. Latest joiner first.' }),
    alumni: z.array(personRowSchema).openapi({ description: 'Former staff, most recent leaver first.' }),
  })
  .openapi('OrganisationPeople');

function serializePersonRow(role: OrganisationRole): z.infer<typeof personRowSchema> {
  const { profile } = role;
  return {
    reference: profile.reference,
    name: profile.fullName,
    first_name: profile.firstName,
    last_name: profile.lastName,
    linkedin_url: profile.linkedinUrl,
    confidence_score: profile.confidenceScore ?? 0,
    role: {
      title: role.title,
      organisation: role.organisationName,
      start_date: role.startDate,
      end_date: role.endDate,
    },
  };
}

export function serializeOrganisationPeople(
  people: OrganisationPeople,
): z.infer<typeof organisationPeopleSchema> {
  return {
    current_executives: people.currentExecutives.map(serializePersonRow),
    current_professionals: people.currentProfessionals.map(serializePersonRow),
    alumni: people.alumni.map(serializePersonRow),
  };
}
