-- Organisations with recorded activity: every event that names them (as subject, acquirer or acquiree)
-- and every assets-under-management record. Refreshed concurrently, hence the unique index.
CREATE MATERIALIZED VIEW "organisation_activity" AS
SELECT organisation_reference, activity_type, max(activity_at) AS last_activity_at
FROM (
  SELECT organisation_reference, type::text AS activity_type, publish_date AS activity_at
    FROM events WHERE organisation_reference IS NOT NULL
  UNION ALL
  SELECT acquirer_reference, type::text, publish_date FROM events WHERE acquirer_reference IS NOT NULL
  UNION ALL
  SELECT acquiree_reference, type::text, publish_date FROM events WHERE acquiree_reference IS NOT NULL
  UNION ALL
  SELECT organisation_reference, 'client_summary', publish_date FROM client_summaries
) AS activity
GROUP BY organisation_reference, activity_type;
--> statement-breakpoint
CREATE UNIQUE INDEX "organisation_activity_key" ON "organisation_activity" ("organisation_reference", "activity_type");
--> statement-breakpoint
CREATE INDEX "organisation_activity_type_at" ON "organisation_activity" ("activity_type", "last_activity_at");
