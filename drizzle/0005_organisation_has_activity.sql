DROP INDEX "organisations_name_order";--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "has_activity" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The flag of the organisations already in the activity index; later refreshes keep it.
UPDATE "organisations" o SET "has_activity" = true
  WHERE EXISTS (SELECT 1 FROM "organisation_activity" a WHERE a."organisation_reference" = o."reference");--> statement-breakpoint
CREATE INDEX "organisations_name_order" ON "organisations" USING btree ("name","reference","is_fund","confidence","status","verified","has_activity");
