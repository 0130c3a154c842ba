import { z } from '@hono/zod-openapi';
import { referenceExamples } from './demo-examples.ts';

/**
 * A record's reference as a path or query parameter: any UUID, else 422 naming the parameter. Its example is a
 * record of the demo dataset.
 */
export function referenceParam(name: string, description: string, location: 'path' | 'query' = 'path') {
  return z.guid({ error: 'must be a UUID' }).openapi({
    param: { name, in: location },
    description,
    maxLength: 36,
    ...(referenceExamples[name] ? { example: referenceExamples[name] } : {}),
  });
}
