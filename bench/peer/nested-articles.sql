-- The one rule of the nested articles read that PostGraphile's generated relations cannot express: a person's
-- articles (the articles of the statements they are the subject or the speaker of), newest first, the first five,
-- each yearly series of statements folded to its newest, with the statements on each side. orgraph answers it in
-- src/domain/profiles/profile-articles.ts; the bench gives the peer the same rule as a computed column on
-- experiences, answering only for current executive roles, the one list whose people the query asks articles of.
-- Created by `npm run bench` in the dataset's database before PostGraphile starts (bench/peer.ts).

create or replace function public.bench_is_executive_title(title text) returns boolean
language sql immutable parallel safe as $$
  select btrim(title) ~* (
    '\ychief\y|\yc(?:e|f|o|t|i|m|r|c|p|d|s|l|a|b|x|hr|is)o\y|\y(?:co-|vice[ -])?president\y|\y(?:co-?)?founder\y'
    || '|\yowner\y|\yproprietor\y|\ydirector\y|\y(?:md|gm)\y|\y(?:s|e)?vp\y|\y(?:general|country) manager\y'
    || '|\ypartner\y|\yhead of\y|\ychair(?:man|woman|person)?\y|\yboard member\y|^principal$')
    and btrim(title) !~* '\yassistant\y|\ybusiness partner\y'
$$;

drop type if exists public.bench_article_item cascade;
create type public.bench_article_item as (title text, about jsonb, "by" jsonb);

create or replace function public.experiences_executive_articles(e public.experiences)
returns setof public.bench_article_item
language sql stable as $$
  with mine as (
    select a.*, 'about'::text as side from annotations a
      where e.end_date is null and bench_is_executive_title(e.occupation_title)
        and a.subject_profile_reference = e.profile_reference
    union all
    select a.*, 'by'::text as side from annotations a
      where e.end_date is null and bench_is_executive_title(e.occupation_title)
        and a.speaker_profile_reference = e.profile_reference
  ),
  ranked as (
    select m.*, art.published_at,
      row_number() over (
        partition by m.side, coalesce(m.organisation_reference::text, 'annotation:' || m.reference::text), m.type,
          coalesce(m.speaker_profile_reference::text, m.speaker_kind::text || ':' || m.speaker_name)
        order by art.published_at desc, art.reference desc, m.start, m.reference) as series_rank
    from mine m join articles art on art.reference = m.article_reference
  ),
  kept as (select * from ranked where series_rank = 1),
  page as (
    select distinct article_reference, published_at from kept
    order by published_at desc, article_reference desc limit 5
  )
  select art.title,
    coalesce((select jsonb_agg(jsonb_build_object('summary', k.summary,
        'text', case when art.licence = 'full_text' then k.text end) order by k.start, k.reference)
      from kept k where k.article_reference = pg.article_reference and k.side = 'about'), '[]'::jsonb),
    coalesce((select jsonb_agg(jsonb_build_object('summary', k.summary,
        'text', case when art.licence = 'full_text' then k.text end) order by k.start, k.reference)
      from kept k where k.article_reference = pg.article_reference and k.side = 'by'), '[]'::jsonb)
  from page pg join articles art on art.reference = pg.article_reference
  order by pg.published_at desc, pg.article_reference desc
$$;
