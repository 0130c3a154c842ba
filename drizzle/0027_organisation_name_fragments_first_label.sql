-- Suggestions find the names that contain a common text elsewhere than at their start by walking
-- `organisation_names_label_order` until a page of them turns up. The walk started at the first label of all, so a
-- text whose names sort far along (at scale 1000 the first name containing ` inve` came after 10,252 others, most of
-- them its funds' names starting with a surname) passed its limit before the page was full and the sort of every
-- match answered after it. `first_label` is at or before the first lower-cased name containing the fragment in byte
-- order, the suggestions' order, as `first_name` is in the list's: lowered on insert, left on delete.
ALTER TABLE "organisation_name_fragments" ADD COLUMN "first_label" text COLLATE "C";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_name_fragments_apply"(
  "removed_name" text[], "removed_fund" boolean[], "added_name" text[], "added_fund" boolean[]
) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "organisation_name_fragments" AS f ("fragment", "is_fund", "organisations", "first_name", "first_label")
    SELECT g."fragment", d."is_fund", sum(d."change"), min(d."first_name"), min(d."first_label")
      FROM (
        SELECT r."name", r."is_fund", -1 AS "change", NULL::text AS "first_name", NULL::text COLLATE "C" AS "first_label"
          FROM unnest($1, $2) AS r("name", "is_fund")
        UNION ALL
        SELECT a."name", a."is_fund", 1, a."name", lower(a."name") COLLATE "C" FROM unnest($3, $4) AS a("name", "is_fund")
      ) d
      CROSS JOIN LATERAL "orgraph_name_fragments"(lower(d."name")) AS g("fragment")
      GROUP BY 1, 2
      ORDER BY 1, 2
  ON CONFLICT ("fragment", "is_fund") DO UPDATE
    SET "organisations" = f."organisations" + excluded."organisations",
      "first_name" = least(f."first_name", excluded."first_name"),
      "first_label" = least(f."first_label", excluded."first_label")
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_name_fragments_rebuild"() RETURNS void LANGUAGE plpgsql
  SET "work_mem" = '128MB' AS $$
BEGIN
  TRUNCATE "organisation_name_fragments";
  INSERT INTO "organisation_name_fragments" ("fragment", "is_fund", "organisations", "first_name", "first_label")
    SELECT g."fragment", n."is_fund", count(*), min(n."name"), min(n."name_lower" COLLATE "C")
      FROM "organisation_names" n CROSS JOIN LATERAL "orgraph_name_fragments"(n."name_lower") AS g("fragment")
      GROUP BY 1, 2
      ORDER BY 1, 2;
END
$$;--> statement-breakpoint
-- The fragments already kept, under a limit of their own rather than the request pool's statement timeout.
SET LOCAL statement_timeout = '60min';--> statement-breakpoint
SELECT "orgraph_organisation_name_fragments_rebuild"();--> statement-breakpoint
ANALYZE "organisation_name_fragments";
