import type { Random } from './random.ts';

/** Date helpers; every generated date is relative to the seed's anchor day so a day's runs are identical. */

export const dayMs = 86_400_000;

/** Midnight UTC of the day `date` falls on. */
export function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/** `days` (fractional allowed) before `anchor`. */
export function daysBefore(anchor: Date, days: number): Date {
  return new Date(anchor.getTime() - Math.round(days * dayMs));
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + Math.round(days * dayMs));
}

/** `YYYY-MM-DD`, the form of `date` columns. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function daysBetween(from: Date, to: Date): number {
  return (to.getTime() - from.getTime()) / dayMs;
}

export function earliest(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}

/** A date up to `maxDays` after `date`, but never after `anchor` (then shortly before it). */
export function shortlyAfter(anchor: Date, random: Random, date: Date, maxDays: number): Date {
  const later = addDays(date, random.float(0, maxDays));
  return later.getTime() > anchor.getTime() ? daysBefore(anchor, random.float(0, 0.9)) : later;
}
