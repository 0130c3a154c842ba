import { createRoute, z } from '@hono/zod-openapi';
import { profileTypes } from '../../domain/profiles/find-profiles.ts';
import {
  annotationRoles,
  collapseModes,
  getProfileArticlesPage,
} from '../../domain/profiles/profile-articles.ts';
import { findProfilesPage, getProfileRecord } from '../../domain/profiles/profile-record.ts';
import { annotationTypes } from '../../domain/vocabulary/articles.ts';
import { covers } from '../../http/authenticate.ts';
import { commonErrorResponses, envelope, envelopeSchema, notFoundResponse } from '../envelope.ts';
import { listResponse } from '../list-response.ts';
import { maxLimit, pageMetaSchema, pagingQuery } from '../paging.ts';
import { referenceParam } from '../params.ts';
import type { RestApp } from '../router.ts';
import { profileArticleItemSchema, serializeProfileArticleItem } from '../serializers/articles.ts';
import {
  profileListRowSchema,
  profileSchema,
  serializeProfile,
  serializeProfileListRow,
} from '../serializers/profiles.ts';

const profileReferenceParam = z.object({
  profileReference: referenceParam('profileReference', "The person's reference."),
});

const listProfilesRoute = createRoute({
  method: 'get',
  path: '/v1/profiles',
  operationId: 'listProfiles',
  tags: ['Profiles'],
  summary: 'List profiles',
  description: 'People sorted by surname, then first name (then reference, so that pages never overlap).',
  middleware: [covers('people')] as const,
  request: {
    query: z.object({
      search: z.string().max(200, { error: 'must be at most 200 characters long' }).optional().openapi({
        description: "Case-insensitive substring of the person's full name, taken literally; no NUL.",
        pattern: '^[^\\x00]*$',
      }),
      organisationReference: referenceParam(
        'organisationReference',
        'People with any role, current or past, at this organisation.',
        'query',
      ).optional(),
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
  operationId: 'getProfile',
  tags: ['Profiles'],
  summary: 'Get a profile',
  description: 'One person with their current role, work history, email addresses and links.',
  middleware: [covers('people')] as const,
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
  operationId: 'listProfileArticles',
  tags: ['Profiles', 'Articles'],
  summary: "List a profile's articles",
  description:
    'Articles in which the person is the subject or the speaker of a statement, newest first (then by reference, descending). ' +
    'Filters and folding apply before paging, so `total` counts the articles left after them.',
  middleware: [covers('articles')] as const,
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
    const { search, organisationReference, profileType, ...paging } = c.req.valid('query');
    const filter = { search, organisationReference, profileType };
    return listResponse(
      c,
      paging,
      (window) => findProfilesPage(db, loaders, filter, window, config.countTimeoutMs),
      serializeProfileListRow,
      { countLimited: true },
    );
  });

  app.openapi(getProfileRoute, async (c) => {
    const { db, loaders } = c.var.ctx;
    const record = await getProfileRecord(db, loaders, c.req.valid('param').profileReference);
    return c.json(envelope(c, serializeProfile(record), null), 200);
  });

  app.openapi(listProfileArticlesRoute, async (c) => {
    const { db, loaders } = c.var.ctx;
    const { profileReference } = c.req.valid('param');
    const { type, role, collapse, ...paging } = c.req.valid('query');
    return listResponse(
      c,
      paging,
      (window) => getProfileArticlesPage(db, loaders, profileReference, { type, role, collapse }, window),
      serializeProfileArticleItem,
    );
  });
}
