CREATE TYPE "public"."annotation_type" AS ENUM('speech', 'feedback', 'recommendation', 'review');--> statement-breakpoint
CREATE TYPE "public"."article_licence" AS ENUM('full_text', 'metadata_only');--> statement-breakpoint
CREATE TYPE "public"."speaker_kind" AS ENUM('person', 'body');--> statement-breakpoint
CREATE TYPE "public"."event_type" AS ENUM('move', 'funding', 'deal', 'public_offering', 'client_summary');--> statement-breakpoint
CREATE TYPE "public"."address_kind" AS ENUM('company', 'mailing');--> statement-breakpoint
CREATE TYPE "public"."organisation_status" AS ENUM('active', 'merged', 'dormant', 'dissolved', 'unknown');--> statement-breakpoint
CREATE TYPE "public"."score_dimension" AS ENUM('growth_momentum', 'financial_strength', 'industry_health', 'management_strength', 'customer_sentiment', 'ipo_readiness', 'ma_attractiveness');--> statement-breakpoint
CREATE TYPE "public"."summary_type" AS ENUM('client', 'fund');--> statement-breakpoint
CREATE TYPE "public"."owner_relationship" AS ENUM('parent', 'minority_owner', 'joint_venture_partner', 'associate', 'affiliate');--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"hint" text NOT NULL,
	"label" text,
	"plan" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_tokens_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"name" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "annotations" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"article_reference" uuid NOT NULL,
	"type" "annotation_type" NOT NULL,
	"summary" text NOT NULL,
	"text" text NOT NULL,
	"start" integer NOT NULL,
	"end" integer NOT NULL,
	"organisation_reference" uuid,
	"speaker_kind" "speaker_kind" NOT NULL,
	"speaker_name" text NOT NULL,
	"speaker_role" text,
	"speaker_organisation_name" text,
	"speaker_profile_reference" uuid,
	"subject_name" text NOT NULL,
	"subject_role" text,
	"subject_organisation_name" text,
	"subject_profile_reference" uuid,
	CONSTRAINT "annotations_offsets" CHECK ("annotations"."start" >= 0 and "annotations"."end" >= "annotations"."start")
);
--> statement-breakpoint
CREATE TABLE "article_organisations" (
	"article_reference" uuid NOT NULL,
	"organisation_reference" uuid NOT NULL,
	CONSTRAINT "article_organisations_article_reference_organisation_reference_pk" PRIMARY KEY("article_reference","organisation_reference")
);
--> statement-breakpoint
CREATE TABLE "articles" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"url" text,
	"published_at" timestamp with time zone NOT NULL,
	"content" text NOT NULL,
	"licence" "article_licence" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_articles" (
	"event_reference" uuid NOT NULL,
	"article_reference" uuid NOT NULL,
	CONSTRAINT "event_articles_event_reference_article_reference_pk" PRIMARY KEY("event_reference","article_reference")
);
--> statement-breakpoint
CREATE TABLE "event_participants" (
	"event_reference" uuid NOT NULL,
	"profile_reference" uuid NOT NULL,
	"role" text NOT NULL,
	CONSTRAINT "event_participants_event_reference_profile_reference_pk" PRIMARY KEY("event_reference","profile_reference")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"type" "event_type" NOT NULL,
	"summary" text,
	"publish_date" timestamp with time zone NOT NULL,
	"organisation_reference" uuid,
	"profile_reference" uuid,
	"occupation_reference" uuid,
	"move_type" text,
	"effective_date" timestamp with time zone,
	"acquirer_reference" uuid,
	"acquiree_reference" uuid,
	"deal_type" text,
	"deal_status" text,
	"client_summary_reference" uuid,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_summaries" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"organisation_reference" uuid NOT NULL,
	"currency_code" text NOT NULL,
	"summary_type" "summary_type" NOT NULL,
	"publish_date" timestamp with time zone NOT NULL,
	"entries" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisation_addresses" (
	"organisation_reference" uuid NOT NULL,
	"kind" "address_kind" NOT NULL,
	"city" text,
	"state" text,
	"country" text,
	"zip_postal_code" text,
	CONSTRAINT "organisation_addresses_organisation_reference_kind_pk" PRIMARY KEY("organisation_reference","kind")
);
--> statement-breakpoint
CREATE TABLE "organisation_aliases" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"organisation_reference" uuid NOT NULL,
	"name" text NOT NULL,
	"start_date" date,
	"end_date" date
);
--> statement-breakpoint
CREATE TABLE "organisation_domains" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"organisation_reference" uuid NOT NULL,
	"domain" text NOT NULL,
	"confidence_score" real NOT NULL,
	"is_valid" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisation_industries" (
	"organisation_reference" uuid NOT NULL,
	"industry_code" text NOT NULL,
	"is_primary" boolean NOT NULL,
	CONSTRAINT "organisation_industries_organisation_reference_industry_code_pk" PRIMARY KEY("organisation_reference","industry_code")
);
--> statement-breakpoint
CREATE TABLE "organisation_phones" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"organisation_reference" uuid NOT NULL,
	"number" text NOT NULL,
	"type" text NOT NULL,
	"is_valid" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisation_scores" (
	"organisation_reference" uuid NOT NULL,
	"dimension" "score_dimension" NOT NULL,
	"score" smallint NOT NULL,
	CONSTRAINT "organisation_scores_organisation_reference_dimension_pk" PRIMARY KEY("organisation_reference","dimension"),
	CONSTRAINT "organisation_scores_range" CHECK ("organisation_scores"."score" between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "organisation_tickers" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"organisation_reference" uuid NOT NULL,
	"value" text NOT NULL,
	"exchange_name" text NOT NULL,
	"exchange_code" text NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"is_primary_listing" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"status" "organisation_status" NOT NULL,
	"verified" boolean NOT NULL,
	"confidence" smallint NOT NULL,
	"is_fund" boolean NOT NULL,
	"employees" integer NOT NULL,
	"customers" integer DEFAULT 0 NOT NULL,
	"suppliers" integer DEFAULT 0 NOT NULL,
	"partners" integer DEFAULT 0 NOT NULL,
	"service_providers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "organisations_confidence_range" CHECK ("organisations"."confidence" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "organisation_ownerships" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"owner_reference" uuid NOT NULL,
	"owned_reference" uuid NOT NULL,
	"relationship" "owner_relationship" NOT NULL,
	"ownership_label" text NOT NULL,
	"is_controlling_interest" boolean NOT NULL,
	CONSTRAINT "organisation_ownerships_not_self" CHECK ("organisation_ownerships"."owner_reference" <> "organisation_ownerships"."owned_reference")
);
--> statement-breakpoint
CREATE TABLE "profile_stakes" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"profile_reference" uuid NOT NULL,
	"organisation_reference" uuid NOT NULL,
	"ownership_type" text NOT NULL,
	"ownership_band" text NOT NULL,
	"title_or_status" text,
	"is_control_person" boolean NOT NULL,
	"is_active" boolean NOT NULL,
	"start_date" date,
	"end_date" date
);
--> statement-breakpoint
CREATE TABLE "experiences" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"profile_reference" uuid NOT NULL,
	"organisation_reference" uuid,
	"occupation_title" text NOT NULL,
	"occupation_reference" uuid,
	"start_date" date,
	"end_date" date
);
--> statement-breakpoint
CREATE TABLE "profile_emails" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"profile_reference" uuid NOT NULL,
	"value" text NOT NULL,
	"domain" text NOT NULL,
	"confidence_score" real NOT NULL,
	"is_valid" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"full_name" text NOT NULL,
	"linkedin_url" text,
	"confidence_score" real,
	"is_registered_adviser" boolean DEFAULT false NOT NULL,
	CONSTRAINT "profiles_confidence_range" CHECK ("profiles"."confidence_score" between 0 and 1)
);
--> statement-breakpoint
CREATE TABLE "industries" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"level" smallint NOT NULL,
	"parent_code" text
);
--> statement-breakpoint
CREATE TABLE "occupations" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "occupations_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"query_id" uuid PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"query" jsonb NOT NULL,
	"ignored_field_types" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_searches_fingerprint_unique" UNIQUE("fingerprint")
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_plan_plans_name_fk" FOREIGN KEY ("plan") REFERENCES "public"."plans"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_article_reference_articles_reference_fk" FOREIGN KEY ("article_reference") REFERENCES "public"."articles"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_speaker_profile_reference_profiles_reference_fk" FOREIGN KEY ("speaker_profile_reference") REFERENCES "public"."profiles"("reference") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_subject_profile_reference_profiles_reference_fk" FOREIGN KEY ("subject_profile_reference") REFERENCES "public"."profiles"("reference") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_organisations" ADD CONSTRAINT "article_organisations_article_reference_articles_reference_fk" FOREIGN KEY ("article_reference") REFERENCES "public"."articles"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_organisations" ADD CONSTRAINT "article_organisations_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_articles" ADD CONSTRAINT "event_articles_event_reference_events_reference_fk" FOREIGN KEY ("event_reference") REFERENCES "public"."events"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_articles" ADD CONSTRAINT "event_articles_article_reference_articles_reference_fk" FOREIGN KEY ("article_reference") REFERENCES "public"."articles"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_participants" ADD CONSTRAINT "event_participants_event_reference_events_reference_fk" FOREIGN KEY ("event_reference") REFERENCES "public"."events"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_participants" ADD CONSTRAINT "event_participants_profile_reference_profiles_reference_fk" FOREIGN KEY ("profile_reference") REFERENCES "public"."profiles"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_profile_reference_profiles_reference_fk" FOREIGN KEY ("profile_reference") REFERENCES "public"."profiles"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_occupation_reference_occupations_reference_fk" FOREIGN KEY ("occupation_reference") REFERENCES "public"."occupations"("reference") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_acquirer_reference_organisations_reference_fk" FOREIGN KEY ("acquirer_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_acquiree_reference_organisations_reference_fk" FOREIGN KEY ("acquiree_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_client_summary_reference_client_summaries_reference_fk" FOREIGN KEY ("client_summary_reference") REFERENCES "public"."client_summaries"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_summaries" ADD CONSTRAINT "client_summaries_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_addresses" ADD CONSTRAINT "organisation_addresses_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_aliases" ADD CONSTRAINT "organisation_aliases_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_domains" ADD CONSTRAINT "organisation_domains_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_industries" ADD CONSTRAINT "organisation_industries_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_industries" ADD CONSTRAINT "organisation_industries_industry_code_industries_code_fk" FOREIGN KEY ("industry_code") REFERENCES "public"."industries"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_phones" ADD CONSTRAINT "organisation_phones_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_scores" ADD CONSTRAINT "organisation_scores_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_tickers" ADD CONSTRAINT "organisation_tickers_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_ownerships" ADD CONSTRAINT "organisation_ownerships_owner_reference_organisations_reference_fk" FOREIGN KEY ("owner_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_ownerships" ADD CONSTRAINT "organisation_ownerships_owned_reference_organisations_reference_fk" FOREIGN KEY ("owned_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_stakes" ADD CONSTRAINT "profile_stakes_profile_reference_profiles_reference_fk" FOREIGN KEY ("profile_reference") REFERENCES "public"."profiles"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_stakes" ADD CONSTRAINT "profile_stakes_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiences" ADD CONSTRAINT "experiences_profile_reference_profiles_reference_fk" FOREIGN KEY ("profile_reference") REFERENCES "public"."profiles"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiences" ADD CONSTRAINT "experiences_organisation_reference_organisations_reference_fk" FOREIGN KEY ("organisation_reference") REFERENCES "public"."organisations"("reference") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiences" ADD CONSTRAINT "experiences_occupation_reference_occupations_reference_fk" FOREIGN KEY ("occupation_reference") REFERENCES "public"."occupations"("reference") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_emails" ADD CONSTRAINT "profile_emails_profile_reference_profiles_reference_fk" FOREIGN KEY ("profile_reference") REFERENCES "public"."profiles"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "industries" ADD CONSTRAINT "industries_parent_code_industries_code_fk" FOREIGN KEY ("parent_code") REFERENCES "public"."industries"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_plan_index" ON "api_tokens" USING btree ("plan");--> statement-breakpoint
CREATE INDEX "annotations_article_reference_start_index" ON "annotations" USING btree ("article_reference","start");--> statement-breakpoint
CREATE INDEX "annotations_speaker_profile_reference_index" ON "annotations" USING btree ("speaker_profile_reference");--> statement-breakpoint
CREATE INDEX "annotations_subject_profile_reference_index" ON "annotations" USING btree ("subject_profile_reference");--> statement-breakpoint
CREATE INDEX "article_organisations_organisation_reference_index" ON "article_organisations" USING btree ("organisation_reference");--> statement-breakpoint
CREATE INDEX "articles_published_at_reference_index" ON "articles" USING btree ("published_at" DESC NULLS LAST,"reference");--> statement-breakpoint
CREATE INDEX "event_articles_article_reference_index" ON "event_articles" USING btree ("article_reference");--> statement-breakpoint
CREATE INDEX "event_participants_profile_reference_index" ON "event_participants" USING btree ("profile_reference");--> statement-breakpoint
CREATE INDEX "events_publish_date_reference_index" ON "events" USING btree ("publish_date" DESC NULLS LAST,"reference" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_type_publish_date_index" ON "events" USING btree ("type","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_organisation_reference_publish_date_index" ON "events" USING btree ("organisation_reference","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_acquirer_reference_index" ON "events" USING btree ("acquirer_reference");--> statement-breakpoint
CREATE INDEX "events_acquiree_reference_index" ON "events" USING btree ("acquiree_reference");--> statement-breakpoint
CREATE INDEX "events_profile_reference_publish_date_index" ON "events" USING btree ("profile_reference","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_occupation_reference_index" ON "events" USING btree ("occupation_reference");--> statement-breakpoint
CREATE INDEX "events_move_type_index" ON "events" USING btree ("move_type");--> statement-breakpoint
CREATE INDEX "events_deal_type_index" ON "events" USING btree ("deal_type");--> statement-breakpoint
CREATE INDEX "events_deal_status_index" ON "events" USING btree ("deal_status");--> statement-breakpoint
CREATE INDEX "client_summaries_organisation_reference_publish_date_index" ON "client_summaries" USING btree ("organisation_reference","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "organisation_addresses_country_kind_index" ON "organisation_addresses" USING btree ("country","kind");--> statement-breakpoint
CREATE INDEX "organisation_aliases_organisation_reference_index" ON "organisation_aliases" USING btree ("organisation_reference");--> statement-breakpoint
CREATE INDEX "organisation_domains_organisation_reference_index" ON "organisation_domains" USING btree ("organisation_reference");--> statement-breakpoint
CREATE INDEX "organisation_industries_code_prefix" ON "organisation_industries" USING btree ("industry_code" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "organisation_phones_organisation_reference_index" ON "organisation_phones" USING btree ("organisation_reference");--> statement-breakpoint
CREATE INDEX "organisation_scores_dimension_score_index" ON "organisation_scores" USING btree ("dimension","score");--> statement-breakpoint
CREATE INDEX "organisation_tickers_organisation_reference_index" ON "organisation_tickers" USING btree ("organisation_reference");--> statement-breakpoint
CREATE INDEX "organisations_name_trgm" ON "organisations" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "organisations_name_order" ON "organisations" USING btree ("name","reference");--> statement-breakpoint
CREATE INDEX "organisations_status" ON "organisations" USING btree ("status");--> statement-breakpoint
CREATE INDEX "organisation_ownerships_owner_reference_index" ON "organisation_ownerships" USING btree ("owner_reference");--> statement-breakpoint
CREATE INDEX "organisation_ownerships_owned_reference_index" ON "organisation_ownerships" USING btree ("owned_reference");--> statement-breakpoint
CREATE INDEX "profile_stakes_profile_reference_index" ON "profile_stakes" USING btree ("profile_reference");--> statement-breakpoint
CREATE INDEX "profile_stakes_organisation_reference_index" ON "profile_stakes" USING btree ("organisation_reference");--> statement-breakpoint
CREATE INDEX "experiences_profile_reference_start_date_index" ON "experiences" USING btree ("profile_reference","start_date");--> statement-breakpoint
CREATE INDEX "experiences_organisation_reference_end_date_index" ON "experiences" USING btree ("organisation_reference","end_date");--> statement-breakpoint
CREATE INDEX "experiences_occupation_reference_index" ON "experiences" USING btree ("occupation_reference");--> statement-breakpoint
CREATE INDEX "profile_emails_profile_reference_index" ON "profile_emails" USING btree ("profile_reference");--> statement-breakpoint
CREATE INDEX "profiles_full_name_trgm" ON "profiles" USING gin ("full_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "profiles_name_order" ON "profiles" USING btree ("last_name","first_name","reference");--> statement-breakpoint
CREATE INDEX "industries_parent_code_index" ON "industries" USING btree ("parent_code");--> statement-breakpoint
CREATE INDEX "occupations_name_trgm" ON "occupations" USING gin ("name" gin_trgm_ops);