-- The digest of the line a record was last imported from or confirmed by (md5 of the line's text, with the type
-- its file's name gives), beside the digest of its canonical document. A re-import looks up each chunk of lines
-- by these before parsing them: a line the store knows is the same record, unchanged, and is staged without
-- JSON parsing, validation or the canonical form. It sits in the record's row, so the triggers of 0017 that
-- forget a record's digest on any other write forget its line's digest with it.
ALTER TABLE "record_digests" ADD COLUMN "line_digest" uuid;--> statement-breakpoint
CREATE INDEX "record_digests_line_digest" ON "record_digests" ("line_digest");
