-- Every change to the tokens is announced on the channel orgraph_api_tokens, so that a server caching the viewers
-- of recent tokens empties that cache at once: a revocation takes effect on every instance when it commits,
-- whichever process or statement made it.
CREATE OR REPLACE FUNCTION "orgraph_announce_api_token_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('orgraph_api_tokens', TG_OP);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER "api_tokens_announce_changes" AFTER UPDATE OR DELETE OR TRUNCATE ON "api_tokens"
  FOR EACH STATEMENT EXECUTE FUNCTION "orgraph_announce_api_token_changes"();
