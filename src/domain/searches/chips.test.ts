import { describe, expect, it } from 'vitest';
import { fingerprintChips, groupConditions, maxChips, parseChips, toStoredChips } from './chips.ts';

const organisation = '0b5f6a0e-9a3b-4c59-8d43-1d0c3c1f2a77';
const condition = (fieldType: string, value: string, operator = 'EQUAL') => ({
  fieldType,
  label: `${fieldType} ${value}`,
  value,
  operator,
});
const join = (value: string) => ({ fieldType: 'Operator', label: value, value });

function chipsOf(input: unknown) {
  const parsed = parseChips(input);
  if (!parsed.valid) throw new Error(`expected valid chips, got: ${parsed.reason}`);
  return parsed;
}

describe('parseChips', () => {
  it('accepts alternating conditions and joins and normalises operators, joins, values and UUIDs', () => {
    const parsed = chipsOf([
      condition('Organisation', ` ${organisation.toUpperCase()} `, 'Equal'),
      join('or'),
      condition('EventType', 'funding', 'equal'),
    ]);
    expect(toStoredChips(parsed.chips)).toEqual([
      {
        fieldType: 'Organisation',
        label: `Organisation  ${organisation.toUpperCase()} `,
        value: organisation,
        operator: 'EQUAL',
      },
      { fieldType: 'Operator', label: 'or', value: 'OR' },
      { fieldType: 'EventType', label: 'EventType funding', value: 'funding', operator: 'EQUAL' },
    ]);
    expect(parsed.ignoredFieldTypes).toEqual([]);
  });

  it('accepts a single condition chip', () => {
    expect(chipsOf([condition('DealStatus', 'Completed')]).chips).toHaveLength(1);
  });

  it('lists unsupported field types once each, in order of appearance', () => {
    const parsed = chipsOf([
      condition('Person', 'x'),
      join('AND'),
      condition('MoveType', 'Appointment'),
      join('AND'),
      condition('Industry', '40'),
      join('OR'),
      condition('Person', 'y'),
    ]);
    expect(parsed.ignoredFieldTypes).toEqual(['Person', 'Industry']);
  });

  it('drops unknown extra properties from the stored form', () => {
    const parsed = chipsOf([{ ...condition('DealType', 'Merger'), colour: 'blue' }]);
    expect(toStoredChips(parsed.chips)).toEqual([
      { fieldType: 'DealType', label: 'DealType Merger', value: 'Merger', operator: 'EQUAL' },
    ]);
  });

  const malformed: [string, unknown][] = [
    ['not an array', { fieldType: 'EventType' }],
    ['an empty list', []],
    ['a join first', [join('AND'), condition('EventType', 'deal')]],
    ['a join last', [condition('EventType', 'deal'), join('AND')]],
    ['only a join', [join('OR')]],
    ['two conditions in a row', [condition('EventType', 'deal'), condition('DealStatus', 'Completed')]],
    [
      'two joins in a row',
      [condition('EventType', 'deal'), join('AND'), join('OR'), condition('DealStatus', 'Completed')],
    ],
    ['a missing label', [{ fieldType: 'EventType', value: 'deal', operator: 'EQUAL' }]],
    ['a missing operator', [{ fieldType: 'EventType', label: 'Deal', value: 'deal' }]],
    ['a missing value', [{ fieldType: 'EventType', label: 'Deal', operator: 'EQUAL' }]],
    ['a missing fieldType', [{ label: 'Deal', value: 'deal', operator: 'EQUAL' }]],
    ['a numeric value', [{ fieldType: 'EventType', label: 'Deal', value: 7, operator: 'EQUAL' }]],
    ['a null label', [{ fieldType: 'EventType', label: null, value: 'deal', operator: 'EQUAL' }]],
    ['an empty value', [condition('EventType', '  ')]],
    ['a chip that is not an object', ['EventType=deal']],
    ['a null chip', [null]],
    ['an Organisation value that is not a UUID', [condition('Organisation', 'Acme Ltd')]],
    ['an Occupation value that is not a UUID', [condition('Occupation', '12345')]],
    ['an unknown operator', [condition('EventType', 'deal', 'CONTAINS')]],
    [
      'a join other than AND/OR',
      [condition('EventType', 'deal'), join('XOR'), condition('EventType', 'move')],
    ],
    [
      'a join without a label',
      [
        condition('EventType', 'deal'),
        { fieldType: 'Operator', value: 'AND' },
        condition('EventType', 'move'),
      ],
    ],
    [
      'too many chips',
      Array.from({ length: maxChips + 1 }, (_, i) => (i % 2 ? join('OR') : condition('EventType', 'deal'))),
    ],
  ];

  it.each(malformed)('refuses %s', (_case, input) => {
    expect(parseChips(input).valid).toBe(false);
  });

  it('accepts exactly the maximum number of chips', () => {
    const chips = Array.from({ length: maxChips - 1 }, (_, i) =>
      i % 2 ? join('OR') : condition('EventType', 'deal'),
    );
    expect(parseChips(chips).valid).toBe(true);
  });
});

describe('fingerprintChips', () => {
  const base = [condition('EventType', 'deal'), join('AND'), condition('DealStatus', 'Completed')];

  it('is the same for chips that differ only in operator or join case and surrounding spaces', () => {
    const variant = [
      { ...condition('EventType', 'deal', 'equal') },
      { ...join('and'), label: 'AND' },
      { ...condition('DealStatus', ' Completed ', 'Equal'), label: 'DealStatus Completed' },
    ];
    expect(fingerprintChips(chipsOf(variant).chips)).toBe(fingerprintChips(chipsOf(base).chips));
  });

  it('differs when a label, a value, the order or a join differs', () => {
    const reference = fingerprintChips(chipsOf(base).chips);
    const variants = [
      [{ ...base[0]!, label: 'Deals' }, base[1], base[2]],
      [condition('EventType', 'move'), base[1], base[2]],
      [base[2], base[1], base[0]],
      [base[0], join('OR'), base[2]],
    ];
    for (const variant of variants) expect(fingerprintChips(chipsOf(variant).chips)).not.toBe(reference);
  });
});

describe('groupConditions', () => {
  it('binds AND tighter than OR', () => {
    const stored = toStoredChips(
      chipsOf([
        condition('Organisation', organisation),
        join('OR'),
        condition('EventType', 'funding'),
        join('AND'),
        condition('DealStatus', 'Completed'),
      ]).chips,
    );
    expect(groupConditions(stored).map((group) => group.map((chip) => chip.fieldType))).toEqual([
      ['Organisation'],
      ['EventType', 'DealStatus'],
    ]);
  });
});
