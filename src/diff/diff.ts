/**
 * `diffModels`: protocol-level facts between two protocol models, each with a verdict per side.
 * Pure: returns data, prints nothing.
 */
import { InputError } from '../errors.js';
import type { JsonValue } from '../load/schema-types.js';
import {
  DIRECTIONS,
  type Direction,
  type MethodInfo,
  type ProtocolFeatures,
  type ProtocolModel,
} from '../model/types.js';
import { SchemaComparer, type Cursor, type RawChange } from './compare.js';
import { partRuleId, ruleById, RULES, verdictsFor } from './rules.js';
import {
  FAIL_ON,
  MESSAGE_PARTS,
  SIDE_FILTERS,
  type DiffOptions,
  type DiffReport,
  type Fact,
  type FailOn,
  type IgnoreEntry,
  type IgnoredFact,
  type MessagePart,
  type Side,
  type SideFilter,
  type VerdictCounts,
} from './types.js';

const FEATURES: readonly { key: keyof ProtocolFeatures; name: string; added: string; removed: string; what: string }[] =
  [
    {
      key: 'batches',
      name: 'batches',
      added: 'batching-added',
      removed: 'batching-removed',
      what: 'JSON-RPC batch support',
    },
    {
      key: 'initialize',
      name: 'initialize',
      added: 'initialize-added',
      removed: 'initialize-removed',
      what: 'the initialize handshake',
    },
    {
      key: 'perRequestMeta',
      name: 'per-request-meta',
      added: 'per-request-meta-added',
      removed: 'per-request-meta-removed',
      what: 'client info and capabilities in per-request _meta',
    },
    {
      key: 'inputRequests',
      name: 'input-requests',
      added: 'input-requests-added',
      removed: 'input-requests-removed',
      what: 'InputRequiredResult with embedded input requests',
    },
    {
      key: 'capabilityExtensions',
      name: 'capability-extensions',
      added: 'capability-extensions-added',
      removed: 'capability-extensions-removed',
      what: 'the capabilities `extensions` map',
    },
  ];

export function diffModels(oldModel: ProtocolModel, newModel: ProtocolModel, options: DiffOptions = {}): DiffReport {
  const facts: Fact[] = [];
  const comparer = new SchemaComparer(oldModel, newModel, {
    includeDescriptions: options.includeDescriptions ?? false,
  });
  const kwOld = oldModel.defsKeyword;
  const kwNew = newModel.defsKeyword;

  const add: AddFn = (rule, method, kind, directions, part, path, oldPointer, newPointer, message, details = {}) => {
    const def = ruleById(rule);
    if (!def) throw new Error(`internal: unknown rule ${rule}`);
    facts.push({
      rule,
      location: {
        method,
        kind,
        directions: [...directions],
        part,
        path,
        key: locationKey(method, part, path),
        oldPointer,
        newPointer,
      },
      verdicts: verdictsFor(def, part, directions),
      message,
      details: sortKeys(details),
    });
  };

  // Protocol features.
  for (const f of FEATURES) {
    const was = oldModel.features[f.key];
    const is = newModel.features[f.key];
    if (was && !is) add(f.removed, f.name, null, [], 'protocol', '', null, null, `${f.what} removed`);
    if (!was && is) add(f.added, f.name, null, [], 'protocol', '', null, null, `${f.what} added`);
  }

  // Methods.
  const oldByName = new Map(oldModel.methods.map((m) => [m.method, m]));
  const newByName = new Map(newModel.methods.map((m) => [m.method, m]));
  const names = [...new Set([...oldByName.keys(), ...newByName.keys()])].sort(compare);
  for (const name of names) {
    const o = oldByName.get(name);
    const n = newByName.get(name);
    const noun = (m: MethodInfo): string => (m.kind === 'request' ? 'method' : 'notification');
    if (o && !n) {
      add(
        `${noun(o)}-removed`,
        name,
        o.kind,
        o.directions,
        'method',
        '',
        defPtr(kwOld, o.definition),
        null,
        `${o.kind} removed (was ${o.directions.join(', ')})`,
      );
      continue;
    }
    if (!o && n) {
      add(
        `${noun(n)}-added`,
        name,
        n.kind,
        n.directions,
        'method',
        '',
        null,
        defPtr(kwNew, n.definition),
        `${n.kind} added (${n.directions.join(', ')})`,
      );
      continue;
    }
    if (!o || !n) continue;
    const oPtr = defPtr(kwOld, o.definition);
    const nPtr = defPtr(kwNew, n.definition);
    if (o.kind !== n.kind) {
      add(
        'method-kind-changed',
        name,
        n.kind,
        union(o.directions, n.directions),
        'method',
        '',
        oPtr,
        nPtr,
        `changed from ${o.kind} to ${n.kind}`,
        { oldKind: o.kind, newKind: n.kind },
      );
      continue;
    }
    for (const d of o.directions) {
      if (!n.directions.includes(d))
        add(`${noun(n)}-direction-removed`, name, n.kind, [d], 'method', '', oPtr, nPtr, `no longer sent ${d}`, {
          direction: d,
        });
    }
    for (const d of n.directions) {
      if (!o.directions.includes(d))
        add(`${noun(n)}-direction-added`, name, n.kind, [d], 'method', '', oPtr, nPtr, `now also sent ${d}`, {
          direction: d,
        });
    }
    const dirs = n.directions;
    const prefix = n.kind === 'request' ? 'request' : 'notification';
    const oldReq = o.params !== null && o.paramsRequired;
    const newReq = n.params !== null && n.paramsRequired;
    if (!oldReq && newReq)
      add(`${prefix}-params-became-required`, name, n.kind, dirs, 'method', '', oPtr, nPtr, 'params is now required');
    if (oldReq && !newReq && n.params !== null)
      add(
        `${prefix}-params-became-optional`,
        name,
        n.kind,
        dirs,
        'method',
        '',
        oPtr,
        nPtr,
        'params is no longer required',
      );

    const dataPart: 'params' | 'payload' = n.kind === 'request' ? 'params' : 'payload';
    const paramsChanges = comparer.compare(paramsCursor(comparer, 'old', o), paramsCursor(comparer, 'new', n));
    for (const c of paramsChanges) addChange(add, c, name, n.kind, dirs, dataPart, 'params');
    if (n.kind === 'request' && Boolean(o.resultUnknown) !== Boolean(n.resultUnknown)) {
      // One side's result could not be paired: there is nothing to compare it with, but say so.
      const rule = n.resultUnknown ? 'result-became-unknown' : 'result-became-known';
      const known = n.resultUnknown ? o.result : n.result;
      add(
        rule,
        name,
        n.kind,
        dirs,
        'result',
        'result',
        oPtr,
        nPtr,
        n.resultUnknown
          ? 'the result is no longer paired with this request (now the generic Result)'
          : 'the result is now paired with this request (was the generic Result)',
        { result: known ?? [] },
      );
    } else if (n.kind === 'request' && !n.resultUnknown && o.result && n.result) {
      const changes = comparer.compare(
        resultCursor(comparer, 'old', o.result, kwOld),
        resultCursor(comparer, 'new', n.result, kwNew),
      );
      for (const c of changes) addChange(add, c, name, n.kind, dirs, 'result', 'result');
    }
  }

  facts.sort(compareFacts);
  const kept: Fact[] = [];
  const ignored: IgnoredFact[] = [];
  const matchers = (options.ignore ?? []).map((e) => ({ entry: e, test: locationMatcher(e.location) }));
  for (const fact of facts) {
    const hit = matchers.find((m) => m.entry.rule === fact.rule && m.test(fact.location.key));
    if (hit) ignored.push({ fact, reason: hit.entry.reason ?? null });
    else kept.push(fact);
  }
  return {
    old: { name: options.oldName ?? oldModel.version ?? 'old', version: oldModel.version, dialect: oldModel.dialect },
    new: { name: options.newName ?? newModel.version ?? 'new', version: newModel.version, dialect: newModel.dialect },
    facts: kept,
    ignored,
    summary: {
      facts: kept.length,
      ignored: ignored.length,
      client: count(kept, 'client'),
      server: count(kept, 'server'),
    },
  };
}

type AddFn = (
  rule: string,
  method: string,
  kind: MethodInfo['kind'] | null,
  directions: Direction[],
  part: MessagePart,
  path: string,
  oldPointer: string | null,
  newPointer: string | null,
  message: string,
  details?: { [key: string]: JsonValue },
) => void;

function addChange(
  add: AddFn,
  c: RawChange,
  method: string,
  kind: MethodInfo['kind'],
  dirs: Direction[],
  part: 'params' | 'result' | 'payload',
  root: string,
): void {
  const rule = c.kind === 'description-changed' ? 'description-changed' : partRuleId(part, c.kind);
  add(rule, method, kind, dirs, part, root + c.path, c.oldPtr, c.newPtr, c.message, c.details);
}

function paramsCursor(comparer: SchemaComparer, which: 'old' | 'new', m: MethodInfo): Cursor {
  if (m.params === null) return { node: { type: 'object' }, ptr: null };
  return comparer.cursor(which, m.params);
}

function resultCursor(comparer: SchemaComparer, which: 'old' | 'new', names: string[], kw: string): Cursor {
  if (names.length === 1) return comparer.cursor(which, names[0]!);
  return { node: { anyOf: names.map((n) => ({ $ref: defPtr(kw, n) })) }, ptr: null };
}

function defPtr(kw: string, name: string): string {
  return `#/${kw}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function union(a: Direction[], b: Direction[]): Direction[] {
  return DIRECTIONS.filter((d) => a.includes(d) || b.includes(d));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `<method>/<part>/<path inside the part>`; protocol facts: `protocol/<feature>`; method facts: `<method>/method`. */
export function locationKey(method: string, part: MessagePart, path: string): string {
  if (part === 'protocol') return `protocol/${method}`;
  const inner = path.replace(/^(params|result)/, '').replace(/^\./, '');
  return `${method}/${part}${inner ? `/${inner}` : ''}`;
}

function compareFacts(a: Fact, b: Fact): number {
  const pa = a.location.part === 'protocol' ? 0 : 1;
  const pb = b.location.part === 'protocol' ? 0 : 1;
  return (
    pa - pb ||
    compare(a.location.method, b.location.method) ||
    MESSAGE_PARTS.indexOf(a.location.part) - MESSAGE_PARTS.indexOf(b.location.part) ||
    compare(a.location.path, b.location.path) ||
    compare(a.rule, b.rule) ||
    compare(a.location.directions.join(','), b.location.directions.join(',')) ||
    compare(a.message, b.message)
  );
}

function count(facts: Fact[], side: Side): VerdictCounts {
  const c: VerdictCounts = { breaking: 0, 'potentially-breaking': 0, 'non-breaking': 0 };
  for (const f of facts) c[f.verdicts[side]]++;
  return c;
}

function sortKeys(o: { [key: string]: JsonValue }): { [key: string]: JsonValue } {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]!]),
  );
}

function locationMatcher(location: string | undefined): (key: string) => boolean {
  if (location === undefined || location === '*') return () => true;
  if (!location.includes('*')) return (key) => key === location;
  const re = new RegExp(
    `^${location
      .split('*')
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return (key) => re.test(key);
}

/**
 * Parse and check an ignore file: a JSON array of `{ rule, location?, reason? }`.
 * An unknown rule id or a malformed entry is an InputError with the pointer of the offending value.
 */
export function parseIgnoreFile(text: string, file: string): IgnoreEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(file, '', `not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(data))
    throw new InputError(file, '', 'an ignore file must be a JSON array of { "rule", "location"?, "reason"? }');
  return data.map((entry, i): IgnoreEntry => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new InputError(file, `/${i}`, 'an ignore entry must be an object');
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      if (key !== 'rule' && key !== 'location' && key !== 'reason')
        throw new InputError(file, `/${i}/${key}`, `unknown key "${key}" (expected rule, location, reason)`);
    }
    if (typeof e.rule !== 'string') throw new InputError(file, `/${i}/rule`, 'rule must be a string');
    if (!ruleById(e.rule)) {
      throw new InputError(
        file,
        `/${i}/rule`,
        `unknown rule "${e.rule}"`,
        `known rules: mcp-typegen diff --rules (${RULES.length} rules)`,
      );
    }
    if (e.location !== undefined && typeof e.location !== 'string')
      throw new InputError(file, `/${i}/location`, 'location must be a string');
    if (e.reason !== undefined && typeof e.reason !== 'string')
      throw new InputError(file, `/${i}/reason`, 'reason must be a string');
    const out: IgnoreEntry = { rule: e.rule };
    if (e.location !== undefined) out.location = e.location as string;
    if (e.reason !== undefined) out.reason = e.reason as string;
    return out;
  });
}

/**
 * The exit code for a report: 1 when a fact reaches the `failOn` threshold on the chosen side(s), else 0.
 * `breaking`: a breaking verdict; `potential`: breaking or potentially-breaking; `any`: any fact; `none`: never.
 * Bad arguments throw InputError (exit code 2).
 */
export function exitCodeFor(report: DiffReport, failOn: FailOn = 'breaking', side: SideFilter = 'both'): 0 | 1 {
  if (!FAIL_ON.includes(failOn))
    throw new InputError(
      '(arguments)',
      undefined,
      `--fail-on must be one of ${FAIL_ON.join(', ')}, not "${String(failOn)}"`,
    );
  if (!SIDE_FILTERS.includes(side))
    throw new InputError(
      '(arguments)',
      undefined,
      `--side must be one of ${SIDE_FILTERS.join(', ')}, not "${String(side)}"`,
    );
  if (failOn === 'none') return 0;
  if (failOn === 'any') return report.facts.length > 0 ? 1 : 0;
  const sides: Side[] = side === 'both' ? ['client', 'server'] : [side];
  const fails = (v: string): boolean => v === 'breaking' || (failOn === 'potential' && v === 'potentially-breaking');
  return report.facts.some((f) => sides.some((s) => fails(f.verdicts[s]))) ? 1 : 0;
}
