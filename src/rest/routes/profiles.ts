import { createRoute, z } from '@hono/zod-openapi';
import type { Loaders } from '../../domain/loaders.ts';
import { pickCurrentRole } from '../../domain/profiles/current-role.ts';
import { countProfiles, findProfiles, profileTypes } from '../../domain/profiles/find-profiles.ts';
import { getProfile } from '../../domain/profiles/get-profile.ts';
import {
  annotationRoles,
  collapseModes,
  getProfileArticles,
} from '../../domain/profiles/profile-articles.ts';
import type { Experience } from '../../domain/records.ts';
import { annotationTypes } from '../../domain/vocabulary/articles.ts';
import { covers } from '../../http/authenticate.ts';
import { commonErrorResponses, envelope, envelopeSchema, notFoundResponse } from '../envelope.ts';
import { maxLimit, pageMeta, pageMetaSchema, pageWindow, pagingQuery, splitPage } from '../paging.ts';
import type { RestApp } from '../router.ts';
import { profileArticleItemSchema, serializeProfileArticleItem } from '../serializers/articles.ts';
import {
  type ExperienceView,
  profileListRowSchema,
  profileSchema,
  serializeProfile,
  serializeProfileListRow,
} from '../serializers/profiles.ts';

const profileReferenceParam = z.object({
  profileReference: z
    .uuid({ error: 'must be a UUID' })
    .openapi({ param: { name: 'profileReference', in: 'path' }, description: "The person's reference." }),
});

const listProfilesRoute = createRoute({
  method: 'get',
  path: '/v1/profiles',
  tags: ['Profiles'],
  summary: 'List profiles',
  description: 'People sorted by surname, then first name (then reference, so that pages never overlap).',
  middleware: [covers('people')] as const,
  security: [{ bearerAuth: [] }],
  request: {
    query: z.object({
      search: z
        .string()
        .optional()
        .openapi({ description: "Case-insensitive substring of the person's full name, taken literally." }),
      organisationReference: z
        .uuid({ error: 'must be a UUID' })
        .optional()
        .openapi({ description: 'People with any role, current or past, at this organisation.' }),
      profileType: z
        .enum(profileTypes, { error: `must be one of ${profileTypes.join(', ')}` })
        .optional()
        .openapi({
          description:
            '`business_owner`: holds an active stake; `investment_advisor` and `broker`: a registered adviser (the same set); `funding_participant` / `public_offering_participant`: took part in a funding round / public offering.',
        }),
      ...pagingQuery(maxLimit),
    }),
  },
  responses: {
    200: {
      description: 'A page of profiles.',
      content: {
        'application/json': { schema: envelopeSchema(z.array(profileListRowSchema), pageMetaSchema) },
      },
    },
    ...commonErrorResponses,
  },
});

const getProfileRoute = createRoute({
  method: 'get',
  path: '/v1/profiles/{profileReference}',
  tags: ['Profiles'],
  summary: 'Get a profile',
  description: 'One person with their current role, work history, email addresses and links.',
  middleware: [covers('people')] as const,
  security: [{ bearerAuth: [] }],
  request: { params: profileReferenceParam },
  responses: {
    200: {
      description: 'The profile.',
      content: { 'application/json': { schema: envelopeSchema(profileSchema, z.null()) } },
    },
    ...notFoundResponse,
    ...commonErrorResponses,
  },
});

const listProfileArticlesRoute = createRoute({
  method: 'get',
  path: '/v1/profiles/{profileReference}/articles',
  tags: ['Profiles', 'Articles'],
  summary: "List a profile's articles",
  description:
    'Articles in which the person is the subject or the speaker of a statement, newest first (then by reference, descending). ' +
    'Filters and folding apply before paging, so `total` counts the articles left after them.',
  middleware: [covers('articles')] as const,
  security: [{ bearerAuth: [] }],
  request: {
    params: profileReferenceParam,
    query: z.object({
      type: z
        .enum(annotationTypes, { error: `must be one of ${annotationTypes.join(', ')}` })
        .optional()
        .openapi({ description: 'Only statements of this type, and only articles that have one.' }),
      role: z
        .enum(annotationRoles, { error: `must be one of ${annotationRoles.join(', ')}` })
        .optional()
        .openapi({
          description:
            '`about` (the person is the subject) or `by` (the speaker): only that side, the other array left empty, and only articles that have one.',
        }),
      collapse: z
        .enum(collapseModes, { error: `must be one of ${collapseModes.join(', ')}` })
        .default('latest')
        .openapi({
          description:
            '`latest` folds statements repeated from the same organisation, type and speaker (the same side of the person) into the newest, which carries `history_count`; older ones are dropped, and so is an article left with none. `none` returns every statement.',
        }),
      ...pagingQuery(maxLimit),
    }),
  },
  responses: {
    200: {
      description: 'A page of profile-article items.',
      content: {
        'application/json': { schema: envelopeSchema(z.array(profileArticleItemSchema), pageMetaSchema) },
      },
    },
    ...notFoundResponse,
    ...commonErrorResponses,
  },
});

export function registerProfileRoutes(app: RestApp): void {
  app.openapi(listProfilesRoute, async (c) => {
    const { db, loaders, config } = c.var.ctx;
    const { search, organisationReference, profileType, page, limit } = c.req.valid('query');
    const filter = { search, organisationReference, profileType };
    const [found, total] = await Promise.all([
      findProfiles(db, filter, pageWindow(page, limit)),
      countProfiles(db, filter, config.countTimeoutMs),
    ]);
    const { rows, hasNext } = splitPage(found, limit);
    const histories = await loaders.experiencesByProfile.loadMany(rows.map((profile) => profile.reference));
    const roles = await Promise.all(
      histories.map((history) => viewOf(loaders, pickCurrentRole(unwrap(history)))),
    );
    const success = rows.map((profile, index) => serializeProfileListRow(profile, roles[index] ?? null));
    return c.json(envelope(c, success, pageMeta(c, { total, page, limit, hasNext })), 200);
  });

  app.openapi(getProfileRoute, async (c) => {
    const { db, loaders } = c.var.ctx;
    const { profileReference } = c.req.valid('param');
    const profile = await getProfile(db, profileReference);
    const [history, emails] = await Promise.all([
      loaders.experiencesByProfile.load(profileReference),
      loaders.emailsByProfile.load(profileReference),
    ]);
    const experiences = await Promise.all(history.map((experience) => viewOf(loaders, experience)));
    const current = pickCurrentRole(history);
    const currentRole = experiences.find((view) => view.experience === current) ?? null;
    return c.json(envelope(c, serializeProfile(profile, { experiences, currentRole, emails }), null), 200);
  });

  app.openapi(listProfileArticlesRoute, async (c) => {
    const { db, loaders } = c.var.ctx;
    const { profileReference } = c.req.valid('param');
    const { type, role, collapse, page, limit } = c.req.valid('query');
    const result = await getProfileArticles(
      db,
      profileReference,
      { type, role, collapse },
      pageWindow(page, limit),
    );
    const { rows: items, hasNext } = splitPage(result.items, limit);
    const events = await loaders.eventsByArticle.loadMany(items.map((item) => item.article.reference));
    const success = items.map((item, index) =>
      serializeProfileArticleItem(item, unwrap(events[index] ?? [])),
    );
    return c.json(envelope(c, success, pageMeta(c, { total: result.total, page, limit, hasNext })), 200);
  });
}

async function viewOf(loaders: Loaders, experience: Experience): Promise<ExperienceView>;
async function viewOf(loaders: Loaders, experience: Experience | null): Promise<ExperienceView | null>;
async function viewOf(loaders: Loaders, experience: Experience | null): Promise<ExperienceView | null> {
  if (!experience) return null;
  const [organisation, occupation] = await Promise.all([
    experience.organisationReference
      ? loaders.organisationByReference.load(experience.organisationReference)
      : null,
    experience.occupationReference
      ? loaders.occupationByReference.load(experience.occupationReference)
      : null,
  ]);
  return { experience, organisation, occupation };
}

/** `loadMany` reports a failed key as an Error in place; rethrow it so the error handler maps it. */
function unwrap<T>(value: T | Error): T {
  if (value instanceof Error) throw value;
  return value;
}
