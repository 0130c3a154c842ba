import { annotationsTable, articleOrganisationsTable, articlesTable } from '../src/db/schema/articles.ts';
import { eventArticlesTable } from '../src/db/schema/events.ts';
import type { AnnotationType } from '../src/domain/vocabulary/articles.ts';
import { ArticleText, astralSymbols, reporterNames } from './article-text.ts';
import type { RowBatch } from './bulk-load.ts';
import { daysBefore, shortlyAfter } from './dates.ts';
import { eventWindowDays, type GeneratedMove, movesOf } from './events.ts';
import { occupations, recordTopTitle } from './occupations.ts';
import { anyOrganisation, type OrganisationIdentity, organisationIdentity } from './organisations.ts';
import { currentRole, type ProfileIdentity, personName, profileIdentity } from './people.ts';
import { Random, scatter, uuidFor } from './random.ts';
import { longDate, urlSlug } from './text.ts';
import type { World } from './world.ts';

/** Someone who speaks or is spoken about in an annotation. */
interface Party {
  name: string;
  role: string | null;
  organisationName: string | null;
  profileReference: string | null;
}

interface Speaker extends Party {
  kind: 'person' | 'body';
  /** The organisation the statement comes from. */
  organisationReference: string;
}

/** The organisation, type and speaker that a yearly series repeats about the same subject. */
interface SeriesStatement {
  type: AnnotationType;
  speaker: Speaker;
  subject: Party;
}

type StoryKind = 'single' | 'follow-up' | 'series';

interface Story {
  index: number;
  kind: StoryKind;
  subject: ProfileIdentity;
  organisation: OrganisationIdentity;
  /** Move events the story reports (a departure and the appointment that follows count as one story). */
  moves: GeneratedMove[];
  /** One date per article, newest first. */
  dates: Date[];
  series: SeriesStatement | null;
}

export interface GeneratedAnnotation {
  reference: string;
  articleReference: string;
  type: AnnotationType;
  summary: string;
  text: string;
  start: number;
  end: number;
  organisationReference: string;
  speakerKind: 'person' | 'body';
  speakerName: string;
  speakerRole: string | null;
  speakerOrganisationName: string | null;
  speakerProfileReference: string | null;
  subjectName: string;
  subjectRole: string | null;
  subjectOrganisationName: string | null;
  subjectProfileReference: string | null;
}

export interface GeneratedArticle {
  reference: string;
  title: string;
  url: string | null;
  publishedAt: Date;
  content: string;
  licence: 'full_text' | 'metadata_only';
  annotations: GeneratedAnnotation[];
  organisationReferences: string[];
  eventReferences: string[];
  /** Series articles share the statement key; exposed for tests. */
  seriesKey: string | null;
}

function storyOf(world: World, index: number): Story {
  const random = Random.for('story', index);
  const subject = profileIdentity(world, scatter(index, world.counts.profiles, 'story-subject'));
  const moves = movesOf(world, subject);
  let kind: StoryKind = random.weighted([
    ['single', 92],
    ['follow-up', 5],
    ['series', 3],
  ] as const);
  const reportsMove = kind !== 'series' && moves.length > 0 && random.chance(0.85);
  if (reportsMove) {
    const latest = moves[moves.length - 1]!;
    const previous = moves[moves.length - 2];
    const paired =
      previous !== undefined &&
      previous.moveType === 'Departure' &&
      latest.moveType !== 'Departure' &&
      Math.abs(latest.publishDate.getTime() - previous.publishDate.getTime()) < 200 * 86_400_000;
    const first = shortlyAfter(world.now, random, latest.publishDate, 3);
    const dates = kind === 'follow-up' ? [shortlyAfter(world.now, random, first, 20), first] : [first];
    return {
      index,
      kind,
      subject,
      organisation: latest.organisation,
      moves: paired ? [previous, latest] : [latest],
      dates,
      series: null,
    };
  }
  if (kind === 'follow-up') kind = 'single';
  const role = currentRole(subject) ?? subject.career[0];
  const organisation = organisationIdentity(
    world,
    role?.organisation ??
      subject.career.find((r) => r.organisation !== null)?.organisation ??
      anyOrganisation(world, random),
  );
  if (kind === 'single') {
    return {
      index,
      kind,
      subject,
      organisation,
      moves: [],
      dates: [daysBefore(world.now, random.float(0, eventWindowDays))],
      series: null,
    };
  }
  const latest = daysBefore(world.now, random.float(1, 400));
  const years = random.int(2, 4);
  // A year apart, the newest being `latest` itself so that none is dated after the anchor day.
  const dates = Array.from({ length: years }, (_, k) =>
    k === 0 ? latest : daysBefore(latest, 365 * k + random.float(-10, 10)),
  );
  const story: Story = { index, kind, subject, organisation, moves: [], dates, series: null };
  story.series = {
    type: random.weighted([
      ['review', 45],
      ['recommendation', 35],
      ['speech', 10],
      ['feedback', 10],
    ] as const),
    speaker: speakerFor(world, random, story, random.chance(0.6)),
    subject: storySubject(story),
  };
  return story;
}

function roleAt(story: Story): string | null {
  const move = story.moves[story.moves.length - 1];
  if (move) return move.role.title;
  const role = story.subject.career.find((r) => r.organisation === story.organisation.index);
  return role?.title ?? null;
}

function storySubject(story: Story): Party {
  return {
    name: story.subject.fullName,
    role: roleAt(story),
    organisationName: story.organisation.name,
    profileReference: story.subject.reference,
  };
}

const bodyNames = [
  (org: string) => org,
  (org: string) => `Board of Directors of ${org}`,
  (org: string) => `${org} Remuneration Committee`,
  (org: string) => `${org} Nomination Committee`,
  (org: string) => `${org} Audit Committee`,
];

function speakerFor(world: World, random: Random, story: Story, body: boolean): Speaker {
  const organisation = story.organisation;
  if (body) {
    const name = random.pick(bodyNames)(organisation.name);
    return {
      kind: 'body',
      name,
      role: name === organisation.name ? null : random.pick(['Committee', 'Board', null]),
      organisationName: organisation.name,
      profileReference: null,
      organisationReference: organisation.reference,
    };
  }
  if (random.chance(0.1)) {
    return {
      kind: 'person',
      name: personName(random, organisation.region).fullName,
      role: recordTopTitle(random).title,
      organisationName: organisation.name,
      profileReference: null,
      organisationReference: organisation.reference,
    };
  }
  let other = random.int(0, world.counts.profiles - 1);
  if (other === story.subject.index) other = (other + 1) % world.counts.profiles;
  const person = profileIdentity(world, other);
  const role = currentRole(person);
  const employer = role?.organisation != null ? organisationIdentity(world, role.organisation) : null;
  return {
    kind: 'person',
    name: person.fullName,
    role: role?.title ?? null,
    organisationName: employer?.name ?? null,
    profileReference: person.reference,
    organisationReference: (employer ?? organisation).reference,
  };
}

function subjectFor(world: World, random: Random, story: Story): Party {
  const roll = random.next();
  if (roll < 0.8) return storySubject(story);
  if (roll < 0.92) {
    const person = profileIdentity(world, random.int(0, world.counts.profiles - 1));
    const role = currentRole(person);
    return {
      name: person.fullName,
      role: role?.title ?? null,
      organisationName:
        role?.organisation != null ? organisationIdentity(world, role.organisation).name : null,
      profileReference: person.reference,
    };
  }
  return {
    name: personName(random, story.organisation.region).fullName,
    role: occupations[random.int(0, occupations.length - 1)]!.name,
    organisationName: story.organisation.name,
    profileReference: null,
  };
}

const qualities = [
  'decisive',
  'collaborative',
  'thoughtful',
  'demanding',
  'pragmatic',
  'visionary',
  'hands-on',
  'meticulous',
];
const ratings = ['outstanding', 'strong', 'satisfactory', 'mixed', 'exceeding expectations'];
const themes = [
  'international expansion',
  'cost discipline',
  'digital transformation',
  'sustainability',
  'client service',
  'capital allocation',
];

/** The verbatim passage and one-line summary of a statement. */
function statementText(
  random: Random,
  type: AnnotationType,
  speaker: Speaker,
  subject: Party,
  story: Story,
  year: number,
): { text: string; summary: string } {
  const org = story.organisation.name;
  const who = subject.name;
  const by = speaker.name;
  const role = subject.role ?? 'the role';
  switch (type) {
    case 'speech': {
      const quote = random.pick([
        `We are delighted to welcome ${who} to ${org}`,
        `${who} brings exactly the experience we need for the next phase of our growth`,
        `I have worked alongside ${who} for years and cannot think of anyone better placed to lead the team`,
        `We thank ${who} for an outstanding contribution and wish them every success`,
      ]);
      if (speaker.kind === 'body')
        return { text: `“${quote},” ${by} said in a statement.`, summary: `${by} on ${who}` };
      const attribution = speaker.role ? `${by}, ${speaker.role}` : by;
      return { text: `“${quote},” said ${attribution}.`, summary: `${by} on ${who}` };
    }
    case 'feedback': {
      const [a, b] = random.sample(qualities, 2);
      return {
        text: random.pick([
          `Colleagues describe ${who} as a ${a} and ${b} leader who listens before deciding.`,
          `According to ${by}, feedback from staff on ${who} has been consistently ${a}.`,
        ]),
        summary: `${by} reports ${a} feedback on ${who}`,
      };
    }
    case 'recommendation':
      return {
        text: random.pick([
          `${by} recommended that shareholders vote in favour of the re-election of ${who} at the ${year} annual general meeting.`,
          `${by} recommends ${who} for the position of ${role}, citing a strong record in ${random.pick(themes)}.`,
        ]),
        summary: `${by} recommends ${who} (${year})`,
      };
    case 'review': {
      const rating = random.pick(ratings);
      return {
        text: `In its ${year} annual review, ${by} rated the performance of ${who} as ${role} as ${rating}.`,
        summary: `${by} rates ${who}'s ${year} performance as ${rating}`,
      };
    }
  }
}

const fillers = [
  (s: Story) => `${s.organisation.name} did not disclose financial terms.`,
  (s: Story) => `Analysts said the decision signals a renewed focus on ${themes[s.index % themes.length]}.`,
  (s: Story) => `${s.subject.fullName} is expected to report to the board of ${s.organisation.name}.`,
  () => 'The company declined to comment further.',
  (s: Story) => `${s.organisation.name} is headquartered in ${s.organisation.region.countryName}.`,
];

const outlets = [
  'news.example.com',
  'www.businessledger.example',
  'markets.example.org',
  'www.dealwire.example',
  'www.peoplemoves.example.net',
];

function titleFor(random: Random, story: Story, articleIndex: number): string {
  const who = story.subject.fullName;
  const org = story.organisation.name;
  const move = story.moves[story.moves.length - 1];
  if (move) {
    if (articleIndex === 0 && story.kind === 'follow-up') return `Q&A: ${who} on the first weeks at ${org}`;
    return random.chance(0.5) ? move.summary : `${org}: ${move.moveType.toLowerCase()} of ${who} confirmed`;
  }
  if (story.kind === 'series')
    return `${org} annual report ${story.dates[articleIndex]!.getUTCFullYear()}: the board on ${who}`;
  return random.pick([`${who} on ${random.pick(themes)} at ${org}`, `Inside ${org}: ${who} sets out plans`]);
}

function composeArticle(world: World, story: Story, articleIndex: number): GeneratedArticle {
  const random = Random.for('article', story.index, articleIndex);
  const reference = uuidFor('article', story.index, articleIndex);
  const publishedAt = story.dates[articleIndex]!;
  const year = publishedAt.getUTCFullYear();
  const title = titleFor(random, story, articleIndex);
  const text = new ArticleText();
  const org = story.organisation;

  // A header and a byline with astral characters always precede the first statement.
  text.append(
    `${random.pick(astralSymbols)} ${random.pick(['Markets', 'People moves', 'Deals', 'Finance', 'Companies'])} · ${org.region.countryName}`,
  );
  text.paragraph().append(`By ${random.pick(reporterNames)} · ${longDate(publishedAt)}`);
  text.paragraph().append(title.endsWith('.') ? title : `${title}.`);
  const move = story.moves[story.moves.length - 1];
  if (move) text.append(` The change takes effect on ${longDate(move.effectiveDate)}.`);

  const annotations: GeneratedAnnotation[] = [];
  const organisationReferences = new Set<string>([org.reference]);
  const count = random.int(2, 5);
  const seriesSlot = story.series ? random.int(0, count - 1) : -1;
  for (let i = 0; i < count; i += 1) {
    const statement =
      i === seriesSlot && story.series
        ? story.series
        : {
            type: random.weighted([
              ['speech', 40],
              ['feedback', 20],
              ['recommendation', 20],
              ['review', 20],
            ] as const),
            speaker: speakerFor(world, random, story, random.chance(0.3)),
            subject: subjectFor(world, random, story),
          };
    const { text: passage, summary } = statementText(
      random,
      statement.type,
      statement.speaker,
      statement.subject,
      story,
      year,
    );
    text.paragraph();
    if (random.chance(0.3)) text.append(`${random.pick(astralSymbols)} `);
    const { start, end } = text.mark(passage);
    text.append(` ${random.pick(fillers)(story)}`);
    if (random.chance(0.25))
      text
        .paragraph()
        .append(
          `Shares in ${org.name} moved ${random.int(1, 9)}.${random.int(0, 9)}% on the day ${random.pick(astralSymbols)}.`,
        );
    organisationReferences.add(statement.speaker.organisationReference);
    annotations.push({
      reference: uuidFor('annotation', story.index, articleIndex * 16 + i),
      articleReference: reference,
      type: statement.type,
      summary,
      text: passage,
      start,
      end,
      organisationReference: statement.speaker.organisationReference,
      speakerKind: statement.speaker.kind,
      speakerName: statement.speaker.name,
      speakerRole: statement.speaker.role,
      speakerOrganisationName: statement.speaker.organisationName,
      speakerProfileReference: statement.speaker.profileReference,
      subjectName: statement.subject.name,
      subjectRole: statement.subject.role,
      subjectOrganisationName: statement.subject.organisationName,
      subjectProfileReference: statement.subject.profileReference,
    });
  }
  text.paragraph().append(`${random.pick(fillers)(story)} ${random.pick(astralSymbols)}`);

  const links =
    story.kind === 'series' || story.moves.length === 0 ? [] : story.moves.map((m) => m.reference);
  const series = story.series;
  return {
    reference,
    title,
    url: random.chance(0.9)
      ? `https://${random.pick(outlets)}/${year}/${String(publishedAt.getUTCMonth() + 1).padStart(2, '0')}/${urlSlug(title) || 'article'}-${random.uint32().toString(36)}`
      : null,
    publishedAt,
    content: text.toString(),
    licence: random.chance(0.15) ? 'metadata_only' : 'full_text',
    annotations,
    organisationReferences: [...organisationReferences].slice(0, 4),
    eventReferences: links,
    seriesKey: series
      ? `${series.speaker.organisationReference}|${series.type}|${series.speaker.kind}|${series.speaker.name}|${series.subject.profileReference}`
      : null,
  };
}

/** The articles of story `index`, newest first: one, a report and its follow-up, or a yearly series. */
export function articlesOf(world: World, index: number): GeneratedArticle[] {
  const story = storyOf(world, index);
  return story.dates.map((_, articleIndex) => composeArticle(world, story, articleIndex));
}

/** Writes the articles of story `index` with their annotations and links. */
export function addStoryArticles(world: World, index: number, batch: RowBatch): void {
  for (const article of articlesOf(world, index)) {
    batch.add(articlesTable, {
      reference: article.reference,
      title: article.title,
      url: article.url,
      publishedAt: article.publishedAt,
      content: article.content,
      licence: article.licence,
    });
    for (const annotation of article.annotations) batch.add(annotationsTable, annotation);
    for (const organisationReference of article.organisationReferences) {
      batch.add(articleOrganisationsTable, { articleReference: article.reference, organisationReference });
    }
    for (const eventReference of article.eventReferences) {
      batch.add(eventArticlesTable, { eventReference, articleReference: article.reference });
    }
  }
}
