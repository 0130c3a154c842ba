-- A change to an event's participants logs the event as updated (0014) unless the transaction logged it already:
-- an event added by an import's batch is in the feeds once, as added, although its participants are stored by a
-- later statement, and replacing the participants of a stored event (a delete, then an insert) logs it once. The
-- transaction's change rows are found by the primary key's transaction id.
CREATE OR REPLACE FUNCTION "orgraph_log_participant_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('orgraph.capture_changes', true) = 'off' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "event_changes" ("event_reference", "old_image", "new_image")
      SELECT e."reference", to_jsonb(e), to_jsonb(e) FROM "events" e
      WHERE e."reference" IN (SELECT "event_reference" FROM "new_rows")
        AND NOT EXISTS (SELECT 1 FROM "event_changes" c WHERE c."xid" = pg_current_xact_id()
                          AND c."event_reference" = e."reference");
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "event_changes" ("event_reference", "old_image", "new_image")
      SELECT e."reference", to_jsonb(e), to_jsonb(e) FROM "events" e
      WHERE e."reference" IN (SELECT "event_reference" FROM "new_rows" UNION SELECT "event_reference" FROM "old_rows")
        AND NOT EXISTS (SELECT 1 FROM "event_changes" c WHERE c."xid" = pg_current_xact_id()
                          AND c."event_reference" = e."reference");
  ELSE
    INSERT INTO "event_changes" ("event_reference", "old_image", "new_image")
      SELECT e."reference", to_jsonb(e), to_jsonb(e) FROM "events" e
      WHERE e."reference" IN (SELECT "event_reference" FROM "old_rows")
        AND NOT EXISTS (SELECT 1 FROM "event_changes" c WHERE c."xid" = pg_current_xact_id()
                          AND c."event_reference" = e."reference");
  END IF;
  PERFORM pg_notify('orgraph_event_changes', '');
  RETURN NULL;
END
$$;
