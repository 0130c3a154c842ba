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
    expect(status).toBe(400);
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
