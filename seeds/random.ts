/**
 * The seeded randomness behind the dataset. Every generated record draws from its own stream, keyed by a
 * salt (what kind of record) and an index, so any record can be regenerated on its own: chunk sizes do not
 * change the output, and a generator can look up another record (its name, its reference) without storing it.
 */

/** Changing this changes every generated row; bump it only on purpose. */
const masterSeed = 0x6f726772; // "orgr"

const salts = new Map<string, number>();

/** A stable 32-bit number for a salt name (FNV-1a), so salts read as words in the code. */
export function saltOf(name: string): number {
  let salt = salts.get(name);
  if (salt === undefined) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < name.length; i += 1) {
      hash ^= name.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
    salt = hash >>> 0;
    salts.set(name, salt);
  }
  return salt;
}

/** Small fast PRNG (Chris Doty-Humphrey's sfc32) with the helpers the generators need. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** Distinct (salt, index, sub) triples give distinct starting states, hence independent streams. */
  constructor(salt: number, index: number, sub = 0) {
    this.a = salt | 0;
    this.b = index | 0;
    this.c = sub | 0;
    this.d = masterSeed;
    for (let i = 0; i < 15; i += 1) this.uint32();
  }

  /** The stream for one record: `Random.for('organisation', 42)`. */
  static for(salt: string | number, index: number, sub = 0): Random {
    return new Random(typeof salt === 'number' ? salt : saltOf(salt), index, sub);
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick on an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks a value by relative weight: `weighted([['a', 3], ['b', 1]])`. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of entries) total += weight;
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1]![0];
  }

  /** `count` distinct items in random order (fewer when the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) {
      const i = Math.floor(this.next() * pool.length);
      out.push(pool[i] as T);
      pool[i] = pool[pool.length - 1] as T;
      pool.pop();
    }
    return out;
  }

  /** Log-uniform: as many values between 10 and 100 as between 100 and 1,000. */
  logUniform(min: number, max: number): number {
    return Math.exp(this.float(Math.log(min), Math.log(max)));
  }

  /** A version-4 UUID drawn from this stream. */
  uuid(): string {
    return formatUuid(this.uint32(), this.uint32(), this.uint32(), this.uint32());
  }
}

const hexBytes = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function hex8(word: number): string {
  return (
    hexBytes[(word >>> 24) & 0xff]! +
    hexBytes[(word >>> 16) & 0xff]! +
    hexBytes[(word >>> 8) & 0xff]! +
    hexBytes[word & 0xff]!
  );
}

/** Formats 128 random bits as a valid version-4, variant-1 UUID. */
export function formatUuid(w0: number, w1: number, w2: number, w3: number): string {
  const a = hex8(w0);
  const b = hex8(((w1 & 0xffff0fff) | 0x00004000) >>> 0);
  const c = hex8(((w2 & 0x3fffffff) | 0x80000000) >>> 0);
  const d = hex8(w3);
  return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
}

const uuidSub = 0x75756964; // "uuid"

/** The reference of record `index` of a kind; other generators call it to point at that record. */
export function uuidFor(salt: string | number, index: number, sub = 0): string {
  const random = Random.for(salt, index, uuidSub ^ Math.imul(sub + 1, 0x9e3779b1));
  return random.uuid();
}

/** A float in [0, 1) that depends only on (salt, index): used for set membership such as "is a fund". */
export function unitFor(salt: string | number, index: number): number {
  return Random.for(salt, index, 0x756e6974).next();
}

/**
 * A bijection on [0, n): maps 0, 1, 2, ... to distinct, scattered values. Used where each record must get
 * a different partner (each story its own subject, each ownership link its own owned organisation).
 */
export function scatter(index: number, n: number, salt: string): number {
  if (n <= 1) return 0;
  const s = saltOf(salt);
  let step = Math.floor(n * 0.6180339887) + (s % 97);
  while (gcd(step % n, n) !== 1) step += 1;
  return ((((step % n) * (index % n)) % n) + (s % n)) % n;
}

function gcd(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}
