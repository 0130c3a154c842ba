import { z } from '@hono/zod-openapi';

/** A record's reference as a path or query parameter: any UUID, else 422 naming the parameter. */
export function referenceParam(name: string, description: string, location: 'path' | 'query' = 'path') {
  return z.guid({ error: 'must be a UUID' }).openapi({
    param: { name, in: location },
    description,
    maxLength: 36,
    example: '3f0c2a9e-5b7d-4c1e-9a2b-6d8e0f1a2b3c',
  });
}
