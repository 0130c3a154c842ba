import { z } from '@hono/zod-openapi';
import {
  defaultMaxCandidates,
  defaultMinScore,
  type MatchedOn,
  matchHows,
  maxMaxCandidates,
  maxResolveInputs,
  type OrganisationInput,
  type ProfileInput,
  type ResolveField,
  type ResolveRow,
  resolveStatuses,
} from '../../domain/resolve/types.ts';

/** The wire's names of the input fields, snake_case as the rest of `/v1`. */
const wireField: Record<ResolveField, string> = {
  name: 'name',
  domain: 'domain',
  website: 'website',
  ticker: 'ticker',
  country: 'country',
  city: 'city',
  firstName: 'first_name',
  lastName: 'last_name',
  linkedinUrl: 'linkedin_url',
  email: 'email',
  organisation: 'organisation',
  title: 'title',
};

const text = (description: string, example?: string) =>
  z
    .string()
    .max(1000)
    .nullish()
    // NUL cannot be stored or matched: the domain refuses it with 422 naming the input (domain/storable-text.ts).
    .openapi({ description, pattern: '^[^\\x00]*$', ...(example ? { example } : {}) });

export const organisationInputSchema = z
  .strictObject({
    name: text(
      'The name as the list has it: legal forms, case, accents and word order do not matter.',
      'Acme Ltd',
    ),
    domain: text('A domain or an e-mail address (its domain is used).', 'acme.com'),
    website: text('A URL: scheme, `www.` and path do not matter.', 'https://www.acme.com/about'),
    ticker: text('A ticker with or without its exchange: `ACME`, `XNAS:ACME`, `ACME.L`.', 'ACME'),
    country: text('An ISO 3166 code or an English name; compared with the company address.', 'GB'),
    city: text('Compared with the company address.'),
  })
  .openapi('OrganisationResolveInput', {
    description: 'One row of a list. Unknown fields are refused (422, naming the field).',
  });

export const profileInputSchema = z
  .strictObject({
    name: text('The whole name, in any order, case or accents.', 'Jane Doe'),
    first_name: text('With `last_name`, instead of `name`.'),
    last_name: text('With `first_name`, instead of `name`.'),
    linkedin_url: text('A LinkedIn profile URL in any of its spellings, or its handle.'),
    email: text('An e-mail address, in any case.'),
    organisation: text(
      "An organisation's name or reference, current or past; compared with the person's roles.",
    ),
    title: text('Compared with the titles of current roles.'),
  })
  .openapi('ProfileResolveInput', {
    description: 'One row of a list. Unknown fields are refused (422, naming the field).',
  });

const options = {
  min_score: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .openapi({
      description: `Candidates scoring below this are left out, 0 to 1; default ${defaultMinScore}. A row is \`matched\` only when its best candidate scores at least this and the match threshold.`,
    }),
  max_candidates: z
    .number()
    .int()
    .min(1)
    .max(maxMaxCandidates)
    .optional()
    .openapi({
      description: `At most this many candidates per row, 1 to ${maxMaxCandidates}; default ${defaultMaxCandidates}.`,
    }),
};

const inputsDescription = `1 to ${maxResolveInputs} rows; each counts as one request toward the plan's rate limit.`;

export const resolveOrganisationsBody = z
  .strictObject({
    inputs: z
      .array(organisationInputSchema)
      .min(1)
      .max(maxResolveInputs)
      .openapi({ description: inputsDescription }),
    ...options,
  })
  .openapi('ResolveOrganisationsBody');

export const resolveProfilesBody = z
  .strictObject({
    inputs: z
      .array(profileInputSchema)
      .min(1)
      .max(maxResolveInputs)
      .openapi({ description: inputsDescription }),
    ...options,
  })
  .openapi('ResolveProfilesBody');

const matchedOnSchema = z
  .object({
    field: z.string().openapi({ description: 'The input field compared.', example: 'name' }),
    input: z.string().openapi({ description: "The input's value as sent." }),
    value: z
      .string()
      .nullable()
      .openapi({ description: "The record's value it was compared with; null when none." }),
    how: z.enum(matchHows).openapi({
      description:
        '`exact` the same text; `normalised` the same once case, accents, punctuation, word order, legal forms, scheme or `www.` are set aside; `alias` a current other name; `former_name` a name the organisation had (or, for a person, a past employer); `fuzzy` close but not the same; `disagrees` different; `missing` the record has no value.',
    }),
  })
  .openapi('MatchedOn');

const candidateSchema = z
  .object({
    reference: z.uuid(),
    name: z.string(),
    score: z.number().min(0).max(1).openapi({
      description:
        "How likely this record is the row's, 0 to 1: on the labelled sets, of the rows matched at a score of at least s, at least a share s are right. See docs/resolving.md.",
    }),
    matched_on: z.array(matchedOnSchema),
  })
  .openapi('ResolveCandidate');

export const resolveRowSchema = z
  .object({
    status: z.enum(resolveStatuses).openapi({
      description:
        '`matched`: the best candidate is the record (its score is at least the match threshold); `ambiguous`: candidates, none sure enough; `none`: no candidate (see `reason`).',
    }),
    reason: z.string().nullable().openapi({ description: 'Why no candidate, when `status` is `none`.' }),
    candidates: z.array(candidateSchema).openapi({ description: 'Best first.' }),
  })
  .openapi('ResolveRow');

export const resolveMetaSchema = z
  .object({
    inputs: z.number().int(),
    matched: z.number().int(),
    ambiguous: z.number().int(),
    none: z.number().int(),
  })
  .openapi('ResolveMeta', {
    description: 'How many rows came back with each status; rows are in input order.',
  });

const serializeMatchedOn = (match: MatchedOn) => ({
  field: wireField[match.field],
  input: match.input,
  value: match.value,
  how: match.how,
});

export function serializeResolveRow(row: ResolveRow): z.infer<typeof resolveRowSchema> {
  return {
    status: row.status,
    reason: row.reason,
    candidates: row.candidates.map((candidate) => ({
      reference: candidate.reference,
      name: candidate.name,
      score: candidate.score,
      matched_on: candidate.matchedOn.map(serializeMatchedOn),
    })),
  };
}

export function resolveMeta(rows: ResolveRow[]): z.infer<typeof resolveMetaSchema> {
  const count = (status: ResolveRow['status']) => rows.filter((row) => row.status === status).length;
  return {
    inputs: rows.length,
    matched: count('matched'),
    ambiguous: count('ambiguous'),
    none: count('none'),
  };
}

export function readProfileWireInput(input: z.infer<typeof profileInputSchema>): ProfileInput {
  return {
    name: input.name,
    firstName: input.first_name,
    lastName: input.last_name,
    linkedinUrl: input.linkedin_url,
    email: input.email,
    organisation: input.organisation,
    title: input.title,
  };
}

export const readOrganisationWireInput = (
  input: z.infer<typeof organisationInputSchema>,
): OrganisationInput => input;
