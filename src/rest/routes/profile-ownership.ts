import { createRoute, z } from '@hono/zod-openapi';
import { getProfileStakes } from '../../domain/ownership/profile-stakes.ts';
import { covers } from '../../http/authenticate.ts';
import { commonErrorResponses, envelope, envelopeSchema } from '../envelope.ts';
import { referenceParam } from '../params.ts';
import type { RestApp } from '../router.ts';
import { profileOwnershipItemSchema, serializeProfileOwnershipItem } from '../serializers/ownership.ts';

const profileOwnershipRoute = createRoute({
  method: 'get',
  path: '/v1/profiles/{profileReference}/ownership',
  operationId: 'listProfileOwnership',
  tags: ['Ownership'],
  summary: "List a profile's ownership",
  description:
    'Every stake the person holds or held, active first, then the latest start first; not paginated. ' +
    'No recorded stakes, or an unknown reference, give an empty array (not 404).',
  middleware: [covers('ownership')] as const,
  request: {
    params: z.object({
      profileReference: referenceParam('profileReference', "The person's reference."),
    }),
  },
  responses: {
    200: {
      description: "The person's stakes.",
      content: {
        'application/json': { schema: envelopeSchema(z.array(profileOwnershipItemSchema), z.null()) },
      },
    },
    ...commonErrorResponses,
  },
});

export function registerProfileOwnershipRoutes(app: RestApp): void {
  app.openapi(profileOwnershipRoute, async (c) => {
    const { profileReference } = c.req.valid('param');
    const stakes = await getProfileStakes(c.var.ctx.db, profileReference);
    return c.json(envelope(c, stakes.map(serializeProfileOwnershipItem), null), 200);
  });
}
