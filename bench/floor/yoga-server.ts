import { createServer } from 'node:http';
import { createSchema, createYoga } from 'graphql-yoga';
import postgres from 'postgres';
import { isExecutiveTitle } from '../../src/domain/organisations/executive-title.ts';
import { nestedRolesRows, type OrgraphRole } from '../graph-reads.ts';

/**
 * The least a graphql-yoga server can do for the bench's brief record and nested roles: Yoga's defaults, a root
 * resolver per read that fetches everything the answer holds through the `postgres` driver and hands Yoga plain
 * objects, no authentication, limits, logging or plan checks. The nested read fetches one statement per level
 * (`FLOOR_NESTED=levels`, as the bench's hand-written driver reads do) or one statement that builds the whole
 * tree as JSON in PostgreSQL (`FLOOR_NESTED=json`, as PostGraphile does). Started by floor.ts.
 */
const sql = postgres(process.env.DATABASE_URL ?? '', { max: Number(process.env.DATABASE_POOL_MAX ?? 16) });

const schema = createSchema({
  typeDefs: /* GraphQL */ `
    scalar UUID
    type Organisation {
      reference: UUID!
      name: String!
      description: String
      employees: Int
      status: String!
      verified: Boolean!
      confidence: Int
    }
    type OrganisationRole {
      title: String!
      startDate: String
      endDate: String
      profile: Profile!
    }
    type Profile {
      fullName: String!
      experiences: [Experience!]!
    }
    type Experience {
      occupationTitle: String!
      organisation: Organisation
    }
    type OrganisationWithRoles {
      name: String!
      currentExecutives: [OrganisationRole!]!
      currentProfessionals: [OrganisationRole!]!
      alumni: [OrganisationRole!]!
    }
    type Edge {
      node: OrganisationWithRoles!
    }
    type Connection {
      edges: [Edge!]!
    }
    input Filter {
      showEmpty: Boolean
    }
    type Query {
      organisation(reference: UUID!): Organisation
      organisations(first: Int!, after: String, filter: Filter): Connection!
    }
  `,
  resolvers: {
    Query: {
      organisation: async (_: unknown, args: { reference: string }) => {
        const [row] = await sql`
          select reference, name, description, employees, status, verified, confidence
            from organisations where reference = ${args.reference}`;
        return row ?? null;
      },
      organisations: async (_: unknown, args: { first: number; after: string }) => {
        const after = JSON.parse(Buffer.from(args.after, 'base64url').toString('utf8')) as Key;
        const page =
          nested === 'json' ? await treeAsJson(after, args.first) : await treeByLevels(after, args.first);
        return { edges: page.map(({ name, roles }) => ({ node: { name, ...splitRoles(roles) } })) };
      },
    },
  },
});

type Key = { name: string; reference: string };
type Role = OrgraphRole;

const nested = process.env.FLOOR_NESTED ?? 'levels';

function splitRoles(roles: readonly Role[]) {
  const current = roles.filter((role) => role.endDate === null);
  return {
    currentExecutives: current.filter((role) => isExecutiveTitle(role.title)),
    currentProfessionals: current.filter((role) => !isExecutiveTitle(role.title)),
    alumni: roles.filter((role) => role.endDate !== null),
  };
}

async function treeByLevels(after: Key, first: number): Promise<{ name: string; roles: Role[] }[]> {
  const { organisations, roles, experiences, names } = await nestedRolesRows(sql, after, first);
  const placeOf = new Map(names.map((o) => [o.reference as string, { name: o.name as string }]));
  const experiencesOf = new Map<string, Role['profile']['experiences']>();
  for (const e of experiences) {
    const list = experiencesOf.get(e.profile_reference) ?? [];
    list.push({
      occupationTitle: e.occupation_title,
      organisation: placeOf.get(e.organisation_reference) ?? null,
    });
    experiencesOf.set(e.profile_reference, list);
  }
  const rolesOf = new Map<string, Role[]>();
  for (const r of roles) {
    const list = rolesOf.get(r.organisation_reference) ?? [];
    list.push({
      title: r.occupation_title,
      startDate: r.start_date,
      endDate: r.end_date,
      profile: { fullName: r.full_name, experiences: experiencesOf.get(r.profile_reference) ?? [] },
    });
    rolesOf.set(r.organisation_reference, list);
  }
  return organisations.map((o) => ({ name: o.name, roles: rolesOf.get(o.reference) ?? [] }));
}

async function treeAsJson(after: Key, first: number): Promise<{ name: string; roles: Role[] }[]> {
  const [row] = await sql`
    with page as (
      select reference, name from organisations
       where not is_fund and (name, reference) > (${after.name}, ${after.reference}::uuid)
       order by name, reference limit ${first})
    select coalesce(json_agg(json_build_object('name', p.name, 'roles', (
      select coalesce(json_agg(json_build_object(
        'title', e.occupation_title, 'startDate', e.start_date, 'endDate', e.end_date,
        'profile', json_build_object('fullName', pr.full_name, 'experiences', (
          select coalesce(json_agg(json_build_object('occupationTitle', x.occupation_title,
            'organisation', (select json_build_object('name', o.name) from organisations o
                              where o.reference = x.organisation_reference))), '[]')
            from experiences x where x.profile_reference = pr.reference)))), '[]')
        from experiences e join profiles pr on pr.reference = e.profile_reference
       where e.organisation_reference = p.reference)) order by p.name, p.reference), '[]') as tree
    from page p`;
  return row?.tree ?? [];
}

// `FLOOR_VARIANT=jit`: graphql-jit's compiled executor as well, and Yoga's CORS and landing page off (needs
// `npm install --no-save @envelop/graphql-jit`, not a dependency of orgraph).
const jit = process.env.FLOOR_VARIANT === 'jit';
const plugins = jit ? [(await import('@envelop/graphql-jit' as string)).useGraphQlJit()] : [];
const yoga = createYoga({
  schema,
  logging: false,
  graphiql: false,
  maskedErrors: true,
  ...(jit ? { cors: false, landingPage: false, plugins } : {}),
});
const server = createServer(yoga);
server.listen(Number(process.env.PORT), '127.0.0.1', () => {
  process.stdout.write(`ready ${process.env.PORT} ${process.pid}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void sql.end({ timeout: 1 }).then(() => process.exit(0));
});
