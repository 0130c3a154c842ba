-- The change log behind the saved-search feeds: every insert, update and delete of an event, and every change to
-- an event's participants, is written here by triggers in the same transaction as the change, whichever process
-- or statement made it (COPY, `insert ... on conflict`, plain SQL). A change's position is (xid, seq): the
-- writing transaction's id and the order within it. Readers only read changes of transactions below the xmin of
-- their snapshot, all of which have ended, so a position once passed never gains a change before it.
CREATE TABLE "event_changes" (
  "xid" xid8 NOT NULL DEFAULT pg_current_xact_id(),
  "seq" bigint GENERATED ALWAYS AS IDENTITY,
  "event_reference" uuid NOT NULL,
  "old_image" jsonb,
  "new_image" jsonb,
  "changed_at" timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY ("xid", "seq")
);--> statement-breakpoint
-- Secrets the service generates once and every instance shares (the feed cursors' signing key).
CREATE TABLE "service_secrets" (
  "name" text PRIMARY KEY,
  "secret" text NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now()
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_log_event_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('orgraph.capture_changes', true) = 'off' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "event_changes" ("event_reference", "new_image")
      SELECT n."reference", to_jsonb(n) FROM "new_rows" n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "event_changes" ("event_reference", "old_image", "new_image")
      SELECT n."reference", to_jsonb(o), to_jsonb(n)
      FROM "new_rows" n JOIN "old_rows" o ON o."reference" = n."reference"
      WHERE to_jsonb(o) IS DISTINCT FROM to_jsonb(n);
  ELSE
    INSERT INTO "event_changes" ("event_reference", "old_image")
      SELECT o."reference", to_jsonb(o) FROM "old_rows" o;
  END IF;
  PERFORM pg_notify('orgraph_event_changes', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A change to the participants changes the event's row in the feeds: logged as a change of the event (same image
-- before and after). An event deleted with its participants is logged once, by the events trigger.
CREATE OR REPLACE FUNCTION "orgraph_log_participant_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('orgraph.capture_changes', true) = 'off' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "event_changes" ("event_reference", "old_image", "new_image")
      SELECT e."reference", to_jsonb(e), to_jsonb(e) FROM "events" e
      WHERE e."reference" IN (SELECT "event_reference" FROM "new_rows");
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "event_changes" ("event_reference", "old_image", "new_image")
      SELECT e."reference", to_jsonb(e), to_jsonb(e) FROM "events" e
      WHERE e."reference" IN (SELECT "event_reference" FROM "new_rows" UNION SELECT "event_reference" FROM "old_rows");
  ELSE
    INSERT INTO "event_changes" ("event_reference", "old_image", "new_image")
      SELECT e."reference", to_jsonb(e), to_jsonb(e) FROM "events" e
      WHERE e."reference" IN (SELECT "event_reference" FROM "old_rows");
  END IF;
  PERFORM pg_notify('orgraph_event_changes', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Statement-level triggers with transition tables: one INSERT ... SELECT per statement, not one per row, so a COPY
-- or a batched import pays one extra statement per batch.
CREATE TRIGGER "events_log_inserts" AFTER INSERT ON "events"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_log_event_changes"();--> statement-breakpoint
CREATE TRIGGER "events_log_updates" AFTER UPDATE ON "events"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_log_event_changes"();--> statement-breakpoint
CREATE TRIGGER "events_log_deletes" AFTER DELETE ON "events"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_log_event_changes"();--> statement-breakpoint
CREATE TRIGGER "event_participants_log_inserts" AFTER INSERT ON "event_participants"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_log_participant_changes"();--> statement-breakpoint
CREATE TRIGGER "event_participants_log_updates" AFTER UPDATE ON "event_participants"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_log_participant_changes"();--> statement-breakpoint
CREATE TRIGGER "event_participants_log_deletes" AFTER DELETE ON "event_participants"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_log_participant_changes"();
