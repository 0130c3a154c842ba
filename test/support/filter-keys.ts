import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../src/db/database.ts';

/**
 * Rows where `organisation_filter_keys` differs from its definition (an organisation's company country and every
 * GICS node of its industries, and the node '' for any industry, with its list columns), either way round, and (country, node) groups whose count in
 * `organisation_filter_counts` differs from the keys: empty when both are exact.
 */
export async function filterKeyDifferences(db: Database): Promise<unknown[]> {
  const expected = sql`select * from (select distinct o.reference, left(i.industry_code, d.digits) as node, a.country, o.name,
      o.has_activity, o.is_fund, o.status, o.verified, o.confidence
    from organisations o
    join organisation_addresses a on a.organisation_reference = o.reference and a.kind = 'company'
    join organisation_industries i on i.organisation_reference = o.reference
    cross join (values (2), (4), (6), (8)) as d(digits)
    where a.country is not null and length(i.industry_code) >= d.digits
    union all
    select o.reference, '', a.country, o.name, o.has_activity, o.is_fund, o.status, o.verified, o.confidence
    from organisations o
    join organisation_addresses a on a.organisation_reference = o.reference and a.kind = 'company'
    where a.country is not null) as expected`;
  const keys = sql`select reference, node, country, name, has_activity, is_fund, status, verified, confidence
    from organisation_filter_keys`;
  const counted = sql`select country, node, has_activity, is_fund, status, verified, confidence, count(*)::bigint as n
    from organisation_filter_keys group by 1, 2, 3, 4, 5, 6, 7`;
  const kept = sql`select country, node, has_activity, is_fund, status, verified, confidence, organisations as n
    from organisation_filter_counts where organisations <> 0`;
  const keyRows = await queryRows(
    db,
    sql`(${expected} except ${keys}) union all (${keys} except ${expected})`,
  );
  const countRows = await queryRows(
    db,
    sql`(${counted} except ${kept}) union all (${kept} except ${counted})`,
  );
  return [...keyRows, ...countRows];
}
