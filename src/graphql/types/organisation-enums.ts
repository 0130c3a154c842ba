import { activityPeriods, activityTypes } from '../../domain/organisations/find-organisations.ts';
import { relationshipTypes } from '../../domain/ownership/organisation-ownership.ts';
import {
  organisationStatuses,
  scoreDimensions,
  summaryTypes,
} from '../../domain/vocabulary/organisations.ts';
import { builder } from '../builder.ts';

/**
 * A GraphQL enum over a closed set of stored values: names in upper case (GraphQL's convention),
 * values as stored, so resolvers and domain filters pass them through unchanged.
 */
function upperEnum<const Values extends readonly string[]>(
  name: string,
  values: Values,
  description: string,
  describe?: Partial<Record<Values[number], string>>,
) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(
      values.map((value) => [
        value.toUpperCase(),
        { value, description: describe?.[value as Values[number]] },
      ]),
    ) as Record<Uppercase<Values[number]>, { value: Values[number]; description?: string }>,
  });
}

export const OrganisationStatusEnum = upperEnum(
  'OrganisationStatus',
  organisationStatuses,
  'The state of an organisation (REST `status`, the same values in lower case).',
  {
    active: 'Operating.',
    merged: 'Merged into another organisation.',
    dormant: 'Dormant: not trading, though not dissolved.',
    dissolved: 'Dissolved: no longer exists.',
    unknown: 'The state is not known.',
  },
);

export const ScoreDimensionEnum = upperEnum(
  'ScoreDimension',
  scoreDimensions,
  'A dimension an organisation is scored on, from 1 to 100 (REST `score_dimension`, the same values in lower case).',
  {
    growth_momentum: 'Growth momentum.',
    financial_strength: 'Financial strength.',
    industry_health: 'Health of the organisation’s industry.',
    management_strength: 'Strength of the management team.',
    customer_sentiment: 'Customer sentiment.',
    ipo_readiness: 'Readiness for an initial public offering.',
    ma_attractiveness: 'Attractiveness for mergers and acquisitions.',
  },
);

export const SummaryTypeEnum = upperEnum('SummaryType', summaryTypes, 'Whose assets an AUM record counts.', {
  client: "The adviser's clients' assets.",
  fund: "The fund's own assets.",
});

export const RelationshipTypeEnum = upperEnum(
  'RelationshipType',
  relationshipTypes,
  'How an owner relates to an organisation it owns, seen from the side that lists it.',
  {
    parent: 'The owner is the parent (listed among the owned organisation’s owners).',
    subsidiary: 'The owned organisation is a subsidiary (a parent link seen from the parent).',
    minority_owner: 'A minority holding; reads the same from both sides.',
    joint_venture_partner: 'A joint-venture partner; reads the same from both sides.',
    associate: 'An associate; reads the same from both sides.',
    affiliate: 'An affiliate; reads the same from both sides.',
  },
);

export const ActivityTypeEnum = upperEnum(
  'ActivityType',
  activityTypes,
  'A kind of recorded activity the organisation list can filter on.',
  {
    move: 'A person appointed to or departing from the organisation.',
    funding: 'A funding round.',
    public_offering: 'A public offering.',
    client_summary: 'An assets-under-management record.',
  },
);

export const ActivityPeriodEnum = upperEnum(
  'ActivityPeriod',
  activityPeriods,
  'How recent activity must be.',
  {
    week: 'Within the last 7 days.',
    month: 'Within the last 30 days.',
    quarter: 'Within the last 91 days.',
    year: 'Within the last 365 days.',
  },
);

export const OrganisationKindEnum = upperEnum(
  'OrganisationKind',
  ['funds', 'all'] as const,
  'Which organisations to list; without it funds are left out.',
  { funds: 'Only funds.', all: 'Funds and everything else.' },
);
