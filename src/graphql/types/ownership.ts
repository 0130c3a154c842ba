import type { OwnershipLink } from '../../domain/ownership/organisation-ownership.ts';
import { builder } from '../builder.ts';
import { OrganisationRef, ProfileRef, ProfileStakeRef } from '../refs.ts';
import { RelationshipTypeEnum } from './organisation-enums.ts';

const OrganisationOwnershipRef = builder.objectRef<OwnershipLink>('OrganisationOwnership').implement({
  description:
    'An ownership link between two organisations, seen from the one that lists it: among its `owners` the other end owns it; among its `subsidiaries` it owns the other end. Needs a plan covering `ownership`.',
  authScopes: { covers: 'ownership' },
  fields: (t) => ({
    organisation: t.field({
      type: OrganisationRef,
      description: 'The other end: the owner (in `owners`) or the owned organisation (in `subsidiaries`).',
      resolve: async (link, _args, context) =>
        (await context.loaders.organisationByReference.load(link.counterpartReference))!,
    }),
    ownershipLabel: t.exposeString('ownershipLabel', {
      description: 'A band label such as `25% - 50%`, not a number.',
    }),
    isControllingInterest: t.exposeBoolean('isControllingInterest', {
      description: 'Whether the holding is a controlling interest.',
    }),
    relationshipType: t.field({
      type: RelationshipTypeEnum,
      description:
        'In `owners`, the stored relationship of the owner (`PARENT`, `MINORITY_OWNER`, ...); in `subsidiaries`, seen from the owner, so a parent link reads `SUBSIDIARY` and the rest are unchanged.',
      resolve: (link) => link.relationshipType,
    }),
  }),
});

builder.node(ProfileStakeRef, {
  description: "A person's stake in an organisation, active or past. Needs a plan covering `ownership`.",
  authScopes: { covers: 'ownership' },
  id: { resolve: (stake) => stake.reference },
  loadOne: (reference, context) => context.loaders.profileStakeByReference.load(reference),
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: 'The stake’s reference (UUID).' }),
    profile: t.field({
      type: ProfileRef,
      description: 'The person holding the stake.',
      resolve: async (stake, _args, context) =>
        (await context.loaders.profileByReference.load(stake.profileReference))!,
    }),
    organisation: t.field({
      type: OrganisationRef,
      description: 'The organisation the stake is in.',
      resolve: async (stake, _args, context) =>
        (await context.loaders.organisationByReference.load(stake.organisationReference))!,
    }),
    ownershipType: t.exposeString('ownershipType', { description: 'A label, e.g. a share-ownership label.' }),
    ownershipBand: t.exposeString('ownershipBand', {
      description: 'A band label such as `25% - 50%`, not a number (REST `ownershipPercentage`).',
    }),
    titleOrStatus: t.exposeString('titleOrStatus', {
      nullable: true,
      description: "The person's title at the organisation.",
    }),
    isControlPerson: t.exposeBoolean('isControlPerson', {
      description: 'Whether the person is a control person of the organisation.',
    }),
    isActive: t.exposeBoolean('isActive', {
      description: 'True while the stake is held; false for a past one.',
    }),
    startDate: t.expose('startDate', {
      type: 'Date',
      nullable: true,
      description: 'When the stake began, when known.',
    }),
    endDate: t.expose('endDate', {
      type: 'Date',
      nullable: true,
      description: 'When the stake ended, when known.',
    }),
  }),
});

// Ownership fields are nullable so that a plan without ownership loses them alone, not the whole record.
builder.objectFields(OrganisationRef, (t) => ({
  owners: t.field({
    type: [OrganisationOwnershipRef],
    nullable: true,
    authScopes: { covers: 'ownership' },
    description: 'Organisations that own this one, controlling interests first, then by name.',
    resolve: (organisation, _args, context) =>
      context.loaders.ownersByOrganisation.load(organisation.reference),
  }),
  subsidiaries: t.field({
    type: [OrganisationOwnershipRef],
    nullable: true,
    authScopes: { covers: 'ownership' },
    description: 'Organisations this one owns, controlling interests first, then by name.',
    resolve: (organisation, _args, context) =>
      context.loaders.subsidiariesByOrganisation.load(organisation.reference),
  }),
  profileOwners: t.field({
    type: [ProfileStakeRef],
    nullable: true,
    authScopes: { covers: 'ownership' },
    description: 'Active stakes of people in this organisation, control persons first, then by surname.',
    resolve: (organisation, _args, context) =>
      context.loaders.profileOwnersByOrganisation.load(organisation.reference),
  }),
}));

builder.objectField(ProfileRef, 'stakes', (t) =>
  t.field({
    type: [ProfileStakeRef],
    nullable: true,
    authScopes: { covers: 'ownership' },
    description: 'Every stake the person holds or held, active first, then the latest start first.',
    resolve: (profile, _args, context) => context.loaders.stakesByProfile.load(profile.reference),
  }),
);
