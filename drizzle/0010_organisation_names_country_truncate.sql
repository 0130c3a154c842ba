-- Truncating organisation_addresses fires no row or transition-table trigger: the countries it held on
-- organisation_names are cleared by a truncate trigger of their own, so no writer can leave the mirror stale.
CREATE OR REPLACE FUNCTION "orgraph_organisation_names_country_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "organisation_names" SET "country" = NULL WHERE "country" IS NOT NULL;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER "organisation_addresses_clear_country_on_truncate" AFTER TRUNCATE ON "organisation_addresses"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_names_country_truncate"();
