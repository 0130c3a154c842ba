import { z } from '@hono/zod-openapi';
import type {
  PlacedExperience,
  ProfileListEntry,
  ProfileRecord,
} from '../../domain/profiles/profile-record.ts';

const dateSchema = z.string().openapi({ format: 'date', example: '2021-04-30' });
const confidenceScoreSchema = z
  .number()
  .min(0)
  .max(1)
  .nullable()
  .openapi({ description: 'Match confidence, 0 to 1.' });

export const currentRoleSchema = z
  .object({
    title: z.string().openapi({ description: 'The title as recorded.' }),
    organisation: z.string().openapi({ description: "The organisation's name." }),
    start_date: dateSchema.nullable(),
  })
  .nullable()
  .openapi('CurrentRole', {
    description:
      'The role with no end date held at a known organisation (the most recently started if several); null when the person has none.',
  });

export function serializeCurrentRole(role: PlacedExperience | null): z.infer<typeof currentRoleSchema> {
  if (!role) return null;
  return {
    title: role.experience.occupationTitle,
    organisation: role.organisation?.name ?? '',
    start_date: role.experience.startDate,
  };
}

export const profileListRowSchema = z
  .object({
    reference: z.uuid().openapi({ description: "The person's reference." }),
    name: z.string().openapi({ description: 'Full name.' }),
    first_name: z.string(),
    last_name: z.string(),
    linkedin_url: z.string().nullable(),
    confidence_score: confidenceScoreSchema,
    current_role: currentRoleSchema,
  })
  .openapi('ProfileListRow');

export function serializeProfileListRow({
  profile,
  currentRole,
}: ProfileListEntry): z.infer<typeof profileListRowSchema> {
  return {
    reference: profile.reference,
    name: profile.fullName,
    first_name: profile.firstName,
    last_name: profile.lastName,
    linkedin_url: profile.linkedinUrl,
    confidence_score: profile.confidenceScore,
    current_role: serializeCurrentRole(currentRole),
  };
}

const namedReferenceSchema = z.object({ reference: z.uuid(), name: z.string() });

const experienceSchema = z
  .object({
    reference: z.uuid(),
    organisation: namedReferenceSchema.nullable(),
    occupation_title: z.string().openapi({ description: 'The title as recorded.' }),
    occupation: namedReferenceSchema.nullable().openapi({ description: 'The normalised job title.' }),
    startDate: dateSchema.nullable(),
    endDate: dateSchema.nullable().openapi({ description: 'Null on a current role.' }),
  })
  .openapi('Experience');

const emailSchema = z
  .object({
    value: z.string(),
    domain: z.string(),
    confidence_score: z.number(),
    is_valid: z.boolean(),
  })
  .openapi('ProfileEmail');

const linksSchema = z
  .union([z.object({ Linkedin: z.object({ href: z.string() }) }), z.array(z.unknown()).max(0)])
  .openapi({
    description: '`{ Linkedin: { href } }` when the LinkedIn address is known; an empty array otherwise.',
  });

export const profileSchema = z
  .object({
    reference: z.uuid(),
    names: z.object({ fullName: z.string(), firstName: z.string(), lastName: z.string() }),
    current_role: currentRoleSchema,
    confidenceScore: confidenceScoreSchema,
    experiences: z.array(experienceSchema).openapi({
      description:
        'Work history, one entry per role: current roles first, then by start date, newest first (unknown start dates last).',
    }),
    emails: z.array(emailSchema).openapi({ description: 'The most confident first.' }),
    links: linksSchema,
  })
  .openapi('Profile');

export function serializeProfile(record: ProfileRecord): z.infer<typeof profileSchema> {
  const { profile, ...parts } = record;
  return {
    reference: profile.reference,
    names: { fullName: profile.fullName, firstName: profile.firstName, lastName: profile.lastName },
    current_role: serializeCurrentRole(parts.currentRole),
    confidenceScore: profile.confidenceScore,
    experiences: parts.experiences.map(({ experience, organisation, occupation }) => ({
      reference: experience.reference,
      organisation: organisation ? { reference: organisation.reference, name: organisation.name } : null,
      occupation_title: experience.occupationTitle,
      occupation: occupation ? { reference: occupation.reference, name: occupation.name } : null,
      startDate: experience.startDate,
      endDate: experience.endDate,
    })),
    emails: parts.emails.map((email) => ({
      value: email.value,
      domain: email.domain,
      confidence_score: email.confidenceScore,
      is_valid: email.isValid,
    })),
    links: profile.linkedinUrl ? { Linkedin: { href: profile.linkedinUrl } } : [],
  };
}
