DROP INDEX "organisation_names_trgm";--> statement-breakpoint
ALTER TABLE "organisation_names" ADD COLUMN "name_key" text GENERATED ALWAYS AS (regexp_replace(lower("name"), '[^[:alnum:]]', '0', 'g')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "organisation_names_key_trgm" ON "organisation_names" USING gin ("name_key" gin_trgm_ops);--> statement-breakpoint
ANALYZE "organisation_names";