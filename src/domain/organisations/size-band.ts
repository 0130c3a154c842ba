/** Upper bounds (inclusive) of the headcount bands; above the last one the band is open-ended. */
const bandLimits = [10, 50, 200, 500, 1000, 5000, 10000] as const;

/** Every band label, smallest first; `-` stands for an unknown (zero) headcount. */
export const sizeBands = [
  '-',
  '1-10',
  '11-50',
  '51-200',
  '201-500',
  '501-1000',
  '1001-5000',
  '5001-10000',
  '10001+',
] as const;

export type SizeBand = (typeof sizeBands)[number];

/**
 * The headcount band of a recorded headcount. The seed records 0 when the headcount is unknown
 * (most funds), so 0 and anything not a positive number read as `-`.
 */
export function sizeBand(employees: number | null | undefined): SizeBand {
  if (employees == null || !Number.isFinite(employees) || employees < 1) return '-';
  let lower = 1;
  for (const upper of bandLimits) {
    if (employees <= upper) return `${lower}-${upper}` as SizeBand;
    lower = upper + 1;
  }
  return `${lower}+` as SizeBand;
}
