import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { packageFile } from '../package-files.ts';

/** The kinds of data a plan can cover; every endpoint and graph field belongs to one. */
export const dataAreas = [
  'organisations',
  'people',
  'suggestions',
  'events',
  'searches',
  'ownership',
  'articles',
] as const;
export type DataArea = (typeof dataAreas)[number];

const planSchema = z.object({
  covers: z.array(z.enum(dataAreas)),
  rateLimit: z.object({ requests: z.number().int().positive(), windowSeconds: z.number().int().positive() }),
  graphqlCost: z.object({
    points: z.number().int().positive(),
    windowSeconds: z.number().int().positive(),
    maxPerQuery: z.number().int().positive(),
  }),
});

export type PlanSettings = z.infer<typeof planSchema>;
export interface Plan extends PlanSettings {
  name: string;
}

const catalogueSchema = z.record(z.string().regex(/^[a-z][a-z0-9_-]*$/), planSchema);

const defaultCatalogue = packageFile('src', 'auth', 'plans.default.json');

/** Loads the plan catalogue: the repository's default, or the JSON file named by PLANS_FILE. */
export function loadPlans(file?: string): ReadonlyMap<string, Plan> {
  const source = file ?? defaultCatalogue;
  const parsed = catalogueSchema.safeParse(JSON.parse(readFileSync(source, 'utf8')));
  if (!parsed.success) {
    throw new Error(`Invalid plan catalogue ${String(source)}: ${parsed.error.issues[0]?.message ?? ''}`);
  }
  return new Map(Object.entries(parsed.data).map(([name, settings]) => [name, { name, ...settings }]));
}
