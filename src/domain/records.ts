import type { Annotation as AnnotationRow, Article as ArticleRow } from '../db/schema/articles.ts';
import type { Event as EventRow } from '../db/schema/events.ts';
import type {
  ClientSummary as ClientSummaryRow,
  OrganisationAddress as OrganisationAddressRow,
  OrganisationAlias as OrganisationAliasRow,
  OrganisationDomain as OrganisationDomainRow,
  OrganisationPhone as OrganisationPhoneRow,
  Organisation as OrganisationRow,
  OrganisationScore as OrganisationScoreRow,
  OrganisationTicker as OrganisationTickerRow,
} from '../db/schema/organisations.ts';
import type { ProfileStake as ProfileStakeRow } from '../db/schema/ownership.ts';
import type {
  Experience as ExperienceRow,
  ProfileEmail as ProfileEmailRow,
  Profile as ProfileRow,
} from '../db/schema/profiles.ts';
import type { Industry as IndustryRow, Occupation as OccupationRow } from '../db/schema/reference.ts';
import type { SavedSearch as SavedSearchRow } from '../db/schema/searches.ts';

// The records the domain hands to both transports. They are the stored rows today; naming them here keeps the
// transports off the storage schema, so that a record can part from its row without touching them.
export type Organisation = OrganisationRow;
export type OrganisationAlias = OrganisationAliasRow;
export type OrganisationTicker = OrganisationTickerRow;
export type OrganisationDomain = OrganisationDomainRow;
export type OrganisationPhone = OrganisationPhoneRow;
export type OrganisationAddress = OrganisationAddressRow;
export type OrganisationScore = OrganisationScoreRow;
export type ClientSummary = ClientSummaryRow;
export type Profile = ProfileRow;
export type ProfileEmail = ProfileEmailRow;
export type Experience = ExperienceRow;
export type Article = ArticleRow;
export type Annotation = AnnotationRow;
export type Event = EventRow;
export type ProfileStake = ProfileStakeRow;
export type Industry = IndustryRow;
export type Occupation = OccupationRow;
export type SavedSearch = SavedSearchRow;
