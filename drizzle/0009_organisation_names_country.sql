ALTER TABLE "organisation_names" ADD COLUMN "country" text;--> statement-breakpoint
-- organisation_names.country mirrors the country of each organisation's company address (at most one: the key of
-- organisation_addresses is the organisation and the kind). A new organisation takes it from an address already
-- there; statement triggers on organisation_addresses set it again for every organisation whose company address a
-- statement inserts, updates (its country, kind or organisation) or deletes, from the table as the statement left it,
-- so a COPY chunk of the seed costs one statement.
CREATE OR REPLACE FUNCTION "orgraph_organisation_names_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "organisation_names" ("reference", "name", "status", "verified", "confidence", "is_fund", "has_activity", "country")
    SELECT o."reference", o."name", o."status", o."verified", o."confidence", o."is_fund", o."has_activity", a."country"
      FROM "inserted_organisations" o
      LEFT JOIN "organisation_addresses" a ON a."organisation_reference" = o."reference" AND a."kind" = 'company';
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_names_country_of"("changed" uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "organisation_names" n SET "country" = a."country"
    FROM (SELECT DISTINCT unnest("changed") AS "reference") c
    LEFT JOIN "organisation_addresses" a ON a."organisation_reference" = c."reference" AND a."kind" = 'company'
    WHERE n."reference" = c."reference" AND n."country" IS DISTINCT FROM a."country";
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_names_country_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "orgraph_organisation_names_country_of"(
    ARRAY(SELECT "organisation_reference" FROM "inserted_addresses" WHERE "kind" = 'company'));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_names_country_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "orgraph_organisation_names_country_of"(ARRAY(
    SELECT "organisation_reference" FROM "updated_addresses_before" WHERE "kind" = 'company'
    UNION
    SELECT "organisation_reference" FROM "updated_addresses" WHERE "kind" = 'company'));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_names_country_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "orgraph_organisation_names_country_of"(
    ARRAY(SELECT "organisation_reference" FROM "deleted_addresses" WHERE "kind" = 'company'));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "organisation_addresses_copy_country_on_insert" AFTER INSERT ON "organisation_addresses"
  REFERENCING NEW TABLE AS "inserted_addresses"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_names_country_insert"();--> statement-breakpoint
CREATE TRIGGER "organisation_addresses_copy_country_on_update" AFTER UPDATE ON "organisation_addresses"
  REFERENCING OLD TABLE AS "updated_addresses_before" NEW TABLE AS "updated_addresses"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_names_country_update"();--> statement-breakpoint
CREATE TRIGGER "organisation_addresses_copy_country_on_delete" AFTER DELETE ON "organisation_addresses"
  REFERENCING OLD TABLE AS "deleted_addresses"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_names_country_delete"();--> statement-breakpoint
-- The addresses already there (the triggers above hold a lock that keeps writers out until this commits).
UPDATE "organisation_names" n SET "country" = a."country"
  FROM "organisation_addresses" a
  WHERE a."organisation_reference" = n."reference" AND a."kind" = 'company' AND a."country" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "organisation_names_country" ON "organisation_names" USING btree ("country","status","has_activity","is_fund","confidence","verified","name","reference");--> statement-breakpoint
ANALYZE "organisation_names";
