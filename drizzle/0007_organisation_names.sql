CREATE TABLE "organisation_names" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_lower" text GENERATED ALWAYS AS (lower("name")) STORED NOT NULL,
	"status" "organisation_status" NOT NULL,
	"verified" boolean NOT NULL,
	"confidence" smallint NOT NULL,
	"is_fund" boolean NOT NULL,
	"has_activity" boolean NOT NULL
);
--> statement-breakpoint
-- organisation_names mirrors the list's columns of every organisation. Each statement that inserts or updates
-- organisations copies them (set-wise, from its transition table, so a COPY of thousands of rows or the activity
-- refresh costs one statement, not one per row); a delete or a change of reference cascades through the foreign key.
CREATE OR REPLACE FUNCTION "orgraph_organisation_names_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "organisation_names" ("reference", "name", "status", "verified", "confidence", "is_fund", "has_activity")
    SELECT "reference", "name", "status", "verified", "confidence", "is_fund", "has_activity" FROM "inserted_organisations";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_names_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "organisation_names" n
    SET "name" = o."name", "status" = o."status", "verified" = o."verified", "confidence" = o."confidence",
        "is_fund" = o."is_fund", "has_activity" = o."has_activity"
    FROM "updated_organisations" o
    WHERE n."reference" = o."reference"
      AND (n."name", n."status", n."verified", n."confidence", n."is_fund", n."has_activity")
        IS DISTINCT FROM (o."name", o."status", o."verified", o."confidence", o."is_fund", o."has_activity");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "organisations_copy_names_on_insert" AFTER INSERT ON "organisations"
  REFERENCING NEW TABLE AS "inserted_organisations"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_names_insert"();--> statement-breakpoint
CREATE TRIGGER "organisations_copy_names_on_update" AFTER UPDATE ON "organisations"
  REFERENCING NEW TABLE AS "updated_organisations"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_names_update"();--> statement-breakpoint
-- The organisations already there (the triggers above hold a lock that keeps writers out until this commits).
INSERT INTO "organisation_names" ("reference", "name", "status", "verified", "confidence", "is_fund", "has_activity")
  SELECT "reference", "name", "status", "verified", "confidence", "is_fund", "has_activity" FROM "organisations";--> statement-breakpoint
-- Name substrings are matched on organisation_names now.
DROP INDEX "organisations_name_trgm";--> statement-breakpoint
ALTER TABLE "organisation_names" ADD CONSTRAINT "organisation_names_reference_organisations_reference_fk" FOREIGN KEY ("reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "organisation_names_trgm" ON "organisation_names" USING gin ("name_lower" gin_trgm_ops);--> statement-breakpoint
ANALYZE "organisation_names";
