import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedFiles, renderGraphqlTypes, renderOpenApiTypes } from '../../scripts/generate-client.ts';

// The generated files are committed so that the client works without a build step; these fail when a route's
// schema, the graph or an operation changed without `npm run client:generate`.
describe('generated client types', () => {
  it('src/client/openapi.gen.ts matches the OpenAPI document the router serves', async () => {
    const committed = readFileSync(generatedFiles.openapi, 'utf8');
    expect(committed === (await renderOpenApiTypes()), 'stale: run `npm run client:generate`').toBe(true);
  });

  it('src/client/graphql.gen.ts matches the schema and src/client/graphql/*.graphql', async () => {
    const committed = readFileSync(generatedFiles.graphql, 'utf8');
    expect(committed === (await renderGraphqlTypes()), 'stale: run `npm run client:generate`').toBe(true);
  });
});
