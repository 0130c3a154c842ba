import { maxResolveInputs } from '../domain/resolve/types.ts';
import { docsPath } from '../http/paths.ts';
import { reconcileTypes } from './vocabulary.ts';

/** The preview card's size, which the manifest tells the client to frame it in. */
export const previewSize = { width: 400, height: 160 };

/**
 * The service manifest (Reconciliation Service API 0.2) for the endpoint at `base`, an absolute URL on `origin`, with the token
 * when the token travels in the path, so that the suggest and preview addresses the client builds carry it too.
 */
export function manifestFor(origin: string, base: string) {
  return {
    versions: ['0.2'],
    name: 'orgraph organisations and people',
    // Names, not addresses: the same records behind two deployments are the same entities.
    identifierSpace: 'urn:orgraph:record:',
    schemaSpace: 'urn:orgraph:type:',
    documentation: `${origin}${docsPath}`,
    defaultTypes: reconcileTypes.map(({ id, name }) => ({ id, name })),
    view: { url: `${base}/preview?id={{id}}` },
    preview: { url: `${base}/preview?id={{id}}`, ...previewSize },
    suggest: {
      entity: { service_url: base, service_path: '/suggest/entity' },
      property: { service_url: base, service_path: '/suggest/property' },
    },
    batchSize: maxResolveInputs,
  };
}
