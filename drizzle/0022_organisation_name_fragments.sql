-- A name search counted its matches by rechecking every trigram candidate, and sorted them all for its page: at two
-- million organisations a common fragment had ten times the matches of two hundred thousand, and took ten times as
-- long. `organisation_name_fragments` keeps, for every piece of three to six characters of a lower-cased name, how
-- many organisations (funds and others apart) have a name containing it, so the count of a name search of that
-- length is one row. Knowing the count also tells the page how to read: a fragment most names contain walks the name
-- index until the page is full, a rarer one sorts its few matches. `first_name` is at or before the first such name
-- in the list's order (lowered on insert, left on delete), where that walk starts.
CREATE TABLE "organisation_name_fragments" (
  "fragment" text NOT NULL,
  "is_fund" boolean NOT NULL,
  "organisations" bigint NOT NULL,
  "first_name" text,
  CONSTRAINT "organisation_name_fragments_key" PRIMARY KEY ("fragment", "is_fund")
);--> statement-breakpoint
-- Every distinct piece of three to six characters of `name_lower`.
CREATE OR REPLACE FUNCTION "orgraph_name_fragments"("name_lower" text) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT substr($1, "start", "length")
    FROM generate_series(3, 6) AS "length", generate_series(1, char_length($1) - "length" + 1) AS "start"
$$;--> statement-breakpoint
-- Takes the names in `removed` out of their fragments' counts and adds those in `added`, one upsert per fragment in
-- key order (concurrent writers lock the rows in the same order).
CREATE OR REPLACE FUNCTION "orgraph_organisation_name_fragments_apply"(
  "removed_name" text[], "removed_fund" boolean[], "added_name" text[], "added_fund" boolean[]
) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "organisation_name_fragments" AS f ("fragment", "is_fund", "organisations", "first_name")
    SELECT g."fragment", d."is_fund", sum(d."change"), min(d."first_name")
      FROM (
        SELECT r."name", r."is_fund", -1 AS "change", NULL::text AS "first_name"
          FROM unnest($1, $2) AS r("name", "is_fund")
        UNION ALL
        SELECT a."name", a."is_fund", 1, a."name" FROM unnest($3, $4) AS a("name", "is_fund")
      ) d
      CROSS JOIN LATERAL "orgraph_name_fragments"(lower(d."name")) AS g("fragment")
      GROUP BY 1, 2
      ORDER BY 1, 2
  ON CONFLICT ("fragment", "is_fund") DO UPDATE
    SET "organisations" = f."organisations" + excluded."organisations",
      "first_name" = least(f."first_name", excluded."first_name")
$$;--> statement-breakpoint
-- Only a change of name or fund flag moves the counts: an update's names are the old rows less the new ones and the
-- new less the old, as multisets: no join of the transition tables, which have no statistics (migration 0013). Most
-- updates of organisation_names change activity or country and leave both sides empty.
CREATE OR REPLACE FUNCTION "orgraph_organisation_name_fragments_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "removed_name" text[];
  "removed_fund" boolean[];
  "added_name" text[];
  "added_fund" boolean[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg("name"), array_agg("is_fund") INTO "added_name", "added_fund" FROM "new_names";
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg("name"), array_agg("is_fund") INTO "removed_name", "removed_fund" FROM "old_names";
  ELSE
    SELECT array_agg(c."name"), array_agg(c."is_fund") INTO "removed_name", "removed_fund" FROM (
      SELECT "name", "is_fund" FROM "old_names" EXCEPT ALL SELECT "name", "is_fund" FROM "new_names") c;
    SELECT array_agg(c."name"), array_agg(c."is_fund") INTO "added_name", "added_fund" FROM (
      SELECT "name", "is_fund" FROM "new_names" EXCEPT ALL SELECT "name", "is_fund" FROM "old_names") c;
  END IF;
  IF "removed_name" IS NOT NULL OR "added_name" IS NOT NULL THEN
    PERFORM "orgraph_organisation_name_fragments_apply"("removed_name", "removed_fund", "added_name", "added_fund");
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Every count again, for the seed and a first import, which load with the triggers off.
CREATE OR REPLACE FUNCTION "orgraph_organisation_name_fragments_rebuild"() RETURNS void LANGUAGE plpgsql
  SET "work_mem" = '128MB' AS $$
BEGIN
  TRUNCATE "organisation_name_fragments";
  INSERT INTO "organisation_name_fragments" ("fragment", "is_fund", "organisations", "first_name")
    SELECT g."fragment", n."is_fund", count(*), min(n."name")
      FROM "organisation_names" n CROSS JOIN LATERAL "orgraph_name_fragments"(n."name_lower") AS g("fragment")
      GROUP BY 1, 2
      ORDER BY 1, 2;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_name_fragments_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "organisation_name_fragments";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "organisation_names_fragments_on_insert" AFTER INSERT ON "organisation_names"
  REFERENCING NEW TABLE AS "new_names"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_name_fragments_change"();--> statement-breakpoint
CREATE TRIGGER "organisation_names_fragments_on_update" AFTER UPDATE ON "organisation_names"
  REFERENCING OLD TABLE AS "old_names" NEW TABLE AS "new_names"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_name_fragments_change"();--> statement-breakpoint
CREATE TRIGGER "organisation_names_fragments_on_delete" AFTER DELETE ON "organisation_names"
  REFERENCING OLD TABLE AS "old_names"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_name_fragments_change"();--> statement-breakpoint
CREATE TRIGGER "organisation_names_fragments_on_truncate" AFTER TRUNCATE ON "organisation_names"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_name_fragments_truncate"();--> statement-breakpoint
-- The organisations already there, under a limit of their own rather than the request pool's statement timeout.
SET LOCAL statement_timeout = '60min';--> statement-breakpoint
SELECT "orgraph_organisation_name_fragments_rebuild"();--> statement-breakpoint
ANALYZE "organisation_name_fragments";
