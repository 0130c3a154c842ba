import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../src/db/database.ts';

/**
 * Rows where `organisation_name_fragments` differs from its definition, either way round: every piece of three to six
 * characters of a lower-cased name, with how many organisations of each kind have a name containing it. A sample of
 * a hundred fragments is also checked against the names themselves (`strpos`, not the pieces), with a `first_label`
 * at or before the first name containing it lower-cased, in byte order. And rows where `organisation_name_trigrams`
 * differs from every piece of three characters of a lower-cased name with its name, kind and reference. Empty when
 * both are exact.
 */
export async function nameFragmentDifferences(db: Database): Promise<unknown[]> {
  const counts = await queryRows(
    db,
    sql`with expected as materialized (
        select substr(lower(o.name), s.start, l.length) as fragment, o.is_fund,
          count(distinct o.reference)::bigint as organisations
        from organisations o
        cross join generate_series(3, 6) as l(length)
        cross join lateral generate_series(1, char_length(lower(o.name)) - l.length + 1) as s(start)
        group by 1, 2),
      kept as materialized (
        select fragment, is_fund, organisations from organisation_name_fragments where organisations <> 0)
      (select * from expected except select * from kept) union all (select * from kept except select * from expected)`,
  );
  const sampled = await queryRows(
    db,
    sql`select f.fragment, f.is_fund, f.organisations, f.first_label, m.organisations as containing,
        m.first_label as first_lowered
      from (select * from organisation_name_fragments where organisations <> 0 order by md5(fragment) limit 100) f
      cross join lateral (select count(*)::bigint as organisations, min(lower(o.name) collate "C") as first_label
        from organisations o where o.is_fund = f.is_fund and strpos(lower(o.name), f.fragment) > 0) m
      where m.organisations <> f.organisations or f.first_label is null or f.first_label > m.first_label`,
  );
  const trigrams = await queryRows(
    db,
    sql`with expected as materialized (
        select distinct substr(lower(o.name), s.start, 3) as trigram, o.is_fund, o.name, o.reference
        from organisations o cross join lateral generate_series(1, char_length(lower(o.name)) - 2) as s(start)),
      kept as materialized (select trigram, is_fund, name, reference from organisation_name_trigrams)
      (select 'missing' as difference, * from (select * from expected except select * from kept) as m)
      union all (select 'extra', * from (select * from kept except select * from expected) as e)`,
  );
  return [...counts, ...sampled, ...trigrams];
}
