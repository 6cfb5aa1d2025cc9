/**
 * Validation keywords the diff compares (besides type, properties, required, enum/const, items,
 * additionalProperties and unions, which compare.ts handles). Each keyword belongs to a group; a group
 * yields the change kinds `<group>-tightened` (accepts less), `<group>-loosened` (accepts more) and,
 * where two values cannot be ordered, `<group>-changed`.
 */
import type { JsonValue } from '../load/schema-types.js';
import { stableJson } from './stable-json.js';

export type KeywordGroup =
  | 'length-limit'
  | 'item-count-limit'
  | 'property-count-limit'
  | 'numeric-range'
  | 'multiple-of'
  | 'pattern'
  | 'format'
  | 'unique-items'
  | 'not'
  | 'pattern-properties'
  | 'property-names';

/** How a keyword's values order: a lower bound (larger = tighter), an upper bound, or a plain value. */
type Order = 'min' | 'max' | 'flag' | 'divisor' | 'opaque';

export const KEYWORDS: Readonly<Record<string, { group: KeywordGroup; order: Order }>> = {
  minLength: { group: 'length-limit', order: 'min' },
  maxLength: { group: 'length-limit', order: 'max' },
  minItems: { group: 'item-count-limit', order: 'min' },
  maxItems: { group: 'item-count-limit', order: 'max' },
  minProperties: { group: 'property-count-limit', order: 'min' },
  maxProperties: { group: 'property-count-limit', order: 'max' },
  minimum: { group: 'numeric-range', order: 'min' },
  exclusiveMinimum: { group: 'numeric-range', order: 'min' },
  maximum: { group: 'numeric-range', order: 'max' },
  exclusiveMaximum: { group: 'numeric-range', order: 'max' },
  multipleOf: { group: 'multiple-of', order: 'divisor' },
  pattern: { group: 'pattern', order: 'opaque' },
  format: { group: 'format', order: 'opaque' },
  uniqueItems: { group: 'unique-items', order: 'flag' },
  not: { group: 'not', order: 'opaque' },
  patternProperties: { group: 'pattern-properties', order: 'opaque' },
  propertyNames: { group: 'property-names', order: 'opaque' },
};

export const KEYWORD_GROUPS: readonly KeywordGroup[] = [...new Set(Object.values(KEYWORDS).map((k) => k.group))];

/** Groups whose values can be incomparable (neither accepts all the other does). */
export const CHANGEABLE_GROUPS: ReadonlySet<KeywordGroup> = new Set([
  'multiple-of',
  'pattern',
  'format',
  'not',
  'pattern-properties',
  'property-names',
]);

export type Tightness = 'tightened' | 'loosened' | 'changed';

export interface KeywordChange {
  keyword: string;
  group: KeywordGroup;
  tightness: Tightness;
  old: JsonValue;
  new: JsonValue;
}

/**
 * The keyword changes between two nodes' keyword values (absent keywords are `undefined`). Draft-04
 * boolean `exclusiveMinimum`/`exclusiveMaximum` are compared as plain values.
 */
export function compareKeywords(
  o: Readonly<Record<string, unknown>>,
  n: Readonly<Record<string, unknown>>,
): KeywordChange[] {
  const out: KeywordChange[] = [];
  for (const [keyword, { group, order }] of Object.entries(KEYWORDS)) {
    // A flag's absence means false: `uniqueItems: false` added changes nothing.
    const a = order === 'flag' ? o[keyword] === true : o[keyword];
    const b = order === 'flag' ? n[keyword] === true : n[keyword];
    if (a === undefined && b === undefined) continue;
    if (a !== undefined && b !== undefined && stableJson(a) === stableJson(b)) continue;
    const tightness = compareValues(order, a, b);
    out.push({ keyword, group, tightness, old: (a ?? null) as JsonValue, new: (b ?? null) as JsonValue });
  }
  return out;
}

function compareValues(order: Order, a: unknown, b: unknown): Tightness {
  if (order === 'flag') return b === true ? 'tightened' : 'loosened';
  if (a === undefined) return 'tightened';
  if (b === undefined) return 'loosened';
  if (typeof a !== 'number' || typeof b !== 'number') return 'changed';
  if (order === 'min') return b > a ? 'tightened' : 'loosened';
  if (order === 'max') return b < a ? 'tightened' : 'loosened';
  if (order === 'divisor') {
    if (isMultiple(b, a)) return 'tightened';
    if (isMultiple(a, b)) return 'loosened';
  }
  return 'changed';
}

function isMultiple(x: number, of: number): boolean {
  const q = x / of;
  return Math.abs(q - Math.round(q)) < 1e-9;
}
