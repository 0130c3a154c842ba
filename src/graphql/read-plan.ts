import {
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLIncludeDirective,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  isAbstractType,
  Kind,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { z } from 'zod';
import type { OrganisationPeople } from '../domain/organisations/organisation-people.ts';
import type { ListWindow } from '../domain/paging.ts';
import {
  type ProfileArticlesPlan,
  profileArticleOptions,
  profileArticlesKey,
} from '../domain/profiles/planned-articles.ts';
import type { ProfileArticleKey, ProfileArticleOptions } from '../domain/profiles/profile-articles.ts';
import type {
  ExperiencePlan,
  OrganisationPlan,
  PersonLevel,
  PlannedColumns,
  ProfilePlan,
  RolePlan,
} from '../domain/read-plan.ts';
import { keysetWindow } from './keyset.ts';

/**
 * The read plan of a connection, from the selection under it: which levels the request asks for and which
 * columns each needs (see src/domain/read-plan.ts). Fragments, aliases and `@skip`/`@include` are followed as
 * graphql-js collects fields; a selection with `@defer` or `@stream` gets no plan and is read through the loaders.
 */

/** A selection the plan leaves to the loaders. */
class NotPlanned extends Error {}

/** A type's fields and the columns each reads; fields read through a loader by the record's reference; lists below. */
interface TypeFields {
  columns: Record<string, readonly string[]>;
  byReference: ReadonlySet<string>;
}

const organisationFields: TypeFields = {
  columns: {
    id: ['reference'],
    reference: ['reference'],
    name: ['name'],
    description: ['description'],
    status: ['status'],
    verified: ['verified'],
    confidence: ['confidence'],
    isFund: ['isFund'],
    employees: ['employees'],
    sizeBand: ['employees'],
    relationships: ['customers', 'suppliers', 'partners', 'serviceProviders'],
  },
  byReference: new Set([
    'scores',
    'aliases',
    'tickers',
    'domains',
    'phones',
    'industries',
    'addresses',
    'clientSummary',
    'clientSummaries',
    'owners',
    'subsidiaries',
    'profileOwners',
    'events',
    'articles',
  ]),
};

type PeopleList = keyof OrganisationPeople;

const peopleLists: ReadonlySet<string> = new Set<PeopleList>([
  'currentExecutives',
  'currentProfessionals',
  'alumni',
]);

const profileFields: TypeFields = {
  columns: {
    id: ['reference'],
    reference: ['reference'],
    fullName: ['fullName'],
    firstName: ['firstName'],
    lastName: ['lastName'],
    linkedinUrl: ['linkedinUrl'],
    confidenceScore: ['confidenceScore'],
  },
  byReference: new Set(['currentRole', 'emails', 'articles', 'stakes', 'events']),
};

const articleFields: TypeFields = {
  columns: {
    id: ['reference'],
    reference: ['reference'],
    title: ['title'],
    url: ['url'],
    publishedAt: ['publishedAt'],
    licence: ['licence'],
    content: ['content', 'licence'],
    offsetsUnit: [],
  },
  byReference: new Set(),
};

const articleLists = new Set(['annotations']);

const annotationFields: TypeFields = {
  columns: {
    id: ['reference'],
    reference: ['reference'],
    type: ['type'],
    summary: ['summary'],
    text: ['text'],
    start: ['start'],
    end: ['end'],
    speaker: [
      'speakerKind',
      'speakerName',
      'speakerRole',
      'speakerOrganisationName',
      'speakerProfileReference',
    ],
    subject: ['subjectName', 'subjectRole', 'subjectOrganisationName', 'subjectProfileReference'],
    article: ['articleReference'],
    historyCount: [],
  },
  byReference: new Set(),
};

const experienceFields: TypeFields = {
  columns: {
    id: ['reference'],
    reference: ['reference'],
    occupationTitle: ['occupationTitle'],
    startDate: ['startDate'],
    endDate: ['endDate'],
    isCurrent: ['endDate'],
    occupation: ['occupationReference'],
    profile: ['profileReference'],
  },
  byReference: new Set(),
};

/** Fields of one object, by field name (aliases of one field merged), as graphql-js collects them. */
type Collected = Map<string, FieldNode[]>;

interface Collecting {
  info: GraphQLResolveInfo;
  /** Whether a `@skip`/`@include` read a variable, which makes the plan depend on the request. */
  variable: boolean;
}

function collect(sets: readonly SelectionSetNode[], typeName: string, state: Collecting): Collected {
  const fields: Collected = new Map();
  const visited = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (!included(selection, state)) continue;
      if (selection.kind === Kind.FIELD) {
        if (selection.directives?.some((directive) => directive.name.value === 'stream'))
          throw new NotPlanned();
        const name = selection.name.value;
        const list = fields.get(name);
        if (list) list.push(selection);
        else fields.set(name, [selection]);
        continue;
      }
      if (selection.directives?.some((directive) => directive.name.value === 'defer')) throw new NotPlanned();
      let fragment: {
        typeCondition?: { name: { value: string } } | undefined;
        selectionSet: SelectionSetNode;
      };
      if (selection.kind === Kind.INLINE_FRAGMENT) fragment = selection;
      else {
        const name = selection.name.value;
        const definition: FragmentDefinitionNode | undefined = state.info.fragments[name];
        if (!definition || visited.has(name)) continue;
        visited.add(name);
        fragment = definition;
      }
      if (applies(fragment.typeCondition?.name.value, typeName, state.info)) walk(fragment.selectionSet);
    }
  };
  for (const set of sets) walk(set);
  return fields;
}

function included(node: SelectionNode, state: Collecting): boolean {
  if (!node.directives?.length) return true;
  for (const directive of node.directives) {
    if (directive.arguments?.some((argument) => argument.value.kind === Kind.VARIABLE)) state.variable = true;
  }
  if (getDirectiveValues(GraphQLSkipDirective, node, state.info.variableValues)?.if === true) return false;
  if (getDirectiveValues(GraphQLIncludeDirective, node, state.info.variableValues)?.if === false)
    return false;
  return true;
}

function applies(condition: string | undefined, typeName: string, info: GraphQLResolveInfo): boolean {
  if (condition === undefined || condition === typeName) return true;
  const type = info.schema.getType(condition);
  const object = info.schema.getType(typeName);
  return Boolean(type && object && isAbstractType(type) && info.schema.isSubType(type, object as never));
}

function below(nodes: readonly FieldNode[]): SelectionSetNode[] {
  return nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
}

/** The columns the fields read; every column when one is neither known nor read by reference. */
function columnsOf(fields: Collected, known: TypeFields, planned: ReadonlySet<string>): PlannedColumns {
  const columns = new Set<string>();
  for (const name of fields.keys()) {
    if (name === '__typename' || planned.has(name) || known.byReference.has(name)) continue;
    const read = known.columns[name];
    if (!read) return 'all';
    for (const column of read) columns.add(column);
  }
  return columns;
}

function organisationPlan(fields: Collected, state: Collecting): OrganisationPlan {
  const plan: OrganisationPlan = { columns: columnsOf(fields, organisationFields, peopleLists) };
  const roles = [...peopleLists].flatMap((list) => fields.get(list) ?? []);
  if (roles.length > 0) {
    plan.roles = rolePlan(collect(below(roles), 'OrganisationRole', state), state);
    const asking: NonNullable<RolePlan['asking']> = {};
    for (const level of ['experiences', 'articles'] as const) {
      if (!plan.roles.profile?.[level]) continue;
      const lists = [...peopleLists].filter((list) => asksFor(fields.get(list) ?? [], level, state));
      if (lists.length < peopleLists.size) asking[level] = lists as PeopleList[];
    }
    if (Object.keys(asking).length > 0) plan.roles.asking = asking;
  }
  return plan;
}

/** Whether the people of a list are asked for `level` (the three lists share one plan of people). */
function asksFor(list: readonly FieldNode[], level: PersonLevel, state: Collecting): boolean {
  const role = collect(below(list), 'OrganisationRole', state);
  return collect(below(role.get('profile') ?? []), 'Profile', state).has(level);
}

function rolePlan(fields: Collected, state: Collecting): RolePlan {
  for (const name of fields.keys()) {
    if (!['profile', 'title', 'startDate', 'endDate', '__typename'].includes(name)) throw new NotPlanned();
  }
  const profile = fields.get('profile');
  return profile ? { profile: profilePlan(collect(below(profile), 'Profile', state), state) } : {};
}

const profileLists = new Set(['experiences']);

function profilePlan(fields: Collected, state: Collecting): ProfilePlan {
  const plan: ProfilePlan = { columns: columnsOf(fields, profileFields, profileLists) };
  const experiences = fields.get('experiences');
  if (experiences) plan.experiences = experiencePlan(collect(below(experiences), 'Experience', state), state);
  const articles = fields.get('articles');
  const articlesPlan = articles && profileArticlesPlan(articles, state);
  if (articlesPlan) plan.articles = articlesPlan;
  return plan;
}

/** Throws {@link NotPlanned} when a field is not one of `known`. */
function only(fields: Collected, known: readonly string[]): void {
  for (const name of fields.keys())
    if (name !== '__typename' && !known.includes(name)) throw new NotPlanned();
}

const noColumns: ReadonlySet<string> = new Set();

/**
 * A person's articles, when every `articles` field of the selection asks for one page with the same arguments and
 * no cursor (a cursor pages one person, not a level); otherwise the loader reads them, and the levels above stay
 * planned.
 */
function profileArticlesPlan(
  nodes: readonly FieldNode[],
  state: Collecting,
): ProfileArticlesPlan | undefined {
  const field = (state.info.schema.getType('Profile') as GraphQLObjectType).getFields().articles;
  if (!field) return undefined;
  let planned:
    | { key: string; options: ProfileArticleOptions; window: ListWindow<ProfileArticleKey> }
    | undefined;
  for (const node of nodes) {
    if (node.arguments?.some((argument) => argument.value.kind === Kind.VARIABLE)) state.variable = true;
    try {
      const args = getArgumentValues(field, node, state.info.variableValues);
      if (args.after != null || args.before != null) return undefined;
      const options = profileArticleOptions(args as Parameters<typeof profileArticleOptions>[0]);
      const window = keysetWindow(args, z.never());
      const key = profileArticlesKey(options, window);
      if (planned && planned.key !== key) return undefined;
      planned = { key, options, window };
    } catch {
      // Arguments the resolver refuses: it says why, through the loader.
      return undefined;
    }
  }
  if (!planned) return undefined;
  try {
    const connection = collect(below(nodes), 'ProfileArticleConnection', state);
    only(connection, ['edges', 'pageInfo', 'totalCount']);
    const edges = collect(below(connection.get('edges') ?? []), 'ProfileArticleEdge', state);
    only(edges, ['cursor', 'node']);
    const items = collect(below(edges.get('node') ?? []), 'ProfileArticle', state);
    only(items, ['article', 'about', 'by', 'events']);
    const article = collect(below(items.get('article') ?? []), 'Article', state);
    const sides = [...(items.get('about') ?? []), ...(items.get('by') ?? [])];
    const plan: ProfileArticlesPlan = {
      options: planned.options,
      window: planned.window,
      article: columnsOf(article, articleFields, articleLists),
      annotation: columnsOf(collect(below(sides), 'Annotation', state), annotationFields, noColumns),
    };
    const own = article.get('annotations');
    if (own) {
      plan.articleAnnotations = columnsOf(
        collect(below(own), 'Annotation', state),
        annotationFields,
        noColumns,
      );
    }
    return plan;
  } catch (error) {
    if (error instanceof NotPlanned) return undefined;
    throw error;
  }
}

const experienceLists = new Set(['organisation']);

function experiencePlan(fields: Collected, state: Collecting): ExperiencePlan {
  const plan: ExperiencePlan = { columns: columnsOf(fields, experienceFields, experienceLists) };
  const organisation = fields.get('organisation');
  if (organisation) {
    plan.organisation = organisationPlan(collect(below(organisation), 'Organisation', state), state);
  }
  return plan;
}

/** Off, every field reads through its loader: the path the plan's answers are compared with. */
export const readPlans = { enabled: true };

/** Plans that do not depend on the request's variables, by the connection field's node in the parsed document. */
const plans = new WeakMap<FieldNode, object | null>();

/**
 * The plan of the nodes under a connection (`edges { node }`), or undefined when the loaders read them: nothing
 * below the nodes to plan, or `@defer`/`@stream` under the connection.
 */
function connectionPlan<Plan extends object>(
  info: GraphQLResolveInfo,
  nodeType: string,
  plan: (fields: Collected, state: Collecting) => Plan | null,
): Plan | undefined {
  if (!readPlans.enabled) return undefined;
  const key = info.fieldNodes[0] as FieldNode;
  const cached = plans.get(key);
  if (cached !== undefined) return (cached ?? undefined) as Plan | undefined;
  const state: Collecting = { info, variable: false };
  let planned: Plan | null;
  try {
    const connection = collect(below(info.fieldNodes), `${nodeType}Connection`, state);
    const edges = collect(below(connection.get('edges') ?? []), `${nodeType}Edge`, state);
    const nodes = edges.get('node') ?? [];
    planned = nodes.length > 0 ? plan(collect(below(nodes), nodeType, state), state) : null;
  } catch (error) {
    if (!(error instanceof NotPlanned)) throw error;
    planned = null;
  }
  // One node stands for the field when it is the only one; merged fields (fragments) are planned every time.
  if (!state.variable && info.fieldNodes.length === 1) plans.set(key, planned);
  return planned ?? undefined;
}

/** The plan under an `organisations` connection: the organisations' people and what is asked below them. */
export function organisationConnectionPlan(info: GraphQLResolveInfo): OrganisationPlan | undefined {
  return connectionPlan(info, 'Organisation', (fields, state) => {
    const plan = organisationPlan(fields, state);
    return plan.roles ? plan : null;
  });
}

/** The plan under a `profiles` connection: the people's experiences and what is asked below them. */
export function profileConnectionPlan(info: GraphQLResolveInfo): ProfilePlan | undefined {
  return connectionPlan(info, 'Profile', (fields, state) => {
    const plan = profilePlan(fields, state);
    return plan.experiences || plan.articles ? plan : null;
  });
}
