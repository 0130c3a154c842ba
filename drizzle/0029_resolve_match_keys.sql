-- Resolving a list of organisations and people (src/domain/resolve) looks each input up by keys that survive the
-- ways people write a name: case, accents, punctuation, `&` for `and`, and, for organisations, legal
-- forms (Inc, Ltd, GmbH, S.A.). Each key is one SQL function that the lookups call on their inputs too, so the two
-- sides cannot drift apart; they name each other with their schema, as an index build runs them on a search path of
-- its own (PostgreSQL 17). Domains, tickers, e-mails and LinkedIn handles get exact lookups.
SET LOCAL statement_timeout = '60min';--> statement-breakpoint
-- A name folded: lower case, accents and ligatures spelled out, dots and apostrophes dropped (S.A. is SA, O'Connell
-- is OConnell), `&` and `+` as `and` (the combining marks U+0300 to U+036F, left by NFKD, dropped by translate,
-- which costs a tenth of a regular expression's range), each run of other characters that are not letters or digits one blank. One
-- expression, and not STRICT (which a coalesce would not pass), so that PostgreSQL inlines these functions into the
-- statements and indexes that call them: called, each costs several times as much.
CREATE FUNCTION "orgraph_match_text"("name" text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ select btrim(regexp_replace(translate(replace(replace(replace(translate(normalize(lower(
    translate(replace(replace(name, '&', ' and '), '+', ' and '), '.''’`', '')), NFKD),
    '̴̵̶̷̸̡̢̧̨̛̖̗̘̙̜̝̞̟̠̣̤̥̦̩̪̫̬̭̮̯̰̱̲̳̹̺̻̼͇͈͉͍͎̀́̂̃̄̅̆̇̈̉̊̋̌̍̎̏̐̑̒̓̔̽̾̿̀́͂̓̈́͆͊͋͌̕̚ͅ͏͓͔͕͖͙͚͐͑͒͗͛ͣͤͥͦͧͨͩͪͫͬͭͮͯ͘͜͟͢͝͞͠͡', ''), 'æ', 'ae'), 'œ', 'oe'), 'ß', 'ss'), 'øłđħı', 'oldhi'), '[^[:alnum:]]+', ' ', 'g'))
  $$;--> statement-breakpoint
-- An organisation's name as a key: its folded words without legal forms and the word `and` in the languages the
-- legal forms come from (each word between blanks of its own, so that one pass removes a run of them, where a
-- lookahead costs three times as much); the folded name when nothing else is left. Word order stays: the trigram lookup, which
-- ignores it, finds a name written in another order.
CREATE FUNCTION "orgraph_organisation_key"("name" text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ select coalesce(nullif(btrim(regexp_replace(regexp_replace(' ' || replace(public.orgraph_match_text(name), ' ', '  ') || ' ',
    ' (?:inc|incorporated|ltd|limited|llc|llp|lp|plc|corp|corporation|co|company|gmbh|mbh|ag|kg|ohg|ug|se|ev|sa|sas|sarl|sl|srl|spa|bv|nv|ab|publ|pty|pte|pvt|dac|ltda|cv|rl|sp|zoo|oo|z|eurl|sasu|sicav|as|asa|oy|oyj|kk|주식회사|and|und|et|e|y|en|och|the) ', '', 'g'), ' +', ' ', 'g')), ''),
    public.orgraph_match_text(name)) $$;--> statement-breakpoint
-- A person's name as a key: the folded name.
CREATE FUNCTION "orgraph_person_key"("name" text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ select public.orgraph_match_text(name) $$;--> statement-breakpoint
-- The handle of a LinkedIn profile URL in any of its spellings (scheme, www or a country's subdomain, /in/ or /pub/,
-- a trailing slash or query), lower-cased; null for anything else.
CREATE FUNCTION "orgraph_linkedin_handle"("url" text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ select lower(substring(url from '(?i)linkedin\.com/(?:in|pub)/([^/?#[:space:]]+)')) $$;--> statement-breakpoint
CREATE INDEX "organisations_match_key" ON "organisations" USING btree (orgraph_organisation_key("name"));--> statement-breakpoint
CREATE INDEX "organisations_match_key_trgm" ON "organisations" USING gin (orgraph_organisation_key("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "organisation_aliases_match_key" ON "organisation_aliases" USING btree (orgraph_organisation_key("name"));--> statement-breakpoint
CREATE INDEX "organisation_domains_domain" ON "organisation_domains" USING btree (lower("domain"));--> statement-breakpoint
CREATE INDEX "organisation_tickers_symbol" ON "organisation_tickers" USING btree (upper("value"));--> statement-breakpoint
CREATE INDEX "profiles_match_key" ON "profiles" USING btree (orgraph_person_key("full_name"));--> statement-breakpoint
CREATE INDEX "profiles_linkedin_handle" ON "profiles" USING btree (orgraph_linkedin_handle("linkedin_url"));--> statement-breakpoint
CREATE INDEX "profile_emails_value" ON "profile_emails" USING btree (lower("value"));--> statement-breakpoint
ANALYZE "organisations", "organisation_aliases", "organisation_domains", "organisation_tickers", "profiles",
  "profile_emails";
