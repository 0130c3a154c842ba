-- Webhook subscriptions to saved searches, and their deliveries. A delivery row (the outbox) is written by a
-- trigger in the same transaction as the event changes it announces, one per subscription and transaction, so a
-- committed change always has its delivery and a crash never drops one. The worker fills in the body (the feed
-- rows of that transaction that match the search) the first time it takes the row, and drops the row when none do.
CREATE TABLE "webhook_subscriptions" (
  "id" uuid PRIMARY KEY,
  "token_id" uuid NOT NULL REFERENCES "api_tokens" ("id") ON DELETE CASCADE,
  "query_id" uuid NOT NULL REFERENCES "saved_searches" ("query_id"),
  "url" text NOT NULL,
  "secret" text NOT NULL,
  -- active; failing (a delivery used up its attempts: deliveries wait for a retry); ended (deleted, or 410 Gone).
  "status" text NOT NULL DEFAULT 'active',
  "status_reason" text,
  "created_at" timestamptz NOT NULL DEFAULT now()
);--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_token_id_index" ON "webhook_subscriptions" ("token_id");--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "subscription_id" uuid NOT NULL REFERENCES "webhook_subscriptions" ("id") ON DELETE CASCADE,
  "xid" xid8 NOT NULL,
  -- pending, delivered, failed (attempts used up), cancelled (the subscription ended).
  "status" text NOT NULL DEFAULT 'pending',
  "body" text,
  "attempts" integer NOT NULL DEFAULT 0,
  "next_attempt_at" timestamptz NOT NULL DEFAULT now(),
  "lease_until" timestamptz,
  "last_status" integer,
  "last_error" text,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "delivered_at" timestamptz,
  UNIQUE ("subscription_id", "xid")
);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_index" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending';--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orgraph_queue_webhook_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_deliveries" ("subscription_id", "xid")
    SELECT s."id", pg_current_xact_id() FROM "webhook_subscriptions" s WHERE s."status" <> 'ended'
    ON CONFLICT ("subscription_id", "xid") DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "event_changes_queue_webhook_deliveries" AFTER INSERT ON "event_changes"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_queue_webhook_deliveries"();
