-- Suggestions rank a name equal to the text first, then names starting with it, then the others containing it, each
-- in byte order of the lower-cased name. In that order, one range of this index holds the names starting with the
-- text, and a walk from its start finds a common fragment's other names after a few hundred entries: a page of
-- suggestions reads that many rather than every match (bench/NOTES.md 48).
-- Built under a limit of its own rather than the request pool's statement timeout.
SET LOCAL statement_timeout = '60min';--> statement-breakpoint
CREATE INDEX "organisation_names_label_order" ON "organisation_names" USING btree
  ("name_lower" COLLATE "C", "name" COLLATE "C", "reference");
