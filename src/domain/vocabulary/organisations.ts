/** Closed sets and shapes of organisation records, named once for storage and both transports. */

export const organisationStatuses = ['active', 'merged', 'dormant', 'dissolved', 'unknown'] as const;

export const scoreDimensions = [
  'growth_momentum',
  'financial_strength',
  'industry_health',
  'management_strength',
  'customer_sentiment',
  'ipo_readiness',
  'ma_attractiveness',
] as const;

/** An organisation's two addresses. */
export const addressKinds = ['company', 'mailing'] as const;

/** What an assets-under-management record counts. */
export const summaryTypes = ['client', 'fund'] as const;

export type OrganisationStatus = (typeof organisationStatuses)[number];
export type ScoreDimension = (typeof scoreDimensions)[number];
export type AddressKind = (typeof addressKinds)[number];
export type SummaryType = (typeof summaryTypes)[number];

/** One row of an assets-under-management record, stored as the interface shapes it. */
export interface ClientSummaryEntry {
  client_type: string;
  client_type_label: string;
  number_of_clients: number | null;
  fewer_than_5: boolean;
  regulatory_assets_under_management: number | null;
}
