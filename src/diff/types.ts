/**
 * Data types of `mcp-typegen diff`: facts, verdicts, reports. Plain data, JSON-serializable.
 * `schema/diff-report.schema.json` describes the JSON rendering of a `DiffReport`.
 */
import type { JsonValue } from '../load/schema-types.js';
import type { Direction, MethodKind } from '../model/types.js';

/** The two sides of MCP. Every fact gets a verdict for each. */
export type Side = 'client' | 'server';
export const SIDES: readonly Side[] = ['client', 'server'];

export type Verdict = 'breaking' | 'potentially-breaking' | 'non-breaking';
/** Ordered from least to most severe. */
export const VERDICTS: readonly Verdict[] = ['non-breaking', 'potentially-breaking', 'breaking'];

/**
 * Which part of the protocol a fact is about:
 * - `method`: the method as a whole (added, removed, a direction added/removed, params object required or not);
 * - `params`: a request's params; `result`: a request's result; `payload`: a notification's params;
 * - `protocol`: a protocol feature (batches, initialize handshake, …); `method` is null then;
 * - `envelope`: the JSON-RPC envelope (`method` is its shape: request, notification, result-response,
 *   error-response).
 */
export type MessagePart = 'method' | 'params' | 'result' | 'payload' | 'protocol' | 'envelope';
export const MESSAGE_PARTS: readonly MessagePart[] = ['protocol', 'envelope', 'method', 'params', 'result', 'payload'];

export interface FactLocation {
  /** The method string (e.g. `tools/call`); for protocol facts the feature name (e.g. `batches`). */
  method: string;
  /**
   * Every method the fact affects, sorted (facts are deduplicated by rule and pointers: a change to a
   * definition embedded in many messages is one fact); `method` is the first. A result union
   * (`ServerResult`, `ClientResult`) stands in for a method when the fact is about the union itself.
   */
  methods: string[];
  /** Request or notification; null for protocol facts and result unions. */
  kind: MethodKind | null;
  /**
   * The directions the fact applies in (the verdicts take each into account). For a removed method
   * its old directions, for an added method its new ones; empty for protocol facts.
   */
  directions: Direction[];
  part: MessagePart;
  /**
   * Where inside the message, as a JSON path rooted at `params` or `result` (e.g. `params.arguments`,
   * `result.content[]`, `result<CallToolResult>.resultType` for a member of a result union);
   * `''` for method and protocol facts. `[]` is an array item, `{}` a value of an additionalProperties map.
   */
  path: string;
  /** The string an ignore entry's `location` is matched against: `<method>/<part>/<path inside the part>`. */
  key: string;
  /** JSON pointer (URI fragment form, `#/...`) of the schema node on the old side; null when absent there. */
  oldPointer: string | null;
  /** Same on the new side. */
  newPointer: string | null;
  /**
   * The side the fact lives on, where an annotation points: `old` for a removal (what is gone is only
   * in the old schema, at its old line), else `new`.
   */
  side: 'old' | 'new';
}

export interface Fact {
  /** A rule id (`rules()`). */
  rule: string;
  location: FactLocation;
  verdicts: Record<Side, Verdict>;
  /** One line, human readable. */
  message: string;
  /** Rule-specific data (property name, values, old/new types, …). Stable key order. */
  details: { [key: string]: JsonValue };
}

export interface IgnoredFact {
  fact: Fact;
  /** The `reason` of the ignore entry that matched, if it had one. */
  reason: string | null;
}

export interface VerdictCounts {
  breaking: number;
  'potentially-breaking': number;
  'non-breaking': number;
}

export interface DiffSideInfo {
  /** Display name of the source (file, version, `git:<ref>:<path>`). */
  name: string;
  version: string | null;
  dialect: 'draft-07' | '2020-12';
  /** The extension files (or ids, or git sources) merged into this side, as given. */
  extensions: string[];
  /**
   * Requests whose result was paired by a definition name (`<X>Request` → `<X>Result`, the package
   * table), not by structure or a pairing file: a rename there is what could unpair them. Sorted.
   */
  pairedByName: string[];
}

/**
 * A normalisation the diff applied to one side's schema before comparing (a union member listed twice
 * read once, …): what the comparison saw is not byte for byte what the file says there.
 */
export interface DiffNote {
  side: 'old' | 'new';
  /** JSON pointer (URI fragment form, `#/...`) of the schema node normalised. */
  pointer: string;
  message: string;
}

export interface DiffReport {
  old: DiffSideInfo;
  new: DiffSideInfo;
  /** Normalisations applied to the inputs, sorted by side and pointer; every format shows them. */
  notes: DiffNote[];
  /** Sorted: protocol facts first, then by method, part, path, rule. */
  facts: Fact[];
  ignored: IgnoredFact[];
  summary: {
    facts: number;
    ignored: number;
    client: VerdictCounts;
    server: VerdictCounts;
  };
}

/** One entry of an ignore file. */
export interface IgnoreEntry {
  rule: string;
  /**
   * Matched against `Fact.location.key`: exact, or a glob where `*` matches any run of characters
   * (slashes included). Absent: every fact of the rule.
   */
  location?: string;
  reason?: string;
}

export interface DiffOptions {
  /** Display names of the two sides (default: the model's version, else `old` / `new`). */
  oldName?: string;
  newName?: string;
  /** Also report description-only changes (rule `description-changed`, non-breaking). Default false. */
  includeDescriptions?: boolean;
  /** The extension files merged into each side, as given (named in the report's header). */
  oldExtensions?: string[];
  newExtensions?: string[];
  /** Facts matching these entries are moved to `ignored`. */
  ignore?: IgnoreEntry[];
}

export type FailOn = 'breaking' | 'potential' | 'any' | 'none';
export const FAIL_ON: readonly FailOn[] = ['breaking', 'potential', 'any', 'none'];
export type SideFilter = Side | 'both';
export const SIDE_FILTERS: readonly SideFilter[] = ['client', 'server', 'both'];
