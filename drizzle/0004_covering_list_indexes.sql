DROP INDEX "organisation_addresses_country_kind_index";--> statement-breakpoint
DROP INDEX "organisation_industries_code_prefix";--> statement-breakpoint
DROP INDEX "organisations_name_order";--> statement-breakpoint
CREATE INDEX "organisation_addresses_country_kind_index" ON "organisation_addresses" USING btree ("country","kind","organisation_reference");--> statement-breakpoint
CREATE INDEX "organisation_industries_code_prefix" ON "organisation_industries" USING btree ("industry_code" text_pattern_ops,"organisation_reference");--> statement-breakpoint
CREATE INDEX "organisations_name_order" ON "organisations" USING btree ("name","reference","is_fund","confidence","status","verified");