DROP INDEX "events_publish_date_reference_index";--> statement-breakpoint
DROP INDEX "events_type_publish_date_index";--> statement-breakpoint
DROP INDEX "events_organisation_reference_publish_date_index";--> statement-breakpoint
DROP INDEX "events_profile_reference_publish_date_index";--> statement-breakpoint
CREATE INDEX "events_publish_date_reference_index" ON "events" USING btree ("publish_date" DESC NULLS FIRST,"reference" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "events_type_publish_date_index" ON "events" USING btree ("type","publish_date" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "events_organisation_reference_publish_date_index" ON "events" USING btree ("organisation_reference","publish_date" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "events_profile_reference_publish_date_index" ON "events" USING btree ("profile_reference","publish_date" DESC NULLS FIRST);