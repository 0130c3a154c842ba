-- The activity index becomes a table kept current as events and AUM records are written, instead of a materialised
-- view recomputed whole (34 s at scale 1000, past any request timeout). The fill below reads every event once, so
-- this migration's statements run under a limit of their own rather than the request pool's statement timeout.
SET LOCAL statement_timeout = '30min';--> statement-breakpoint
DROP MATERIALIZED VIEW "organisation_activity";--> statement-breakpoint
CREATE TABLE "organisation_activity" (
	"organisation_reference" uuid NOT NULL,
	"activity_type" text NOT NULL,
	"last_activity_at" timestamp with time zone NOT NULL,
	CONSTRAINT "organisation_activity_key" PRIMARY KEY("organisation_reference","activity_type")
);
--> statement-breakpoint
-- Recomputes the activity rows and the has_activity flag of the given organisations from the events and AUM records
-- (through the indexes on each reference column). For writes that may remove activity: updates and deletes.
CREATE OR REPLACE FUNCTION "orgraph_organisation_activity_recompute"("changed" uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality("changed"), 0) = 0 THEN RETURN; END IF;
  DELETE FROM "organisation_activity" WHERE "organisation_reference" = ANY("changed");
  INSERT INTO "organisation_activity" AS a ("organisation_reference", "activity_type", "last_activity_at")
    SELECT "organisation_reference", "activity_type", max("activity_at") FROM (
      SELECT e."organisation_reference", e."type"::text AS "activity_type", e."publish_date" AS "activity_at"
        FROM "events" e WHERE e."organisation_reference" = ANY("changed")
      UNION ALL
      SELECT e."acquirer_reference", e."type"::text, e."publish_date" FROM "events" e WHERE e."acquirer_reference" = ANY("changed")
      UNION ALL
      SELECT e."acquiree_reference", e."type"::text, e."publish_date" FROM "events" e WHERE e."acquiree_reference" = ANY("changed")
      UNION ALL
      SELECT c."organisation_reference", 'client_summary', c."publish_date"
        FROM "client_summaries" c WHERE c."organisation_reference" = ANY("changed")
    ) AS "activity"
    GROUP BY 1, 2
    ORDER BY 1, 2
    -- A concurrent writer may have added the row since the delete above.
    ON CONFLICT ("organisation_reference", "activity_type")
      DO UPDATE SET "last_activity_at" = greatest(a."last_activity_at", excluded."last_activity_at");
  UPDATE "organisations" o SET "has_activity" = NOT o."has_activity"
    WHERE o."reference" = ANY("changed")
      AND o."has_activity" <> EXISTS (SELECT 1 FROM "organisation_activity" a WHERE a."organisation_reference" = o."reference");
END
$$;--> statement-breakpoint
-- Folds new activity into the index: the latest date per organisation and type wins, and the organisations gain
-- their flag. Only adds, so inserts (one statement for a whole COPY chunk or import batch) never rescan events.
CREATE OR REPLACE FUNCTION "orgraph_organisation_activity_add"("organisations" uuid[], "types" text[], "dates" timestamptz[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality("organisations"), 0) = 0 THEN RETURN; END IF;
  INSERT INTO "organisation_activity" AS a ("organisation_reference", "activity_type", "last_activity_at")
    SELECT "organisation_reference", "activity_type", max("activity_at")
      FROM unnest("organisations", "types", "dates") AS n("organisation_reference", "activity_type", "activity_at")
     WHERE "organisation_reference" IS NOT NULL
     GROUP BY 1, 2
     -- In key order, so concurrent writers lock rows in the same order and cannot deadlock on them.
     ORDER BY 1, 2
    ON CONFLICT ("organisation_reference", "activity_type")
      DO UPDATE SET "last_activity_at" = excluded."last_activity_at"
      WHERE excluded."last_activity_at" > a."last_activity_at";
  UPDATE "organisations" o SET "has_activity" = true
    WHERE o."reference" IN (SELECT DISTINCT r FROM unnest("organisations") AS r WHERE r IS NOT NULL)
      AND NOT o."has_activity";
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_activity_events_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "orgraph_organisation_activity_add"(array_agg(r), array_agg(t), array_agg(d))
    FROM (SELECT v.r, e."type"::text AS t, e."publish_date" AS d FROM "inserted_events" e,
            LATERAL (VALUES (e."organisation_reference"), (e."acquirer_reference"), (e."acquiree_reference")) AS v(r)
           WHERE v.r IS NOT NULL) AS n;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- An update matters only when it changes what the index holds (type, date or an organisation): the organisations
-- named by the rows that differ before and after are recomputed. The differing rows come from set differences of the
-- two transition tables (hashed, linear), not a join, which the planner has no statistics to plan well.
CREATE OR REPLACE FUNCTION "orgraph_organisation_activity_events_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "orgraph_organisation_activity_recompute"(ARRAY(
    SELECT DISTINCT v.r FROM (
      (SELECT "reference", "type", "publish_date", "organisation_reference", "acquirer_reference", "acquiree_reference"
         FROM "updated_events_before"
       EXCEPT
       SELECT "reference", "type", "publish_date", "organisation_reference", "acquirer_reference", "acquiree_reference"
         FROM "updated_events")
      UNION ALL
      (SELECT "reference", "type", "publish_date", "organisation_reference", "acquirer_reference", "acquiree_reference"
         FROM "updated_events"
       EXCEPT
       SELECT "reference", "type", "publish_date", "organisation_reference", "acquirer_reference", "acquiree_reference"
         FROM "updated_events_before")
    ) AS e,
      LATERAL (VALUES (e."organisation_reference"), (e."acquirer_reference"), (e."acquiree_reference")) AS v(r)
     WHERE v.r IS NOT NULL));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_activity_events_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "orgraph_organisation_activity_recompute"(ARRAY(
    SELECT DISTINCT v.r FROM "deleted_events" b,
      LATERAL (VALUES (b."organisation_reference"), (b."acquirer_reference"), (b."acquiree_reference")) AS v(r)
     WHERE v.r IS NOT NULL));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_activity_summaries_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "orgraph_organisation_activity_add"(array_agg(c."organisation_reference"), array_agg('client_summary'::text), array_agg(c."publish_date"))
    FROM "inserted_summaries" c;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_activity_summaries_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "orgraph_organisation_activity_recompute"(ARRAY(
    SELECT DISTINCT "organisation_reference" FROM (
      (SELECT "reference", "publish_date", "organisation_reference" FROM "updated_summaries_before"
       EXCEPT
       SELECT "reference", "publish_date", "organisation_reference" FROM "updated_summaries")
      UNION ALL
      (SELECT "reference", "publish_date", "organisation_reference" FROM "updated_summaries"
       EXCEPT
       SELECT "reference", "publish_date", "organisation_reference" FROM "updated_summaries_before")
    ) AS c));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_organisation_activity_summaries_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "orgraph_organisation_activity_recompute"(ARRAY(SELECT DISTINCT "organisation_reference" FROM "deleted_summaries"));
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Recomputes one slice of organisations (in reference order, after `after`) and writes only what differs; returns
-- the last reference of the slice, or null past the end. The server runs one slice every ACTIVITY_REFRESH_SECONDS
-- as a safety net for writes made with the triggers off.
CREATE OR REPLACE FUNCTION "orgraph_organisation_activity_reconcile"("after" uuid, "batch" integer) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  "slice" uuid[];
BEGIN
  "slice" := ARRAY(SELECT o."reference" FROM "organisations" o
                    WHERE "after" IS NULL OR o."reference" > "after" ORDER BY o."reference" LIMIT "batch");
  IF cardinality("slice") = 0 THEN RETURN NULL; END IF;
  WITH "truth" AS (
    SELECT "organisation_reference", "activity_type", max("activity_at") AS "last_activity_at" FROM (
      SELECT e."organisation_reference", e."type"::text AS "activity_type", e."publish_date" AS "activity_at"
        FROM "events" e WHERE e."organisation_reference" = ANY("slice")
      UNION ALL
      SELECT e."acquirer_reference", e."type"::text, e."publish_date" FROM "events" e WHERE e."acquirer_reference" = ANY("slice")
      UNION ALL
      SELECT e."acquiree_reference", e."type"::text, e."publish_date" FROM "events" e WHERE e."acquiree_reference" = ANY("slice")
      UNION ALL
      SELECT c."organisation_reference", 'client_summary', c."publish_date"
        FROM "client_summaries" c WHERE c."organisation_reference" = ANY("slice")
    ) AS "activity"
    GROUP BY 1, 2
  ), "removed" AS (
    DELETE FROM "organisation_activity" a
     WHERE a."organisation_reference" = ANY("slice")
       AND NOT EXISTS (SELECT 1 FROM "truth" t
                        WHERE t."organisation_reference" = a."organisation_reference" AND t."activity_type" = a."activity_type")
  )
  INSERT INTO "organisation_activity" AS a ("organisation_reference", "activity_type", "last_activity_at")
    SELECT "organisation_reference", "activity_type", "last_activity_at" FROM "truth"
    ON CONFLICT ("organisation_reference", "activity_type")
      DO UPDATE SET "last_activity_at" = excluded."last_activity_at"
      WHERE a."last_activity_at" IS DISTINCT FROM excluded."last_activity_at";
  UPDATE "organisations" o SET "has_activity" = NOT o."has_activity"
    WHERE o."reference" = ANY("slice")
      AND o."has_activity" <> EXISTS (SELECT 1 FROM "organisation_activity" a WHERE a."organisation_reference" = o."reference");
  RETURN "slice"[cardinality("slice")];
END
$$;--> statement-breakpoint
-- Recomputes the whole index and every flag from the events and AUM records.
CREATE OR REPLACE FUNCTION "orgraph_organisation_activity_rebuild_all"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "organisation_activity";
  INSERT INTO "organisation_activity" ("organisation_reference", "activity_type", "last_activity_at")
    SELECT "organisation_reference", "activity_type", max("activity_at") FROM (
      SELECT "organisation_reference", "type"::text AS "activity_type", "publish_date" AS "activity_at"
        FROM "events" WHERE "organisation_reference" IS NOT NULL
      UNION ALL
      SELECT "acquirer_reference", "type"::text, "publish_date" FROM "events" WHERE "acquirer_reference" IS NOT NULL
      UNION ALL
      SELECT "acquiree_reference", "type"::text, "publish_date" FROM "events" WHERE "acquiree_reference" IS NOT NULL
      UNION ALL
      SELECT "organisation_reference", 'client_summary', "publish_date" FROM "client_summaries"
    ) AS "activity"
    GROUP BY 1, 2;
  UPDATE "organisations" o SET "has_activity" = NOT o."has_activity"
    WHERE o."has_activity" <> EXISTS (SELECT 1 FROM "organisation_activity" a WHERE a."organisation_reference" = o."reference");
END
$$;--> statement-breakpoint
-- Truncating events or AUM records fires no transition-table trigger: the whole index is recomputed instead.
CREATE OR REPLACE FUNCTION "orgraph_organisation_activity_rebuild"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "orgraph_organisation_activity_rebuild_all"();
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "events_add_activity_on_insert" AFTER INSERT ON "events"
  REFERENCING NEW TABLE AS "inserted_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_activity_events_insert"();--> statement-breakpoint
CREATE TRIGGER "events_recompute_activity_on_update" AFTER UPDATE ON "events"
  REFERENCING OLD TABLE AS "updated_events_before" NEW TABLE AS "updated_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_activity_events_update"();--> statement-breakpoint
CREATE TRIGGER "events_recompute_activity_on_delete" AFTER DELETE ON "events"
  REFERENCING OLD TABLE AS "deleted_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_activity_events_delete"();--> statement-breakpoint
CREATE TRIGGER "events_rebuild_activity_on_truncate" AFTER TRUNCATE ON "events"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_activity_rebuild"();--> statement-breakpoint
CREATE TRIGGER "client_summaries_add_activity_on_insert" AFTER INSERT ON "client_summaries"
  REFERENCING NEW TABLE AS "inserted_summaries"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_activity_summaries_insert"();--> statement-breakpoint
CREATE TRIGGER "client_summaries_recompute_activity_on_update" AFTER UPDATE ON "client_summaries"
  REFERENCING OLD TABLE AS "updated_summaries_before" NEW TABLE AS "updated_summaries"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_activity_summaries_update"();--> statement-breakpoint
CREATE TRIGGER "client_summaries_recompute_activity_on_delete" AFTER DELETE ON "client_summaries"
  REFERENCING OLD TABLE AS "deleted_summaries"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_activity_summaries_delete"();--> statement-breakpoint
CREATE TRIGGER "client_summaries_rebuild_activity_on_truncate" AFTER TRUNCATE ON "client_summaries"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_organisation_activity_rebuild"();--> statement-breakpoint
-- The activity already recorded (the triggers above hold locks that keep writers out until this commits).
SELECT "orgraph_organisation_activity_rebuild_all"();--> statement-breakpoint
CREATE INDEX "organisation_activity_type_at" ON "organisation_activity" USING btree ("activity_type","last_activity_at");--> statement-breakpoint
ANALYZE "organisation_activity";
