import { type PlannedExperience, plannedOrganisation } from '../../domain/read-plan.ts';
import { builder } from '../builder.ts';
import { ExperienceRef, OccupationRef, OrganisationRef, ProfileRef } from '../refs.ts';

builder.node(OccupationRef, {
  description: 'A normalised job title that recorded titles map to.',
  id: { resolve: (occupation) => occupation.reference },
  loadOne: (reference, context) => context.loaders.occupationByReference.load(reference),
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: 'The spec reference (UUID).' }),
    name: t.exposeString('name', { description: 'The normalised title.' }),
  }),
});

builder.node(ExperienceRef, {
  description:
    'One role a person held at an organisation. No end date means a current role. Needs a plan covering `people`.',
  authScopes: { covers: 'people' },
  id: { resolve: (experience) => experience.reference },
  loadOne: (reference, context) => context.loaders.experienceByReference.load(reference),
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: 'The spec reference (UUID).' }),
    occupationTitle: t.exposeString('occupationTitle', { description: 'The title as recorded.' }),
    occupation: t.field({
      type: OccupationRef,
      nullable: true,
      description: 'The normalised job title, when the recorded title maps to one.',
      resolve: (experience, _args, context) =>
        experience.occupationReference
          ? context.loaders.occupationByReference.load(experience.occupationReference)
          : null,
    }),
    organisation: t.field({
      type: OrganisationRef,
      nullable: true,
      description: 'Where the role is or was held; null when it is not linked to a recorded organisation.',
      resolve: (experience: PlannedExperience, _args, context) => {
        const planned = experience[plannedOrganisation];
        if (planned !== undefined) return planned;
        return experience.organisationReference
          ? context.loaders.organisationByReference.load(experience.organisationReference)
          : null;
      },
    }),
    profile: t.field({
      type: ProfileRef,
      description: 'The person who held the role.',
      resolve: async (experience, _args, context) => {
        const profile = await context.loaders.profileByReference.load(experience.profileReference);
        if (!profile) throw new Error(`Experience ${experience.reference} has no profile`);
        return profile;
      },
    }),
    startDate: t.expose('startDate', {
      type: 'Date',
      nullable: true,
      description: 'When the role started, when known.',
    }),
    endDate: t.expose('endDate', { type: 'Date', nullable: true, description: 'Null on a current role.' }),
    isCurrent: t.boolean({
      description: 'True when the role has no end date.',
      resolve: (experience) => experience.endDate === null,
    }),
  }),
});
