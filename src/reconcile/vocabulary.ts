import type { DataArea } from '../auth/plans.ts';
import type { OrganisationInput, ProfileInput, ResolveField } from '../domain/resolve/types.ts';

/** The reconciliation types: what a query's `type` names, and each candidate carries. */
export const reconcileTypes = [
  { id: 'Organisation', name: 'Organisation', area: 'organisations' },
  { id: 'Profile', name: 'Person', area: 'people' },
] as const satisfies readonly { id: string; name: string; area: DataArea }[];

export type ReconcileTypeId = (typeof reconcileTypes)[number]['id'];

/** A property a query may carry (`pid`), the resolve input field it fills and what it means. */
export interface ReconcileProperty {
  id: string;
  name: string;
  description: string;
}

const organisationProperties = {
  name: { field: 'name', name: 'Name', description: 'The name, when the query text is not given.' },
  domain: { field: 'domain', name: 'Domain', description: 'A domain: example.com.' },
  website: {
    field: 'website',
    name: 'Website',
    description: 'A website address; www., the scheme and the path are set aside.',
  },
  ticker: {
    field: 'ticker',
    name: 'Ticker',
    description: 'A ticker with or without its exchange: AAPL, NASDAQ:AAPL.',
  },
  country: { field: 'country', name: 'Country', description: 'An ISO 3166 code or an English name.' },
  city: { field: 'city', name: 'City', description: 'The city of the head office.' },
} as const satisfies Record<string, { field: keyof OrganisationInput; name: string; description: string }>;

const profileProperties = {
  name: { field: 'name', name: 'Name', description: 'The full name, when the query text is not given.' },
  first_name: { field: 'firstName', name: 'First name', description: 'The given name.' },
  last_name: { field: 'lastName', name: 'Last name', description: 'The family name.' },
  linkedin_url: {
    field: 'linkedinUrl',
    name: 'LinkedIn URL',
    description: 'A LinkedIn profile address in any of its forms.',
  },
  email: { field: 'email', name: 'E-mail', description: 'An e-mail address.' },
  organisation: {
    field: 'organisation',
    name: 'Organisation',
    description: 'A current or past organisation: its name, or its reference (a reconciled value).',
  },
  title: { field: 'title', name: 'Title', description: 'The job title.' },
} as const satisfies Record<string, { field: keyof ProfileInput; name: string; description: string }>;

/** Each type's properties by `pid`. */
export const reconcileProperties: Record<
  ReconcileTypeId,
  Record<string, { field: ResolveField; name: string; description: string }>
> = { Organisation: organisationProperties, Profile: profileProperties };

/** Every property of every type once, for the property suggest service. */
export function allProperties(): ReconcileProperty[] {
  const seen = new Map<string, ReconcileProperty>();
  for (const type of reconcileTypes) {
    for (const [id, property] of Object.entries(reconcileProperties[type.id])) {
      if (!seen.has(id)) seen.set(id, { id, name: property.name, description: property.description });
    }
  }
  return [...seen.values()];
}

/** The wire name of a resolve field: `linkedinUrl` → `linkedin_url`. */
export function wireField(field: ResolveField): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
