import { type GraphQLNamedType, isAbstractType, isNonNullType, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';
import { openTestApp, type PlanName, type TestApp } from '../support/test-app.ts';

let app: TestApp;
const refs = { organisation: '', profile: '', move: '', article: '' };

interface Listed {
  reference: string;
  data?: { articles?: { reference: string }[]; organisation?: { reference: string } };
}

beforeAll(async () => {
  app = await openTestApp();
  const list = async (path: string) => (await app.getJson<{ success: Listed[] }>(path)).body.success;
  refs.profile = (await list('/v1/profiles?limit=1'))[0]!.reference;
  const move = (await list('/v1/events?eventType=move&limit=200')).find(
    (event) => (event.data?.articles?.length ?? 0) > 0,
  );
  if (!move) throw new Error('no move event with articles in the first 200 moves of the dataset');
  refs.move = move.reference;
  // The move's organisation has at least that event.
  refs.organisation = move.data!.organisation!.reference;
  refs.article = move.data!.articles![0]!.reference;
});
afterAll(async () => {
  await app.services.quotas?.close();
  await app.close();
});

/** One field of each data area, reached from a root field of another area where the graph allows it. */
const coverageQuery = `query Coverage($organisation: UUID!, $profile: UUID!, $move: UUID!, $article: UUID!) {
  organisation(reference: $organisation) {
    name
    owners { relationshipType }
    events(first: 1) { edges { node { reference } } }
    articles(first: 1) { edges { node { title } } }
  }
  profile(reference: $profile) {
    fullName
    stakes { ownershipType }
    articles(first: 1) { edges { node { article { title } } } }
  }
  move: event(reference: $move) {
    reference
    ... on MoveEvent { organisation { name } articles { reference } }
  }
  article(reference: $article) { title }
  suggestions(query: "a", first: 1) { edges { node { label } } }
}`;

const refusedPaths: Record<PlanName, string[]> = {
  starter: [
    'article',
    'move',
    'organisation.articles',
    'organisation.events',
    'organisation.owners',
    'profile.articles',
    'profile.stakes',
  ],
  professional: ['article', 'move.articles', 'organisation.articles', 'profile.articles'],
  enterprise: [],
};

describe('graph coverage by plan', () => {
  it.each(['starter', 'professional', 'enterprise'] as const)(
    'refuses exactly the fields %s does not cover, with FORBIDDEN, and answers the rest',
    async (plan) => {
      const { status, body } = await app.graphql<Record<string, Record<string, unknown> | null>>(
        coverageQuery,
        refs,
        app.tokens[plan],
      );
      expect(status).toBe(200);
      const errors = body.errors ?? [];
      expect(errors.map((error) => error.extensions?.code)).toEqual(errors.map(() => 'FORBIDDEN'));
      expect(errors.map((error) => error.path?.join('.')).sort()).toEqual(refusedPaths[plan]);
      for (const error of errors)
        expect(error.message).toMatch(new RegExp(`^Your plan \\(${plan}\\) does not cover `));

      const data = body.data!;
      // Always answered: organisations, people and suggestions are in every plan.
      expect(data.organisation?.name).toEqual(expect.any(String));
      expect(data.profile?.fullName).toEqual(expect.any(String));
      expect(data.suggestions).toEqual({ edges: [{ node: { label: expect.any(String) } }] });
      for (const path of refusedPaths[plan]) {
        const [head, tail] = path.split('.') as [string, string | undefined];
        expect(tail ? data[head]?.[tail] : data[head], path).toBeNull();
      }
      if (plan !== 'starter') {
        expect(Array.isArray(data.organisation?.owners)).toBe(true);
        expect(data.organisation?.events).toEqual({ edges: [{ node: { reference: expect.any(String) } }] });
        expect(data.move).toMatchObject({ reference: refs.move, organisation: { name: expect.any(String) } });
      }
      if (plan === 'enterprise') {
        expect(data.article).toEqual({ title: expect.any(String) });
        expect(data.move?.articles).toContainEqual({ reference: refs.article });
      }
    },
  );
});

describe('graph schema', () => {
  it('makes every field a plan can refuse nullable, so that refusing it keeps the rest of the answer', () => {
    // A subscription has one root field and no rest to keep: its refusal ends the stream with FORBIDDEN.
    const subscriptionRoot = schema.getSubscriptionType();
    const plans = [...app.services.plans.values()];
    const gateOf = (extensions: unknown): string | undefined =>
      (extensions as { pothosOptions?: { authScopes?: { covers?: string } } } | undefined)?.pothosOptions
        ?.authScopes?.covers;
    const problems: string[] = [];
    for (const type of Object.values(schema.getTypeMap()) as GraphQLNamedType[]) {
      if (!isObjectType(type) || type.name.startsWith('__') || isAbstractType(type)) continue;
      if (type === subscriptionRoot) continue;
      for (const field of Object.values(type.getFields())) {
        const area = gateOf(field.extensions);
        const refusedBy = plans.filter((plan) => area && !plan.covers.includes(area as never));
        if (refusedBy.length > 0 && isNonNullType(field.type)) {
          problems.push(`${type.name}.${field.name}: ${String(field.type)} (covers ${area})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
