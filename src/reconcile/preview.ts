import { DomainError, notFound } from '../domain/errors.ts';
import type { Loaders } from '../domain/loaders.ts';
import { getOrganisation } from '../domain/organisations/get-organisation.ts';
import { getProfileRecord } from '../domain/profiles/profile-record.ts';
import type { RequestContext } from '../http/context.ts';
import { previewSize } from './manifest.ts';

type Database = RequestContext['db'];

const referencePattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a preview card shows: a title, a line under it and a few labelled facts. */
export interface PreviewCard {
  kind: 'organisation' | 'person';
  title: string;
  subtitle: string | null;
  facts: [label: string, value: string][];
  reference: string;
}

const isNotFound = (error: unknown) => error instanceof DomainError && error.code === 'NOT_FOUND';

/** The record behind a candidate's id, an organisation or a person; NOT_FOUND when it is neither. */
export async function findPreviewCard(db: Database, loaders: Loaders, id: string): Promise<PreviewCard> {
  if (!referencePattern.test(id)) throw notFound('organisation or person', id);
  try {
    const record = await getOrganisation(db, id);
    const address = record.addresses.company ?? record.addresses.mailing;
    const domain = record.domains[0]?.domain;
    const ticker = record.tickers[0];
    const facts: PreviewCard['facts'] = [];
    if (domain) facts.push(['Domain', domain]);
    if (ticker) facts.push(['Ticker', `${ticker.exchangeCode}:${ticker.value}`]);
    const place = [address?.city, address?.country].filter(Boolean).join(', ');
    if (place) facts.push(['Based in', place]);
    if (record.aliases.length) facts.push(['Also known as', record.aliases.map((a) => a.name).join(', ')]);
    return {
      kind: 'organisation',
      title: record.organisation.name,
      subtitle: record.organisation.description,
      facts,
      reference: id,
    };
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  try {
    const record = await getProfileRecord(db, loaders, id);
    const role = record.currentRole;
    const facts: PreviewCard['facts'] = [];
    if (record.profile.linkedinUrl) facts.push(['LinkedIn', record.profile.linkedinUrl]);
    return {
      kind: 'person',
      title: record.profile.fullName,
      subtitle: role
        ? `${role.experience.occupationTitle}${role.organisation ? ` at ${role.organisation.name}` : ''}`
        : null,
      facts,
      reference: id,
    };
  } catch (error) {
    if (isNotFound(error)) throw notFound('organisation or person', id);
    throw error;
  }
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => escapes[character]!);

/** The card's page: self-contained (inline style, nothing fetched), sized to the frame the manifest announces. */
export function renderPreview(card: PreviewCard): string {
  const facts = card.facts
    .map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  const subtitle = card.subtitle ? `<p>${escapeHtml(card.subtitle.slice(0, 200))}</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(card.title)}</title>
<style>
body{margin:0;font:13px/1.4 system-ui,sans-serif;color:#1a1a1a;width:${previewSize.width}px;height:${previewSize.height}px;overflow:hidden}
main{padding:8px 12px}h1{font-size:16px;margin:0 0 2px}p{margin:0 0 6px;color:#555}
dl{display:grid;grid-template-columns:auto 1fr;gap:2px 8px;margin:0}dt{color:#777}dd{margin:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
small{color:#999}
</style></head>
<body><main><h1>${escapeHtml(card.title)}</h1>${subtitle}<dl>${facts}</dl>
<small>${card.kind === 'organisation' ? 'Organisation' : 'Person'} ${escapeHtml(card.reference)}</small></main></body></html>`;
}
