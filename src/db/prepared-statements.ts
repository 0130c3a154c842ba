/**
 * Chooses which statements the driver prepares. Drizzle sends every statement unprepared, and postgres.js then
 * spends a round trip describing a statement with parameters before it binds them, while PostgreSQL parses it
 * anew each time. A prepared statement is parsed once per connection and then costs one round trip.
 *
 * postgres.js keeps each prepared statement on its connection until the connection is recycled, so only a
 * bounded number of distinct texts are prepared: the first `limit` texts seen (the service's queries have
 * fixed texts, with their values as parameters); any text after that runs unprepared, as before.
 */
export class StatementPreparer {
  private readonly prepared = new Set<string>();

  constructor(private readonly limit = 500) {}

  /** Whether to prepare this statement text. */
  shouldPrepare(text: string): boolean {
    if (this.prepared.has(text)) return true;
    if (valueDependent.test(text)) return false;
    if (this.prepared.size >= this.limit) return false;
    this.prepared.add(text);
    return true;
  }

  /** How many distinct texts are prepared. */
  get size(): number {
    return this.prepared.size;
  }
}

/**
 * A page's LIMIT and OFFSET as parameters: after five runs PostgreSQL may switch a prepared statement to a
 * generic plan, which cannot see how few rows the page needs and how far it skips, and for the event search
 * picked plans far dearer in database CPU (bench/NOTES.md 12). These statements are planned for their values
 * each time.
 */
const valueDependent = /\b(limit|offset) \$\d/i;
