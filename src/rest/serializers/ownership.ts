import { z } from '@hono/zod-openapi';
import {
  type OrganisationOwnership,
  type OwnershipLink,
  relationshipTypes,
} from '../../domain/ownership/organisation-ownership.ts';
import type { NamedStake } from '../../domain/ownership/profile-stakes.ts';

const organisationRefSchema = z.object({ reference: z.uuid(), name: z.string() });
const dateSchema = z.string().openapi({ format: 'date', example: '2019-07-01' });

const ownershipLinkSchema = z
  .object({
    reference: z.uuid().openapi({ description: "The other organisation's reference." }),
    name: z.string().openapi({ description: "The other organisation's name." }),
    ownership_label: z.string().openapi({ description: 'A band label such as `25% - 50%`, not a number.' }),
    is_controlling_interest: z.boolean(),
    relationship_type: z.enum(relationshipTypes).openapi({
      description:
        'How the owner relates to the owned organisation. In `org_owners` it is the stored relationship of the owner ' +
        '(`parent`, `minority_owner`, `joint_venture_partner`, `associate`, `affiliate`); in `subsidiaries` it is seen ' +
        'from the owner, so a `parent` link reads `subsidiary` and the others are unchanged.',
    }),
  })
  .openapi('OwnershipLink');

export const organisationOwnershipSchema = z
  .object({
    organisation: organisationRefSchema,
    profile_owners: z
      .array(
        z.object({
          reference: z.uuid().openapi({ description: "The person's reference." }),
          name: z.string(),
          ownership_label: z.string().openapi({ description: 'A band label, not a number.' }),
          title_or_status: z.string().nullable(),
          is_control_person: z.boolean(),
        }),
      )
      .openapi({ description: 'People with an active stake; control persons first.' }),
    org_owners: z.array(ownershipLinkSchema).openapi({ description: 'Organisations that own this one.' }),
    subsidiaries: z.array(ownershipLinkSchema).openapi({ description: 'Organisations this one owns.' }),
  })
  .openapi('OrganisationOwnership');

function serializeLink(link: OwnershipLink): z.infer<typeof ownershipLinkSchema> {
  return {
    reference: link.counterpartReference,
    name: link.counterpartName,
    ownership_label: link.ownershipLabel,
    is_controlling_interest: link.isControllingInterest,
    relationship_type: link.relationshipType,
  };
}

export function serializeOrganisationOwnership(
  ownership: OrganisationOwnership,
): z.infer<typeof organisationOwnershipSchema> {
  return {
    organisation: ownership.organisation,
    profile_owners: ownership.profileOwners.map((stake) => ({
      reference: stake.profileReference,
      name: stake.profileName,
      ownership_label: stake.ownershipBand,
      title_or_status: stake.titleOrStatus,
      is_control_person: stake.isControlPerson,
    })),
    org_owners: ownership.owners.map(serializeLink),
    subsidiaries: ownership.subsidiaries.map(serializeLink),
  };
}

export const profileOwnershipItemSchema = z
  .object({
    organisation: organisationRefSchema,
    ownershipType: z.string().openapi({ description: 'A label, e.g. a share-ownership label.' }),
    ownershipPercentage: z
      .string()
      .openapi({ description: 'A band label such as `25% - 50%`, not a number.' }),
    titleOrStatus: z.string().nullable().openapi({ description: "The person's title at the organisation." }),
    isControlPerson: z.boolean(),
    isActive: z.boolean(),
    startDate: dateSchema.nullable(),
    endDate: dateSchema.nullable(),
  })
  .openapi('ProfileOwnershipItem');

export function serializeProfileOwnershipItem(stake: NamedStake): z.infer<typeof profileOwnershipItemSchema> {
  return {
    organisation: { reference: stake.organisationReference, name: stake.organisationName },
    ownershipType: stake.ownershipType,
    ownershipPercentage: stake.ownershipBand,
    titleOrStatus: stake.titleOrStatus,
    isControlPerson: stake.isControlPerson,
    isActive: stake.isActive,
    startDate: stake.startDate,
    endDate: stake.endDate,
  };
}
