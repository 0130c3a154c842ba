-- Trigram indexes back the substring searches on organisation, person and occupation names.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
