-- Resolving a list of people reads, for a name no key, LinkedIn handle or e-mail found, the names next to it in key
-- order (src/domain/resolve/candidates.ts): a bounded read where a trigram search over every full name grew with the
-- table. A typo leaves a name next to its record only when it falls past the first words, so the key is indexed a
-- second time with the family name first: `blaek hansen` is near `hansen blake` in this order.
SET LOCAL statement_timeout = '60min';--> statement-breakpoint
CREATE INDEX "profiles_family_first_key" ON "profiles" USING btree (orgraph_person_key("last_name" || ' ' || "first_name"));--> statement-breakpoint
ANALYZE "profiles";
