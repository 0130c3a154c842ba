import { z } from 'zod';
import type { Total } from '../../domain/paging.ts';
import { pickCurrentRole } from '../../domain/profiles/current-role.ts';
import {
  countProfiles,
  findProfiles,
  type ProfileSortKey,
  type ProfileType,
  profileSortKey,
  profileTypes,
} from '../../domain/profiles/find-profiles.ts';
import {
  plannedArticles,
  profileArticleOptions,
  profileArticlesKey,
} from '../../domain/profiles/planned-articles.ts';
import {
  annotationRoles,
  collapseModes,
  type ProfileArticle,
  type ProfileArticleKey,
} from '../../domain/profiles/profile-articles.ts';
import { loadProfilePlan, type PlannedProfile, plannedExperiences } from '../../domain/read-plan.ts';
import type { ProfileEmail } from '../../domain/records.ts';
import { builder } from '../builder.ts';
import { resolveKeysetConnection } from '../keyset.ts';
import { profileConnectionPlan } from '../read-plan.ts';
import { AnnotationRef, ArticleRef, EventRef, ExperienceRef, ProfileRef } from '../refs.ts';
import { AnnotationTypeEnum } from './annotation.ts';

function upperEnum<const Values extends readonly string[]>(
  name: string,
  values: Values,
  describe: Record<Values[number], string>,
  description: string,
) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(
      values.map((value) => [value.toUpperCase(), { value, description: describe[value as Values[number]] }]),
    ) as Record<Uppercase<Values[number]>, { value: Values[number]; description: string }>,
  });
}

const ProfileTypeEnum = upperEnum(
  'ProfileType',
  profileTypes,
  {
    business_owner: 'Holds an active stake in an organisation.',
    investment_advisor: 'A registered investment adviser or broker (currently the same set as `BROKER`).',
    broker: 'A registered investment adviser or broker (currently the same set as `INVESTMENT_ADVISOR`).',
    funding_participant: 'Took part in a funding round.',
    public_offering_participant: 'Took part in a public offering.',
  },
  'A kind of person to filter profiles by.',
);

const AnnotationRoleEnum = upperEnum(
  'AnnotationRole',
  annotationRoles,
  { about: 'The person is the subject of the statement.', by: 'The person is the speaker.' },
  'Which side of a statement a person is on.',
);

const CollapseEnum = upperEnum(
  'Collapse',
  collapseModes,
  {
    latest:
      'Fold statements repeated from the same organisation, type and speaker (on the same side of the person) into the newest, which carries `historyCount`; older ones are dropped, and so is an article left with none.',
    none: 'Every statement.',
  },
  "How a person's article list treats repeated yearly statements.",
);

const ProfileFilter = builder.inputType('ProfileFilter', {
  description: 'Filters of the profile list; all given ones apply.',
  fields: (t) => ({
    search: t.string({
      description:
        "Case-insensitive substring of the person's full name, taken literally; at most 200 characters.",
    }),
    organisationReference: t.field({
      type: 'UUID',
      description: 'People with any role, current or past, at this organisation.',
    }),
    profileType: t.field({ type: ProfileTypeEnum, description: 'Only people of this kind.' }),
  }),
});

const ProfileEmailRef = builder.objectRef<ProfileEmail>('ProfileEmail').implement({
  description: 'An email address of a person.',
  fields: (t) => ({
    value: t.exposeString('value', {
      description:
        'The address as recorded; a String, not an EmailAddress, because unverified addresses may not parse.',
    }),
    domain: t.exposeString('domain', { description: 'The domain part of the address.' }),
    confidenceScore: t.exposeFloat('confidenceScore', { description: 'Confidence, 0 to 1.' }),
    isValid: t.exposeBoolean('isValid', { description: 'Whether the address is recorded as valid.' }),
  }),
});

/** What the query cost counts for a person's statements in one article: a handful, not a page. */
const statementsPerArticle = 5;

const ProfileArticleRef = builder.objectRef<ProfileArticle>('ProfileArticle').implement({
  description: 'An article in which the person is the subject or the speaker of at least one statement.',
  fields: (t) => ({
    article: t.field({ type: ArticleRef, description: 'The article.', resolve: (item) => item.article }),
    about: t.field({
      type: [AnnotationRef],
      description: 'Statements where the person is the subject.',
      extensions: { listSize: statementsPerArticle },
      resolve: (item) => item.about,
    }),
    by: t.field({
      type: [AnnotationRef],
      description: 'Statements where the person is the speaker.',
      extensions: { listSize: statementsPerArticle },
      resolve: (item) => item.by,
    }),
    events: t.field({
      type: [EventRef],
      description: 'Events the article reports.',
      resolve: (item, _args, context) => context.loaders.eventsByArticle.load(item.article.reference),
    }),
  }),
});

const profileKeySchema = z.object({ lastName: z.string(), firstName: z.string(), reference: z.uuid() });
const profileArticleKeySchema = z.object({ publishedAt: z.iso.datetime(), articleReference: z.uuid() });

builder.node(ProfileRef, {
  description: 'A person who works at or owns organisations. Needs a plan covering `people`.',
  authScopes: { covers: 'people' },
  id: { resolve: (profile) => profile.reference },
  loadOne: (reference, context) => context.loaders.profileByReference.load(reference),
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: "The person's reference (UUID)." }),
    fullName: t.exposeString('fullName', {
      description: 'The full name, as `GET /v1/profiles` returns it in `name`.',
    }),
    firstName: t.exposeString('firstName', {
      description: 'The first name, the second key of the profile list order.',
    }),
    lastName: t.exposeString('lastName', {
      description: 'The surname, the first key of the profile list order.',
    }),
    linkedinUrl: t.expose('linkedinUrl', {
      type: 'URL',
      nullable: true,
      description: 'The LinkedIn profile address, when known.',
    }),
    confidenceScore: t.exposeFloat('confidenceScore', {
      nullable: true,
      description: 'Match confidence, 0 to 1.',
    }),
    currentRole: t.field({
      type: ExperienceRef,
      nullable: true,
      description:
        'The role with no end date (the most recently started if several, an unknown start counting as oldest); null when the person has none.',
      resolve: async (profile, _args, context) =>
        pickCurrentRole(await context.loaders.experiencesByProfile.load(profile.reference)),
    }),
    experiences: t.field({
      type: [ExperienceRef],
      extensions: { listSize: 10 },
      description:
        'Work history: current roles first, then by start date, newest first (unknown start dates last).',
      resolve: (profile: PlannedProfile, _args, context) =>
        profile[plannedExperiences] ?? context.loaders.experiencesByProfile.load(profile.reference),
    }),
    emails: t.field({
      type: [ProfileEmailRef],
      description: 'Email addresses, the most confident first.',
      resolve: (profile, _args, context) => context.loaders.emailsByProfile.load(profile.reference),
    }),
    articles: t.connection(
      {
        type: ProfileArticleRef,
        // Nullable so that a plan without articles loses this field only, not the whole profile.
        nullable: true,
        authScopes: { covers: 'articles' },
        description:
          'Articles in which the person is the subject or the speaker of a statement, newest first (then by article reference, descending). Filters and folding apply before paging; `totalCount` counts what is left.',
        args: {
          type: t.arg({
            type: AnnotationTypeEnum,
            description: 'Only statements of this type, and only articles that have one.',
          }),
          role: t.arg({
            type: AnnotationRoleEnum,
            description: 'Only this side (the other list left empty), and only articles that have one.',
          }),
          collapse: t.arg({
            type: CollapseEnum,
            required: true,
            defaultValue: 'latest',
            description: 'How repeated yearly statements are treated; `LATEST` by default.',
          }),
        },
        resolve: async (profile: PlannedProfile, args, context) => {
          const options = profileArticleOptions(args);
          let total: Total = { value: 0, isEstimate: false };
          const connection = await resolveKeysetConnection<ProfileArticle, ProfileArticleKey>(
            args,
            { schema: profileArticleKeySchema, of: (item) => item.key },
            async (window) => {
              const planned = profile[plannedArticles];
              const page =
                planned && planned.key === profileArticlesKey(options, window)
                  ? planned.page
                  : await context.loaders.profileArticles.load({
                      reference: profile.reference,
                      args: { options, window },
                    });
              total = page.total;
              return page.items;
            },
          );
          return { ...connection, totalCount: async () => total };
        },
      },
      { name: 'ProfileArticleConnection' },
      { name: 'ProfileArticleEdge' },
    ),
  }),
});

builder.queryField('profile', (t) =>
  t.field({
    type: ProfileRef,
    nullable: true,
    description: 'One person by reference; null when none has it.',
    authScopes: { covers: 'people' },
    args: { reference: t.arg({ type: 'UUID', required: true, description: 'The person’s reference.' }) },
    resolve: (_root, args, context) => context.loaders.profileByReference.load(args.reference),
  }),
);

builder.queryField('profiles', (t) =>
  t.connection(
    {
      type: ProfileRef,
      nullable: true,
      description:
        'People sorted by surname, then first name, then reference; the same order as `GET /v1/profiles`.',
      authScopes: { covers: 'people' },
      args: { filter: t.arg({ type: ProfileFilter, description: 'Without it, every person.' }) },
      resolve: async (_root, args, context, info) => {
        const filter = {
          ...(args.filter?.search ? { search: args.filter.search } : {}),
          ...(args.filter?.organisationReference
            ? { organisationReference: args.filter.organisationReference }
            : {}),
          ...(args.filter?.profileType ? { profileType: args.filter.profileType as ProfileType } : {}),
        };
        const connection = await resolveKeysetConnection<
          Awaited<ReturnType<typeof findProfiles>>[number],
          ProfileSortKey
        >(args, { schema: profileKeySchema, of: profileSortKey }, (window) =>
          findProfiles(context.db, filter, window),
        );
        const plan = profileConnectionPlan(info);
        if (plan) {
          await loadProfilePlan(
            context.db,
            connection.edges.map((edge) => edge.node),
            plan,
          );
        }
        return {
          ...connection,
          totalCount: () => countProfiles(context.db, filter, context.config.countTimeoutMs),
        };
      },
    },
    { name: 'ProfileConnection' },
    { name: 'ProfileEdge' },
  ),
);
