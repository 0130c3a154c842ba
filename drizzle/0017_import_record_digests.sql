-- A digest per imported record: md5 of the canonical document the import compared it with or stored. A re-import
-- compares a record's digest instead of building the stored document in SQL (the cost of an unchanged re-import),
-- and builds the document only where no digest is kept. Any other write to a record's rows forgets its digest: a
-- row-level trigger on every table a document is built from. Inserts and updates skip it while the import itself
-- writes the records whose digests it then stores (orgraph.keep_digests, set for its upserts only); a delete always
-- forgets, as the import's deletes cascade to records of other types. A truncate forgets every digest of the type.
CREATE TABLE "record_digests" (
	"type" text NOT NULL,
	"reference" uuid NOT NULL,
	"digest" uuid NOT NULL,
	CONSTRAINT "record_digests_key" PRIMARY KEY("type","reference")
);
--> statement-breakpoint
-- TG_ARGV: the record type, and the column of the row that holds the record's reference.
CREATE OR REPLACE FUNCTION "orgraph_forget_record_digest"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM "record_digests" WHERE "type" = TG_ARGV[0] AND "reference" = (to_jsonb(OLD) ->> TG_ARGV[1])::uuid;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    DELETE FROM "record_digests" WHERE "type" = TG_ARGV[0] AND "reference" = (to_jsonb(NEW) ->> TG_ARGV[1])::uuid;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_forget_record_digests"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "record_digests" WHERE "type" = TG_ARGV[0];
  RETURN NULL;
END
$$;--> statement-breakpoint
DO $$
DECLARE
  "t" record;
BEGIN
  FOR "t" IN SELECT * FROM (VALUES
    ('occupations', 'occupation', 'reference'),
    ('organisations', 'organisation', 'reference'),
    ('organisation_aliases', 'organisation', 'organisation_reference'),
    ('organisation_tickers', 'organisation', 'organisation_reference'),
    ('organisation_domains', 'organisation', 'organisation_reference'),
    ('organisation_phones', 'organisation', 'organisation_reference'),
    ('organisation_industries', 'organisation', 'organisation_reference'),
    ('organisation_addresses', 'organisation', 'organisation_reference'),
    ('organisation_scores', 'organisation', 'organisation_reference'),
    ('client_summaries', 'organisation', 'organisation_reference'),
    ('profiles', 'profile', 'reference'),
    ('profile_emails', 'profile', 'profile_reference'),
    ('experiences', 'experience', 'reference'),
    ('organisation_ownerships', 'organisation_ownership', 'reference'),
    ('profile_stakes', 'profile_stake', 'reference'),
    ('articles', 'article', 'reference'),
    ('annotations', 'article', 'article_reference'),
    ('article_organisations', 'article', 'article_reference'),
    ('events', 'event', 'reference'),
    ('event_participants', 'event', 'event_reference'),
    ('event_articles', 'event', 'event_reference')
  ) AS v("table_name", "record_type", "reference_column") LOOP
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE ON %I FOR EACH ROW '
      'WHEN (current_setting(''orgraph.keep_digests'', true) IS DISTINCT FROM ''on'') '
      'EXECUTE FUNCTION "orgraph_forget_record_digest"(%L, %L)',
      "t"."table_name" || '_forget_digest', "t"."table_name", "t"."record_type", "t"."reference_column");
    EXECUTE format(
      'CREATE TRIGGER %I AFTER DELETE ON %I FOR EACH ROW '
      'EXECUTE FUNCTION "orgraph_forget_record_digest"(%L, %L)',
      "t"."table_name" || '_forget_digest_on_delete', "t"."table_name", "t"."record_type", "t"."reference_column");
    EXECUTE format(
      'CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT '
      'EXECUTE FUNCTION "orgraph_forget_record_digests"(%L)',
      "t"."table_name" || '_forget_digests_on_truncate', "t"."table_name", "t"."record_type");
  END LOOP;
END
$$;
