-- A name search of middling frequency cost what the whole store costs: a walk of the name order passes about
-- `wanted` × organisations ÷ matches entries, the sort of the trigram candidates about `matches`, and where the two
-- cross each costs √organisations times a constant (bench/NOTES.md 52). `organisation_name_trigrams` keeps, for every
-- piece of three characters of a lower-cased name, the names containing it in the list's order: a search walks the
-- list of its rarest piece, where its matches are that piece's names less those missing the rest of the text, so it
-- passes about `wanted` × the piece's names ÷ matches entries, whatever the number of organisations (`wanted` for a
-- text of three characters). The fragments' `first_name`, where the walk of the name order started, goes with it.
CREATE TABLE "organisation_name_trigrams" (
  "trigram" text NOT NULL,
  "is_fund" boolean NOT NULL,
  "name" text NOT NULL,
  "reference" uuid NOT NULL,
  CONSTRAINT "organisation_name_trigrams_key" PRIMARY KEY ("trigram", "is_fund", "name", "reference")
);--> statement-breakpoint
-- The rows of `names`' distinct pieces of three characters, in the key's order.
CREATE OR REPLACE FUNCTION "orgraph_name_trigram_rows"("references" uuid[], "names" text[], "funds" boolean[])
  RETURNS TABLE ("trigram" text, "is_fund" boolean, "name" text, "reference" uuid)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT substr(lower(n."name"), s, 3), n."is_fund", n."name", n."reference"
    FROM unnest($1, $2, $3) AS n("reference", "name", "is_fund"),
      generate_series(1, char_length(lower(n."name")) - 2) AS s
    ORDER BY 1, 2, 3, 4
$$;--> statement-breakpoint
-- Only a change of name, fund flag or reference moves a name's rows: an update's old rows less the new and the new
-- less the old (most updates of organisation_names change activity or country and move nothing).
CREATE OR REPLACE FUNCTION "orgraph_organisation_name_trigrams_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "removed_reference" uuid[];
  "removed_name" text[];
  "removed_fund" boolean[];
  "added_reference" uuid[];
  "added_name" text[];
  "added_fund" boolean[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg("reference"), array_agg("name"), array_agg("is_fund")
      INTO "added_reference", "added_name", "added_fund" FROM "new_names";
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg("reference"), array_agg("name"), array_agg("is_fund")
      INTO "removed_reference", "removed_name", "removed_fund" FROM "old_names";
  ELSE
    SELECT array_agg(c."reference"), array_agg(c."name"), array_agg(c."is_fund")
      INTO "removed_reference", "removed_name", "removed_fund" FROM (
        SELECT "reference", "name", "is_fund" FROM "old_names"
        EXCEPT ALL SELECT "reference", "name", "is_fund" FROM "new_names") c;
    SELECT array_agg(c."reference"), array_agg(c."name"), array_agg(c."is_fund")
      INTO "added_reference", "added_name", "added_fund" FROM (
        SELECT "reference", "name", "is_fund" FROM "new_names"
        EXCEPT ALL SELECT "reference", "name", "is_fund" FROM "old_names") c;
  END IF;
  IF "removed_reference" IS NOT NULL THEN
    DELETE FROM "organisation_name_trigrams" t
      USING "orgraph_name_trigram_rows"("removed_reference", "removed_name", "removed_fund") r
      WHERE t."trigram" = r."trigram" AND t."is_fund" = r."is_fund" AND t."name" = r."name"
        AND t."reference" = r."reference";
  END IF;
  IF "added_reference" IS NOT NULL THEN
    INSERT INTO "organisation_name_trigrams"
      SELECT * FROM "orgraph_name_trigram_rows"("added_reference", "added_name", "added_fund");
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Every row again, for the seed and a first import, which load with the triggers off: written in the key's order,
-- so that the heap follows the index and a walk's visibility checks stay on few pages, and indexed once after.
CREATE OR REPLACE FUNCTION "orgraph_organisation_name_trigrams_rebuild"() RETURNS void LANGUAGE plpgsql
  SET "work_mem" = '128MB' AS $$
BEGIN
  TRUNCATE "organisation_name_trigrams";
  ALTER TABLE "organisation_name_trigrams" DROP CONSTRAINT "organisation_name_trigrams_key";
  INSERT INTO "organisation_name_trigrams"
    SELECT DISTINCT substr(n."name_lower", s, 3), n."is_fund", n."name", n."reference"
      FROM "organisation_names" n, generate_series(1, char_length(n."name_lower") - 2) AS s
      ORDER BY 1, 2, 3, 4;
  ALTER TABLE "organisation_name_trigrams" ADD CONSTRAINT "organisation_name_trigrams_key"
    PRIMARY KEY ("trigram", "is_fund", "name", "reference");
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_name_trigrams_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "organisation_name_trigrams";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "organisation_names_trigrams_on_insert" AFTER INSERT ON "organisation_names"
  REFERENCING NEW TABLE AS "new_names"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_name_trigrams_change"();--> statement-breakpoint
CREATE TRIGGER "organisation_names_trigrams_on_update" AFTER UPDATE ON "organisation_names"
  REFERENCING OLD TABLE AS "old_names" NEW TABLE AS "new_names"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_name_trigrams_change"();--> statement-breakpoint
CREATE TRIGGER "organisation_names_trigrams_on_delete" AFTER DELETE ON "organisation_names"
  REFERENCING OLD TABLE AS "old_names"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_name_trigrams_change"();--> statement-breakpoint
CREATE TRIGGER "organisation_names_trigrams_on_truncate" AFTER TRUNCATE ON "organisation_names"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_name_trigrams_truncate"();--> statement-breakpoint
-- The fragments no longer keep where a walk of the name order starts.
CREATE OR REPLACE FUNCTION "orgraph_organisation_name_fragments_apply"(
  "removed_name" text[], "removed_fund" boolean[], "added_name" text[], "added_fund" boolean[]
) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "organisation_name_fragments" AS f ("fragment", "is_fund", "organisations", "first_label")
    SELECT g."fragment", d."is_fund", sum(d."change"), min(d."first_label")
      FROM (
        SELECT r."name", r."is_fund", -1 AS "change", NULL::text COLLATE "C" AS "first_label"
          FROM unnest($1, $2) AS r("name", "is_fund")
        UNION ALL
        SELECT a."name", a."is_fund", 1, lower(a."name") COLLATE "C" FROM unnest($3, $4) AS a("name", "is_fund")
      ) d
      CROSS JOIN LATERAL "orgraph_name_fragments"(lower(d."name")) AS g("fragment")
      GROUP BY 1, 2
      ORDER BY 1, 2
  ON CONFLICT ("fragment", "is_fund") DO UPDATE
    SET "organisations" = f."organisations" + excluded."organisations",
      "first_label" = least(f."first_label", excluded."first_label")
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_name_fragments_rebuild"() RETURNS void LANGUAGE plpgsql
  SET "work_mem" = '128MB' AS $$
BEGIN
  TRUNCATE "organisation_name_fragments";
  INSERT INTO "organisation_name_fragments" ("fragment", "is_fund", "organisations", "first_label")
    SELECT g."fragment", n."is_fund", count(*), min(n."name_lower" COLLATE "C")
      FROM "organisation_names" n CROSS JOIN LATERAL "orgraph_name_fragments"(n."name_lower") AS g("fragment")
      GROUP BY 1, 2
      ORDER BY 1, 2;
END
$$;--> statement-breakpoint
ALTER TABLE "organisation_name_fragments" DROP COLUMN "first_name";--> statement-breakpoint
-- The names already there, under a limit of their own rather than the request pool's statement timeout.
SET LOCAL statement_timeout = '60min';--> statement-breakpoint
SELECT "orgraph_organisation_name_trigrams_rebuild"();--> statement-breakpoint
ANALYZE "organisation_name_trigrams";
