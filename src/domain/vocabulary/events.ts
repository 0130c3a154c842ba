/** Event types and the type-specific details an event carries, named once for storage and both transports. */

export const eventTypes = ['move', 'funding', 'deal', 'public_offering', 'client_summary'] as const;

export interface Compensation {
  type: string;
  value: number;
  value_type: string;
  value_suffix: string | null;
}

/** Type-specific data kept as the spec shapes it; linked records live in columns. */
export interface EventDetails {
  /** move */
  compensations?: Compensation[];
  /** funding */
  round?: string;
  value?: number;
  currency_code?: string;
  /** deal */
  deal?: {
    type: string;
    status: string;
    value: number | null;
    value_usd: number | null;
    announcement_date: string | null;
    completion_date: string | null;
    terms: string | null;
  };
  /** public_offering */
  offering?: {
    exchange: string;
    ticker: string;
    price: number | null;
    shares_offered: number | null;
    currency_code: string;
  };
}

export type EventType = (typeof eventTypes)[number];
