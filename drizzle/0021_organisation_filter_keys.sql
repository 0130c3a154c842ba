-- A list filtered on country and industry read every organisation of the country and every organisation of the
-- industry to meet them by reference, then sorted the matches and counted them: at two million organisations the
-- ranges were ten times longer than at two hundred thousand, and so was the time. `organisation_filter_keys` holds
-- one row per organisation and GICS node its industries fall under (each code's sector, group, industry and
-- sub-industry), and one with the node '' (any industry, for a country alone), with the company country and the
-- list's columns. One range of its index is the country and node, in name order: a page walks it until the page is
-- full. `organisation_filter_counts` keeps how many organisations each (country, node) has per combination of the
-- other columns, so the count sums a few hundred rows. Organisations without a company country have no rows: a
-- country filter never matches them.
CREATE TABLE "organisation_filter_keys" (
  "reference" uuid NOT NULL,
  "node" text NOT NULL,
  "country" text NOT NULL,
  "name" text NOT NULL,
  "has_activity" boolean NOT NULL,
  "is_fund" boolean NOT NULL,
  "status" "organisation_status" NOT NULL,
  "verified" boolean NOT NULL,
  "confidence" smallint NOT NULL,
  CONSTRAINT "organisation_filter_keys_key" PRIMARY KEY ("reference", "node")
);--> statement-breakpoint
CREATE TABLE "organisation_filter_counts" (
  "country" text NOT NULL,
  "node" text NOT NULL,
  "has_activity" boolean NOT NULL,
  "is_fund" boolean NOT NULL,
  "status" "organisation_status" NOT NULL,
  "verified" boolean NOT NULL,
  "confidence" smallint NOT NULL,
  "organisations" bigint NOT NULL,
  CONSTRAINT "organisation_filter_counts_key" PRIMARY KEY ("country", "node", "has_activity", "is_fund", "status", "verified", "confidence")
);--> statement-breakpoint
-- The rows of the organisations in `changed`, from organisation_names and organisation_industries as they stand.
CREATE OR REPLACE FUNCTION "orgraph_organisation_filter_keys_of"("changed" uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "organisation_filter_keys" k
    USING (SELECT DISTINCT unnest("changed") AS "reference") c
    WHERE k."reference" = c."reference";
  INSERT INTO "organisation_filter_keys"
      ("reference", "node", "country", "name", "has_activity", "is_fund", "status", "verified", "confidence")
    SELECT DISTINCT n."reference", left(i."industry_code", l."digits"), n."country", n."name", n."has_activity",
        n."is_fund", n."status", n."verified", n."confidence"
      FROM (SELECT DISTINCT unnest("changed") AS "reference") c
      JOIN "organisation_names" n ON n."reference" = c."reference"
      JOIN "organisation_industries" i ON i."organisation_reference" = n."reference"
      CROSS JOIN (VALUES (2), (4), (6), (8)) AS l("digits")
      WHERE n."country" IS NOT NULL AND length(i."industry_code") >= l."digits"
    UNION ALL
    SELECT n."reference", '', n."country", n."name", n."has_activity", n."is_fund", n."status", n."verified",
        n."confidence"
      FROM (SELECT DISTINCT unnest("changed") AS "reference") c
      JOIN "organisation_names" n ON n."reference" = c."reference"
      WHERE n."country" IS NOT NULL;
END
$$;--> statement-breakpoint
-- Every row again, for the seed and a first import, which load with these triggers off. The counts are grouped
-- once from the new keys: their trigger's upsert per group took twice as long as the keys' insert. In reference
-- order, so that an organisation's keys share a page, which a later rewrite of them reads.
CREATE OR REPLACE FUNCTION "orgraph_organisation_filter_keys_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "organisation_filter_keys", "organisation_filter_counts";
  PERFORM set_config('orgraph.rebuilding_filter_keys', 'on', true);
  INSERT INTO "organisation_filter_keys"
      ("reference", "node", "country", "name", "has_activity", "is_fund", "status", "verified", "confidence")
    SELECT DISTINCT n."reference", left(i."industry_code", l."digits"), n."country", n."name", n."has_activity",
        n."is_fund", n."status", n."verified", n."confidence"
      FROM "organisation_names" n
      JOIN "organisation_industries" i ON i."organisation_reference" = n."reference"
      CROSS JOIN (VALUES (2), (4), (6), (8)) AS l("digits")
      WHERE n."country" IS NOT NULL AND length(i."industry_code") >= l."digits"
    UNION ALL
    SELECT n."reference", '', n."country", n."name", n."has_activity", n."is_fund", n."status", n."verified",
        n."confidence"
      FROM "organisation_names" n
      WHERE n."country" IS NOT NULL
    ORDER BY 1, 2;
  PERFORM set_config('orgraph.rebuilding_filter_keys', 'off', true);
  INSERT INTO "organisation_filter_counts"
      ("country", "node", "has_activity", "is_fund", "status", "verified", "confidence", "organisations")
    SELECT "country", "node", "has_activity", "is_fund", "status", "verified", "confidence", count(*)
      FROM "organisation_filter_keys" GROUP BY 1, 2, 3, 4, 5, 6, 7;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_filter_keys_names_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "orgraph_organisation_filter_keys_of"(ARRAY(SELECT "reference" FROM "changed_names"));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_filter_keys_industries_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM "orgraph_organisation_filter_keys_of"(ARRAY(
      SELECT "organisation_reference" FROM "changed_industries_before"
      UNION
      SELECT "organisation_reference" FROM "changed_industries"));
  ELSE
    PERFORM "orgraph_organisation_filter_keys_of"(ARRAY(SELECT "organisation_reference" FROM "changed_industries"));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_filter_keys_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "organisation_filter_keys", "organisation_filter_counts";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "organisation_names_filter_keys_on_insert" AFTER INSERT ON "organisation_names"
  REFERENCING NEW TABLE AS "changed_names"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_filter_keys_names_changed"();--> statement-breakpoint
CREATE TRIGGER "organisation_names_filter_keys_on_update" AFTER UPDATE ON "organisation_names"
  REFERENCING NEW TABLE AS "changed_names"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_filter_keys_names_changed"();--> statement-breakpoint
CREATE TRIGGER "organisation_names_filter_keys_on_delete" AFTER DELETE ON "organisation_names"
  REFERENCING OLD TABLE AS "changed_names"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_filter_keys_names_changed"();--> statement-breakpoint
CREATE TRIGGER "organisation_names_filter_keys_on_truncate" AFTER TRUNCATE ON "organisation_names"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_filter_keys_truncate"();--> statement-breakpoint
CREATE TRIGGER "organisation_industries_filter_keys_on_insert" AFTER INSERT ON "organisation_industries"
  REFERENCING NEW TABLE AS "changed_industries"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_filter_keys_industries_changed"();--> statement-breakpoint
CREATE TRIGGER "organisation_industries_filter_keys_on_update" AFTER UPDATE ON "organisation_industries"
  REFERENCING OLD TABLE AS "changed_industries_before" NEW TABLE AS "changed_industries"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_filter_keys_industries_changed"();--> statement-breakpoint
CREATE TRIGGER "organisation_industries_filter_keys_on_delete" AFTER DELETE ON "organisation_industries"
  REFERENCING OLD TABLE AS "changed_industries"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_filter_keys_industries_changed"();--> statement-breakpoint
CREATE TRIGGER "organisation_industries_filter_keys_on_truncate" AFTER TRUNCATE ON "organisation_industries"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_filter_keys_truncate"();--> statement-breakpoint
-- The counts follow the keys as organisation_counts follows organisations (migration 0013): one upsert per group
-- and statement, in key order.
CREATE OR REPLACE FUNCTION "orgraph_organisation_filter_counts_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('orgraph.rebuilding_filter_keys', true) = 'on' THEN
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO "organisation_filter_counts" AS c
        ("country", "node", "has_activity", "is_fund", "status", "verified", "confidence", "organisations")
      SELECT "country", "node", "has_activity", "is_fund", "status", "verified", "confidence", count(*)
        FROM "inserted_keys" GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT ("country", "node", "has_activity", "is_fund", "status", "verified", "confidence")
        DO UPDATE SET "organisations" = c."organisations" + excluded."organisations";
  ELSE
    INSERT INTO "organisation_filter_counts" AS c
        ("country", "node", "has_activity", "is_fund", "status", "verified", "confidence", "organisations")
      SELECT "country", "node", "has_activity", "is_fund", "status", "verified", "confidence", -count(*)
        FROM "deleted_keys" GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT ("country", "node", "has_activity", "is_fund", "status", "verified", "confidence")
        DO UPDATE SET "organisations" = c."organisations" + excluded."organisations";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "organisation_filter_keys_count_on_insert" AFTER INSERT ON "organisation_filter_keys"
  REFERENCING NEW TABLE AS "inserted_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_filter_counts_change"();--> statement-breakpoint
CREATE TRIGGER "organisation_filter_keys_count_on_delete" AFTER DELETE ON "organisation_filter_keys"
  REFERENCING OLD TABLE AS "deleted_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_filter_counts_change"();--> statement-breakpoint
-- The organisations already there, under a limit of their own rather than the request pool's statement timeout.
SET LOCAL statement_timeout = '60min';--> statement-breakpoint
SELECT "orgraph_organisation_filter_keys_rebuild"();--> statement-breakpoint
CREATE INDEX "organisation_filter_keys_walk" ON "organisation_filter_keys" USING btree ("country", "node", "name", "reference")
  INCLUDE ("has_activity", "is_fund", "status", "verified", "confidence");--> statement-breakpoint
ANALYZE "organisation_filter_keys";
