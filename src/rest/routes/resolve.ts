import { createRoute, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { resolveOrganisations, resolveProfiles } from '../../domain/resolve/index.ts';
import { maxResolveInputs } from '../../domain/resolve/types.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { covers } from '../../http/authenticate.ts';
import { answerForCode } from '../../http/errors.ts';
import { chargeInputs } from '../../http/limits/charge-inputs.ts';
import { limitBodySize } from '../../http/limits/limit-body-size.ts';
import { commonErrorResponses, envelope, envelopeSchema, errorContent } from '../envelope.ts';
import { errorResponse } from '../errors.ts';
import type { RestApp } from '../router.ts';
import {
  organisationInputSchema,
  profileInputSchema,
  readOrganisationWireInput,
  readProfileWireInput,
  resolveMeta,
  resolveMetaSchema,
  resolveOrganisationsBody,
  resolveProfilesBody,
  resolveRowSchema,
  serializeResolveRow,
} from '../serializers/resolve.ts';

/** A thousand rows of long names and URLs fit with room to spare. */
export const maxResolveBodyBytes = 1024 * 1024;

const requireJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  const mediaType = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return errorResponse(c, answerForCode('UNSUPPORTED_MEDIA_TYPE'), [
      `Send the list as JSON with the header Content-Type: application/json (got ${mediaType ? `\`${mediaType}\`` : 'none'}).`,
    ]);
  }
  await next();
};

const requireParsableJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  try {
    JSON.parse(await c.req.text());
  } catch {
    return errorResponse(c, answerForCode('BAD_REQUEST'), [
      'The request body is not valid JSON; send `{ "inputs": [ { "name": "…" }, … ] }`.',
    ]);
  }
  await next();
};

/**
 * A body the schema refuses is 422 with every field named by its path (`inputs.3.phone`): an unknown field with
 * the fields there are, too many inputs with the limit.
 */
function refuseBody(fields: readonly string[]) {
  return (result: { success: true } | { success: false; error: z.ZodError }, c: Context<AppEnv>) => {
    if (result.success) return;
    const messages = result.error.issues.flatMap((issue) => {
      const at = (key?: string) => [...issue.path, ...(key === undefined ? [] : [key])].join('.') || 'body';
      if (issue.code === 'unrecognized_keys') {
        const known = issue.path.length === 0 ? 'inputs, min_score, max_candidates' : fields.join(', ');
        return issue.keys.map((key) => `Unknown field \`${at(key)}\`: the fields are ${known}.`);
      }
      if (issue.code === 'too_big' && issue.path.join('.') === 'inputs')
        return [`Too many inputs: \`inputs\` has at most ${maxResolveInputs} rows a call; split the list.`];
      return [`Invalid field \`${at()}\`: ${issue.message}.`];
    });
    // The first few, so that a thousand bad rows do not make a thousand sentences.
    const shown =
      messages.length > 10 ? [...messages.slice(0, 10), `…and ${messages.length - 10} more.`] : messages;
    return errorResponse(c, answerForCode('INVALID_PARAMETER'), shown) as never;
  };
}

const rowsResponse = (what: string) => ({
  200: {
    description: `One row per input, in input order, none left out: the ${what} each could be, best first.`,
    content: {
      'application/json': { schema: envelopeSchema(z.array(resolveRowSchema), resolveMetaSchema) },
    },
  },
  400: errorContent('Malformed JSON.'),
  413: errorContent(`The body is larger than ${maxResolveBodyBytes / 1024} KiB.`),
  415: errorContent('The Content-Type is not application/json.'),
  ...commonErrorResponses,
  422: errorContent(
    `An unknown field, a field of the wrong type, no inputs or more than ${maxResolveInputs}, or an option out of range; each named by its path (\`inputs.3.phone\`).`,
  ),
});

const description = (what: string) =>
  `Matches a list to ${what} in one call. Each row comes back with a status (\`matched\`, \`ambiguous\` or \`none\` with a reason), ` +
  'its candidates with a score from 0 to 1 and `matched_on`: every input field with the value it was compared to and how. ' +
  `Up to ${maxResolveInputs} inputs; each counts as one request toward the plan's rate limit.`;

const resolveOrganisationsRoute = createRoute({
  method: 'post',
  path: '/v1/resolve/organisations',
  operationId: 'resolveOrganisations',
  tags: ['Resolve'],
  summary: 'Resolve a list of organisations',
  description: description('organisations by name, domain, website, ticker, country and city'),
  middleware: [
    covers('organisations'),
    requireJson,
    limitBodySize(maxResolveBodyBytes),
    requireParsableJson,
  ] as const,
  request: {
    body: { required: true, content: { 'application/json': { schema: resolveOrganisationsBody } } },
  },
  responses: rowsResponse('organisations'),
});

const resolveProfilesRoute = createRoute({
  method: 'post',
  path: '/v1/resolve/profiles',
  operationId: 'resolveProfiles',
  tags: ['Resolve'],
  summary: 'Resolve a list of people',
  description: description('people by name, LinkedIn URL, e-mail, organisation and title'),
  middleware: [
    covers('people'),
    requireJson,
    limitBodySize(maxResolveBodyBytes),
    requireParsableJson,
  ] as const,
  request: { body: { required: true, content: { 'application/json': { schema: resolveProfilesBody } } } },
  responses: rowsResponse('people'),
});

export function registerResolveRoutes(app: RestApp): void {
  app.openapi(
    resolveOrganisationsRoute,
    async (c) => {
      const body = c.req.valid('json');
      await chargeInputs(c, body.inputs.length);
      const rows = await resolveOrganisations(c.var.ctx.db, body.inputs.map(readOrganisationWireInput), {
        minScore: body.min_score,
        maxCandidates: body.max_candidates,
      });
      return c.json(envelope(c, rows.map(serializeResolveRow), resolveMeta(rows)), 200);
    },
    refuseBody(Object.keys(organisationInputSchema.shape)),
  );

  app.openapi(
    resolveProfilesRoute,
    async (c) => {
      const body = c.req.valid('json');
      await chargeInputs(c, body.inputs.length);
      const rows = await resolveProfiles(c.var.ctx.db, body.inputs.map(readProfileWireInput), {
        minScore: body.min_score,
        maxCandidates: body.max_candidates,
      });
      return c.json(envelope(c, rows.map(serializeResolveRow), resolveMeta(rows)), 200);
    },
    refuseBody(Object.keys(profileInputSchema.shape)),
  );
}
