import { resolveOrganisations, resolveProfiles } from '../../domain/resolve/index.ts';
import {
  defaultMaxCandidates,
  defaultMinScore,
  type MatchedOn,
  type MatchHow,
  matchHows,
  maxMaxCandidates,
  maxResolveInputs,
  type ResolveCandidate,
  type ResolveRow,
  type ResolveStatus,
  resolveStatuses,
} from '../../domain/resolve/types.ts';
import { builder } from '../builder.ts';
import { OrganisationRef, ProfileRef } from '../refs.ts';

const statusDescriptions: Record<ResolveStatus, string> = {
  matched: 'The best candidate is the record: its score is at least the match threshold (and `minScore`).',
  ambiguous: 'Candidates, none sure enough to be the record.',
  none: 'No candidate; `reason` says why.',
};

const ResolveStatusEnum = builder.enumType('ResolveStatus', {
  description: 'What a row of a resolved list came to.',
  values: Object.fromEntries(
    resolveStatuses.map((status) => [
      status.toUpperCase(),
      { value: status, description: statusDescriptions[status] },
    ]),
  ) as Record<Uppercase<ResolveStatus>, { value: ResolveStatus; description: string }>,
});

const howDescriptions: Record<MatchHow, string> = {
  exact: 'The same text.',
  normalised:
    'The same once case, accents, punctuation, word order, legal forms (Inc, GmbH), a scheme, `www.` or a path are set aside.',
  alias: 'One of the organisation’s current other names.',
  former_name: 'A name the organisation had; for a person’s organisation, a past employer.',
  fuzzy: 'Close but not the same (a typo, a missing word).',
  disagrees: 'Different from the record’s value.',
  missing: 'The record has no value to compare.',
};

const MatchHowEnum = builder.enumType('MatchHow', {
  description: 'How an input field compared with a record.',
  values: Object.fromEntries(
    matchHows.map((how) => [how.toUpperCase(), { value: how, description: howDescriptions[how] }]),
  ) as Record<Uppercase<MatchHow>, { value: MatchHow; description: string }>,
});

const MatchedOnType = builder.objectRef<MatchedOn>('MatchedOn').implement({
  description: 'One input field compared with a record: the value it was compared with and how.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'The input field, as the input type names it.' }),
    input: t.exposeString('input', { description: 'The input’s value as sent.' }),
    value: t.exposeString('value', {
      nullable: true,
      description: 'The record’s value; null when it has none.',
    }),
    how: t.field({ type: MatchHowEnum, description: 'How the two compared.', resolve: (match) => match.how }),
  }),
});

const scoreDescription =
  'How likely this record is the row’s, 0 to 1: on the labelled sets, of the rows matched at a score of at least s, at least a share s are right (docs/resolving.md).';

const OrganisationCandidateType = builder.objectRef<ResolveCandidate>('OrganisationCandidate').implement({
  description: 'An organisation a row could be, with its score and the evidence for it.',
  fields: (t) => ({
    organisation: t.field({
      type: OrganisationRef,
      description: 'The record, with everything the graph reaches from it.',
      resolve: async (candidate, _args, context) => {
        const organisation = await context.loaders.organisationByReference.load(candidate.reference);
        if (!organisation) throw new Error(`organisation ${candidate.reference} vanished while resolving`);
        return organisation;
      },
    }),
    score: t.exposeFloat('score', { description: scoreDescription }),
    matchedOn: t.field({
      type: [MatchedOnType],
      description: 'Each input field, with the value it was compared with and how.',
      resolve: (candidate) => candidate.matchedOn,
    }),
  }),
});

const ProfileCandidateType = builder.objectRef<ResolveCandidate>('ProfileCandidate').implement({
  description: 'A person a row could be, with its score and the evidence for it.',
  fields: (t) => ({
    profile: t.field({
      type: ProfileRef,
      description: 'The record, with everything the graph reaches from it.',
      resolve: async (candidate, _args, context) => {
        const profile = await context.loaders.profileByReference.load(candidate.reference);
        if (!profile) throw new Error(`profile ${candidate.reference} vanished while resolving`);
        return profile;
      },
    }),
    score: t.exposeFloat('score', { description: scoreDescription }),
    matchedOn: t.field({
      type: [MatchedOnType],
      description: 'Each input field, with the value it was compared with and how.',
      resolve: (candidate) => candidate.matchedOn,
    }),
  }),
});

const OrganisationResolveRowType = builder.objectRef<ResolveRow>('OrganisationResolveRow').implement({
  description: 'One row of a resolved list of organisations, in input order.',
  fields: (t) => ({
    status: t.field({
      type: ResolveStatusEnum,
      description: 'What the row came to.',
      resolve: (row) => row.status,
    }),
    reason: t.exposeString('reason', {
      nullable: true,
      description: 'Why no candidate, when the status is NONE.',
    }),
    candidates: t.field({
      type: [OrganisationCandidateType],
      description: 'Best first.',
      extensions: { listSize: maxMaxCandidates },
      resolve: (row) => row.candidates,
    }),
  }),
});

const ProfileResolveRowType = builder.objectRef<ResolveRow>('ProfileResolveRow').implement({
  description: 'One row of a resolved list of people, in input order.',
  fields: (t) => ({
    status: t.field({
      type: ResolveStatusEnum,
      description: 'What the row came to.',
      resolve: (row) => row.status,
    }),
    reason: t.exposeString('reason', {
      nullable: true,
      description: 'Why no candidate, when the status is NONE.',
    }),
    candidates: t.field({
      type: [ProfileCandidateType],
      description: 'Best first.',
      extensions: { listSize: maxMaxCandidates },
      resolve: (row) => row.candidates,
    }),
  }),
});

const OrganisationResolveInput = builder.inputType('OrganisationResolveInput', {
  description: 'One row of a list of organisations; every field optional.',
  fields: (t) => ({
    name: t.string({ description: 'Legal forms, case, accents and word order do not matter.' }),
    domain: t.string({ description: 'A domain or an e-mail address.' }),
    website: t.string({ description: 'A URL: scheme, `www.` and path do not matter.' }),
    ticker: t.string({ description: 'With or without its exchange: `ACME`, `XNAS:ACME`, `ACME.L`.' }),
    country: t.string({ description: 'An ISO 3166 code or an English name.' }),
    city: t.string({ description: 'Compared with the company address.' }),
  }),
});

const ProfileResolveInput = builder.inputType('ProfileResolveInput', {
  description: 'One row of a list of people; every field optional.',
  fields: (t) => ({
    name: t.string({ description: 'The whole name, in any order, case or accents.' }),
    firstName: t.string({ description: 'With `lastName`, instead of `name`.' }),
    lastName: t.string({ description: 'With `firstName`, instead of `name`.' }),
    linkedinUrl: t.string({ description: 'A LinkedIn profile URL in any of its spellings.' }),
    email: t.string({ description: 'An e-mail address, in any case.' }),
    organisation: t.string({ description: 'An organisation’s name or reference, current or past.' }),
    title: t.string({ description: 'Compared with the titles of current roles.' }),
  }),
});

const optionArgs = {
  minScore: {
    description: `Candidates scoring below this are left out, 0 to 1; default ${defaultMinScore}.`,
  },
  maxCandidates: {
    description: `At most this many candidates per row, 1 to ${maxMaxCandidates}; default ${defaultMaxCandidates}.`,
  },
};

builder.queryField('resolveOrganisations', (t) =>
  t.field({
    type: [OrganisationResolveRowType],
    description: `Matches a list of up to ${maxResolveInputs} organisations to records: one row per input, in input order, none left out.`,
    authScopes: { covers: 'organisations' },
    extensions: { listSizeOf: 'inputs' },
    args: {
      inputs: t.arg({
        type: [OrganisationResolveInput],
        required: true,
        description: `The rows of the list, at most ${maxResolveInputs}.`,
      }),
      minScore: t.arg.float(optionArgs.minScore),
      maxCandidates: t.arg.int(optionArgs.maxCandidates),
    },
    resolve: (_root, args, context) =>
      resolveOrganisations(context.db, args.inputs, {
        minScore: args.minScore ?? undefined,
        maxCandidates: args.maxCandidates ?? undefined,
      }),
  }),
);

builder.queryField('resolveProfiles', (t) =>
  t.field({
    type: [ProfileResolveRowType],
    description: `Matches a list of up to ${maxResolveInputs} people to records: one row per input, in input order, none left out.`,
    authScopes: { covers: 'people' },
    extensions: { listSizeOf: 'inputs' },
    args: {
      inputs: t.arg({
        type: [ProfileResolveInput],
        required: true,
        description: `The rows of the list, at most ${maxResolveInputs}.`,
      }),
      minScore: t.arg.float(optionArgs.minScore),
      maxCandidates: t.arg.int(optionArgs.maxCandidates),
    },
    resolve: (_root, args, context) =>
      resolveProfiles(context.db, args.inputs, {
        minScore: args.minScore ?? undefined,
        maxCandidates: args.maxCandidates ?? undefined,
      }),
  }),
);
