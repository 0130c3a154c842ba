CREATE TABLE "organisation_counts" (
	"has_activity" boolean NOT NULL,
	"is_fund" boolean NOT NULL,
	"status" "organisation_status" NOT NULL,
	"verified" boolean NOT NULL,
	"confidence" smallint NOT NULL,
	"organisations" bigint NOT NULL,
	CONSTRAINT "organisation_counts_key" PRIMARY KEY("has_activity","is_fund","status","verified","confidence")
);
--> statement-breakpoint
-- Adds the organisations of a statement's transition table(s) to their groups (with sign +1 or -1). One upsert per
-- group and statement, so a COPY chunk or a bulk update costs one statement; groups left at zero stay as rows. The
-- groups are written in key order, so concurrent writers lock them in the same order and cannot deadlock on them.
CREATE OR REPLACE FUNCTION "orgraph_organisation_counts_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "organisation_counts" AS c ("has_activity", "is_fund", "status", "verified", "confidence", "organisations")
    SELECT "has_activity", "is_fund", "status", "verified", "confidence", count(*) FROM "inserted_organisations" GROUP BY 1, 2, 3, 4, 5
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("has_activity", "is_fund", "status", "verified", "confidence")
      DO UPDATE SET "organisations" = c."organisations" + excluded."organisations";
  RETURN NULL;
END
$$;--> statement-breakpoint
-- An update takes its rows out of their old groups and adds them to their new ones; rows whose group did not change
-- cancel out. Each side is grouped on its own (no join of the two transition tables, which have no statistics: a
-- nested loop over them cost seconds for 10,000 rows).
CREATE OR REPLACE FUNCTION "orgraph_organisation_counts_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "organisation_counts" AS c ("has_activity", "is_fund", "status", "verified", "confidence", "organisations")
    SELECT "has_activity", "is_fund", "status", "verified", "confidence", sum("change") FROM (
      SELECT "has_activity", "is_fund", "status", "verified", "confidence", -1 AS "change" FROM "updated_organisations_before"
      UNION ALL
      SELECT "has_activity", "is_fund", "status", "verified", "confidence", 1 FROM "updated_organisations"
    ) AS "changes"
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum("change") <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("has_activity", "is_fund", "status", "verified", "confidence")
      DO UPDATE SET "organisations" = c."organisations" + excluded."organisations";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_counts_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "organisation_counts" AS c ("has_activity", "is_fund", "status", "verified", "confidence", "organisations")
    SELECT "has_activity", "is_fund", "status", "verified", "confidence", -count(*) FROM "deleted_organisations" GROUP BY 1, 2, 3, 4, 5
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("has_activity", "is_fund", "status", "verified", "confidence")
      DO UPDATE SET "organisations" = c."organisations" + excluded."organisations";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "organisation_counts";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "organisations_count_on_insert" AFTER INSERT ON "organisations"
  REFERENCING NEW TABLE AS "inserted_organisations"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_counts_insert"();--> statement-breakpoint
CREATE TRIGGER "organisations_count_on_update" AFTER UPDATE ON "organisations"
  REFERENCING OLD TABLE AS "updated_organisations_before" NEW TABLE AS "updated_organisations"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_counts_update"();--> statement-breakpoint
CREATE TRIGGER "organisations_count_on_delete" AFTER DELETE ON "organisations"
  REFERENCING OLD TABLE AS "deleted_organisations"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_counts_delete"();--> statement-breakpoint
CREATE TRIGGER "organisations_count_on_truncate" AFTER TRUNCATE ON "organisations"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_counts_truncate"();--> statement-breakpoint
-- The organisations already there (the triggers above hold a lock that keeps writers out until this commits); one
-- pass over the table, under a limit of its own rather than the request pool's statement timeout.
SET LOCAL statement_timeout = '30min';--> statement-breakpoint
INSERT INTO "organisation_counts" ("has_activity", "is_fund", "status", "verified", "confidence", "organisations")
  SELECT "has_activity", "is_fund", "status", "verified", "confidence", count(*) FROM "organisations" GROUP BY 1, 2, 3, 4, 5;
