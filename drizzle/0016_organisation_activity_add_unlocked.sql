-- New activity that does not move an organisation's latest date (a second event of a type on the same day or
-- earlier) no longer locks that organisation's activity row: ON CONFLICT DO UPDATE locks the conflicting row even
-- when its WHERE leaves it unchanged, so two transactions writing events of one organisation waited for each other
-- to end. Rows already as late are left out before the insert; a writer that does move a date still locks its row.
CREATE OR REPLACE FUNCTION "orgraph_organisation_activity_add"("organisations" uuid[], "types" text[], "dates" timestamptz[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality("organisations"), 0) = 0 THEN RETURN; END IF;
  INSERT INTO "organisation_activity" AS a ("organisation_reference", "activity_type", "last_activity_at")
    SELECT n."organisation_reference", n."activity_type", n."activity_at" FROM (
      SELECT "organisation_reference", "activity_type", max("activity_at") AS "activity_at"
        FROM unnest("organisations", "types", "dates") AS u("organisation_reference", "activity_type", "activity_at")
       WHERE "organisation_reference" IS NOT NULL
       GROUP BY 1, 2
    ) AS n
    WHERE NOT EXISTS (
      SELECT 1 FROM "organisation_activity" x
       WHERE x."organisation_reference" = n."organisation_reference"
         AND x."activity_type" = n."activity_type"
         AND x."last_activity_at" >= n."activity_at")
    -- In key order, so concurrent writers lock rows in the same order and cannot deadlock on them.
    ORDER BY 1, 2
    ON CONFLICT ("organisation_reference", "activity_type")
      DO UPDATE SET "last_activity_at" = excluded."last_activity_at"
      WHERE excluded."last_activity_at" > a."last_activity_at";
  UPDATE "organisations" o SET "has_activity" = true
    WHERE o."reference" IN (SELECT DISTINCT r FROM unnest("organisations") AS r WHERE r IS NOT NULL)
      AND NOT o."has_activity";
END
$$;
