import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/test-app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await openTestApp();
});
afterAll(() => app.close());

describe('errors about the request', () => {
  it('keep their message when a variable cannot be coerced', async () => {
    const { status, body } = await app.graphql('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: [null],
    });
    // A request error answers 200 to an `application/json` client (GraphQL over HTTP); 400 is for
    // `application/graphql-response+json` clients (test/graphql/client-errors.test.ts).
    expect(status).toBe(200);
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(body.errors?.[0]?.message).toBe(
      'Variable "$ids" got invalid value null at "ids[0]"; Expected non-nullable type "ID!" not to be null.',
    );
    expect(body.errors?.[0]?.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
  });

  it('keep their code and path when the domain refuses an argument', async () => {
    const { body } = await app.graphql('{ organisation(reference: "not-a-uuid") { name } }');
    expect(body.errors?.[0]?.message).toMatch(/UUID/);
    expect(body.errors?.[0]?.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
  });
});

describe('global IDs', () => {
  const encode = (text: string) => Buffer.from(text).toString('base64');
  it.each([
    ['a reference that is not a UUID', encode('Organisation:nope')],
    ['an interface name', encode('Event:7b0c3a5e-9d1f-4b7e-8a59-2f7f1c3d9e10')],
    ['an unknown type', encode('Foo:7b0c3a5e-9d1f-4b7e-8a59-2f7f1c3d9e10')],
    ['no type at all', '!!!'],
  ])('refuses %s as INVALID_PARAMETER', async (_case, id) => {
    const { body } = await app.graphql('query ($id: ID!) { node(id: $id) { id } }', { id });
    expect(body.errors?.[0]?.message).toBe(
      `"${id}" is not an orgraph global ID; read IDs from \`id\` fields.`,
    );
    expect(body.errors?.[0]?.extensions?.code).toBe('INVALID_PARAMETER');
  });

  it('answers null for a well-formed ID that matches no record', async () => {
    const id = encode('Organisation:7b0c3a5e-9d1f-4b7e-8a59-2f7f1c3d9e10');
    const { body } = await app.graphql('query ($id: ID!) { node(id: $id) { id } }', { id });
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ node: null });
  });
});
