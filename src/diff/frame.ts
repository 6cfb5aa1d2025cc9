/**
 * The rule frame: the one place every verdict of `mcp-typegen diff` is derived from.
 *
 * Question: does code on a side, written against the OLD schema, keep working with a peer written
 * against the NEW schema? Towards each message a side plays roles:
 * - caller / implementer of a request (sender / receiver of a notification);
 * - writer / reader of its data: the caller writes params and reads the result, the implementer reads
 *   params and writes the result, the sender writes a notification payload, the receiver reads it.
 * A change matters to an OLD writer facing a NEW reader, and to an OLD reader facing a NEW writer.
 * What can happen to a role is a `Consequence`:
 * - `rejected`: what the old writer produces may now be invalid — `yes` when the new schema accepts
 *   strictly less (or something different), `maybe` when it cannot be told;
 * - `surprise`: what the old reader receives may fall outside what it was promised — `type` (a JSON type
 *   or kind of value its code has no branch for), `absence` (something promised present may be
 *   missing), `value` (a value of a kind it handles, outside the promised set or range);
 * - `ignored`: what the old writer asks for is silently dropped (a caller's param, a declared setting).
 * Verdict: rejected `yes`, surprise `type` or `absence` → breaking; rejected `maybe`, surprise `value`
 * or ignored → potentially breaking; nothing → non-breaking.
 *
 * Data changes are described once by their `Effect` on the set of valid instances; the writer's and
 * reader's consequences follow from it (`dataConsequences`).
 */
import type { Verdict } from './types.js';

export interface Consequence {
  rejected?: 'yes' | 'maybe';
  surprise?: 'type' | 'absence' | 'value';
  ignored?: boolean;
}

/** What a change does to the instances a schema node accepts. */
export interface Effect {
  /** Some instances valid before are invalid now (`maybe`: cannot be told statically). */
  narrows?: 'yes' | 'maybe';
  /** Instances invalid before are valid now: of a new JSON type/kind (`type`), or new values (`value`). */
  widens?: 'type' | 'value';
  /** Something that was always present may now be absent. */
  dropsPresence?: boolean;
  /** Something a writer sends no longer means anything. */
  dropsMeaning?: boolean;
}

export function verdictOf(c: Consequence): Verdict {
  if (c.rejected === 'yes' || c.surprise === 'type' || c.surprise === 'absence') return 'breaking';
  if (c.rejected === 'maybe' || c.surprise === 'value' || c.ignored) return 'potentially-breaking';
  return 'non-breaking';
}

/**
 * Writer and reader consequences of a data change. A dropped meaning matters to the writer only when
 * the writer is the caller (request params: it asked for something, which is now ignored); an
 * implementer or notification sender merely informs.
 */
export function dataConsequences(
  effect: Effect,
  writerIsCaller: boolean,
): { writer: Consequence; reader: Consequence } {
  const writer: Consequence = {};
  if (effect.narrows) writer.rejected = effect.narrows;
  if (effect.dropsMeaning && writerIsCaller) writer.ignored = true;
  const reader: Consequence = {};
  if (effect.dropsPresence) reader.surprise = 'absence';
  else if (effect.widens) reader.surprise = effect.widens;
  return { writer, reader };
}

/** The consequence in words, for `diff --rules`. */
export function describeConsequence(c: Consequence): string {
  const parts: string[] = [];
  if (c.rejected === 'yes') parts.push('its output may be rejected');
  if (c.rejected === 'maybe') parts.push('its output might be rejected');
  if (c.surprise === 'type') parts.push('it may receive a kind of value it has no code for');
  if (c.surprise === 'absence') parts.push('something it relied on may be missing');
  if (c.surprise === 'value') parts.push('it may receive values outside what it was promised');
  if (c.ignored) parts.push('what it sends may be ignored');
  return parts.length ? parts.join(', ') : 'unaffected';
}
