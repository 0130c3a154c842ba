import { eq, getTableColumns, inArray } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { preparedByReferences } from '../../db/prepared-query.ts';
import { articleOrganisationsTable } from '../../db/schema/articles.ts';
import { organisationsTable } from '../../db/schema/organisations.ts';
import { manyByKey, oneByKey } from '../batch.ts';
import {
  listAddresses,
  listAliases,
  listClientSummaries,
  listClientSummariesByReference,
  listDomains,
  listIndustries,
  listLatestClientSummaries,
  listPhones,
  listScores,
  listTickers,
} from './organisation-parts.ts';
import { listOrganisationRoles } from './organisation-people.ts';

type References = readonly string[];

/** The organisations each article names, by name; each row carries the article it came from. */
function listOrganisationsOfArticles(db: Database, articleReferences: References) {
  return db
    .select({
      ...getTableColumns(organisationsTable),
      articleReference: articleOrganisationsTable.articleReference,
    })
    .from(articleOrganisationsTable)
    .innerJoin(
      organisationsTable,
      eq(organisationsTable.reference, articleOrganisationsTable.organisationReference),
    )
    .where(inArray(articleOrganisationsTable.articleReference, [...articleReferences]))
    .orderBy(organisationsTable.name, organisationsTable.reference);
}

const findOrganisationsByReference = preparedByReferences('orgraph_organisations_by_reference', (db, match) =>
  db.select().from(organisationsTable).where(match(organisationsTable.reference)),
);

export function createOrganisationLoaders(db: Database) {
  const byOrganisation = (row: { organisationReference: string }) => row.organisationReference;
  return {
    organisationByReference: oneByKey(
      (references: References) => findOrganisationsByReference(db, references),
      (row) => row.reference,
    ),
    aliasesByOrganisation: manyByKey((references: References) => listAliases(db, references), byOrganisation),
    tickersByOrganisation: manyByKey((references: References) => listTickers(db, references), byOrganisation),
    domainsByOrganisation: manyByKey((references: References) => listDomains(db, references), byOrganisation),
    phonesByOrganisation: manyByKey((references: References) => listPhones(db, references), byOrganisation),
    industriesByOrganisation: manyByKey(
      (references: References) => listIndustries(db, references),
      byOrganisation,
    ),
    addressesByOrganisation: manyByKey(
      (references: References) => listAddresses(db, references),
      byOrganisation,
    ),
    scoresByOrganisation: manyByKey((references: References) => listScores(db, references), byOrganisation),
    /** Newest first. */
    clientSummariesByOrganisation: manyByKey(
      (references: References) => listClientSummaries(db, references),
      byOrganisation,
    ),
    latestClientSummaryByOrganisation: oneByKey(
      (references: References) => listLatestClientSummaries(db, references),
      byOrganisation,
    ),
    clientSummaryByReference: oneByKey(
      (references: References) => listClientSummariesByReference(db, references),
      (row) => row.reference,
    ),
    /** Every role at the organisation with its person; `partitionRoles` splits them into the people lists. */
    rolesByOrganisation: manyByKey(
      (references: References) => listOrganisationRoles(db, references),
      byOrganisation,
    ),
    organisationsByArticle: manyByKey(
      (references: References) => listOrganisationsOfArticles(db, references),
      (row) => row.articleReference,
    ),
  };
}
