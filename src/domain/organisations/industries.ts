import type { Industry } from '../../db/schema/reference.ts';
import { gicsTaxonomy } from '../../reference/gics.ts';
import { invalidParameter } from '../errors.ts';

/**
 * The GICS nodes, held in memory: the `industries` table is loaded from the same taxonomy at migration
 * and never changes, so lookups need no query.
 */
const industriesByCode: ReadonlyMap<string, Industry> = new Map(
  gicsTaxonomy.map((node) => [
    node.code,
    {
      code: node.code,
      name: node.name,
      level: node.level,
      parentCode: node.code.length > 2 ? node.code.slice(0, -2) : null,
    },
  ]),
);

/** Every code a filter accepts, parents before children: the OpenAPI document lists them. */
export const industryCodes: readonly string[] = gicsTaxonomy.map((node) => node.code);

export function findIndustry(code: string): Industry | null {
  return industriesByCode.get(code) ?? null;
}

/** The industry code of a filter, checked against the taxonomy (2, 4, 6 or 8 digits of a node that exists). */
export function resolveIndustryCode(input: string | number): string {
  const code = String(input).trim();
  if (!/^(?:\d{2}){1,4}$/.test(code)) {
    throw invalidParameter(
      `industry \`${input}\` is not a GICS code: give 2, 4, 6 or 8 digits, e.g. 45 or 45102010.`,
    );
  }
  if (!industriesByCode.has(code)) {
    throw invalidParameter(
      `industry \`${input}\` is no GICS sector, industry group, industry or sub-industry.`,
    );
  }
  return code;
}
