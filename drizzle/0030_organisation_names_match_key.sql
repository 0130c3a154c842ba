-- The trigram lookup of resolving (src/domain/resolve) rechecked and ranked its candidates by computing
-- `orgraph_organisation_key` on each one: a fund's name at scale 100 has thousands of candidates above the trigram
-- threshold, and the lookup took 0.8 s (bench/NOTES.md 67). The key is stored on the narrow mirror instead, where
-- the recheck reads it, and both of its indexes move there.
SET LOCAL statement_timeout = '60min';--> statement-breakpoint
DROP INDEX "organisations_match_key";--> statement-breakpoint
DROP INDEX "organisations_match_key_trgm";--> statement-breakpoint
ALTER TABLE "organisation_names" ADD COLUMN "match_key" text GENERATED ALWAYS AS (orgraph_organisation_key("name")) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "organisation_names_match_key" ON "organisation_names" USING btree ("match_key");--> statement-breakpoint
CREATE INDEX "organisation_names_match_key_trgm" ON "organisation_names" USING gin ("match_key" gin_trgm_ops);;--> statement-breakpoint
ANALYZE "organisation_names";
