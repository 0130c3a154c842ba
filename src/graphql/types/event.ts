import type { EventType } from '../../db/schema/events.ts';
import { builder } from '../builder.ts';
import {
  ClientSummaryEventRef,
  DealEventRef,
  EventRef,
  FundingEventRef,
  MoveEventRef,
  PublicOfferingEventRef,
} from '../refs.ts';

const refByType = {
  move: MoveEventRef,
  funding: FundingEventRef,
  deal: DealEventRef,
  public_offering: PublicOfferingEventRef,
  client_summary: ClientSummaryEventRef,
} satisfies Record<EventType, unknown>;

builder.interfaceType(EventRef, {
  description: 'A business event; one implementing type per event type.',
  interfaces: [builder.nodeInterfaceRef()],
  resolveType: (event) => refByType[event.type].name,
  fields: (t) => ({
    reference: t.expose('reference', { type: 'UUID', description: 'The spec reference (UUID).' }),
  }),
});

for (const [type, ref] of Object.entries(refByType)) {
  builder.node(ref, {
    description: `An event of type \`${type}\`.`,
    authScopes: { covers: 'events' },
    interfaces: [EventRef],
    isTypeOf: (event) => (event as { type?: string }).type === type,
    id: { resolve: (event) => event.reference },
  });
}
