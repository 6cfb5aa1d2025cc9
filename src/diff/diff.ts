/**
 * `diffModels`: protocol-level facts between two protocol models, each with a verdict per side.
 * Pure: returns data, prints nothing. Facts are gathered per method (methods.ts), for protocol features
 * and for the result unions, sorted, filtered by the ignore entries, then deduplicated.
 */
import type { JsonValue } from '../load/schema-types.js';
import { InputError } from '../errors.js';
import type { Direction, ProtocolFeatures, ProtocolModel } from '../model/types.js';
import { definitionRefReader } from '../model/unions.js';
import { resultUnions } from '../model/result-unions.js';
import { SchemaComparer } from './compare.js';
import { dedupeFacts } from './dedupe.js';
import { compareEnvelopes } from './envelope.js';
import { extensionRenames, withOldExtensionIds } from './extension-ids.js';
import { addChange, toFact, type AddFn } from './facts.js';
import { applyIgnores } from './ignore.js';
import { worse } from './rules.js';
import { compareMethods } from './methods.js';
import {
  FAIL_ON,
  MESSAGE_PARTS,
  SIDE_FILTERS,
  type DiffOptions,
  type DiffReport,
  type DiffSideInfo,
  type Fact,
  type FailOn,
  type Side,
  type SideFilter,
  type VerdictCounts,
} from './types.js';
import { compareStrings } from '../load/order.js';
import { definitionPointer } from '../load/pointer.js';

export { parseIgnoreFile } from './ignore.js';
export { locationKey } from './facts.js';

const FEATURES: readonly { key: keyof ProtocolFeatures; name: string; what: string }[] = [
  { key: 'batches', name: 'batching', what: 'JSON-RPC batch support' },
  { key: 'initialize', name: 'initialize', what: 'the initialize handshake' },
  { key: 'perRequestMeta', name: 'per-request-meta', what: 'client info and capabilities in per-request _meta' },
  { key: 'inputRequests', name: 'input-requests', what: 'results that ask for input (embedded input requests)' },
  { key: 'capabilityExtensions', name: 'capability-extensions', what: 'the capabilities `extensions` map' },
];
/** The location name of each feature's facts (kept from the first report format). */
const FEATURE_LOCATION: Record<string, string> = { batching: 'batches' };

export function diffModels(oldModel: ProtocolModel, givenNew: ProtocolModel, options: DiffOptions = {}): DiffReport {
  // An extension that changed its id is one fact; the rest is compared as if it had kept the old id.
  const renames = extensionRenames(oldModel, givenNew);
  const newModel = withOldExtensionIds(givenNew, renames);
  const facts: Fact[] = [];
  const comparer = new SchemaComparer(oldModel, newModel, {
    includeDescriptions: options.includeDescriptions ?? false,
  });
  const add: AddFn = (input) => facts.push(toFact(input));
  // Facts about the protocol as a whole: no message, no schema location.
  const addProtocolFact = (rule: string, method: string, message: string, details?: { [key: string]: JsonValue }) =>
    add({
      rule,
      method,
      kind: null,
      directions: [],
      part: 'protocol',
      path: '',
      oldPointer: null,
      newPointer: null,
      message,
      ...(details === undefined ? {} : { details }),
    });
  compareFeatures(oldModel, newModel, add);
  for (const { from, to, methods } of renames) {
    const prefix = methods.size > 0 ? `, its methods' names with it (${methods.size})` : '';
    const renamed = [...methods].map(([now, was]) => ({ old: was, new: now }));
    const details = { oldId: from, newId: to, ...(renamed.length > 0 ? { methods: renamed } : {}) };
    addProtocolFact('extension-id-changed', to, `extension "${from}" is now "${to}"${prefix}`, details);
  }
  compareEnvelopes(oldModel, newModel, comparer, add);
  compareMethods(oldModel, newModel, comparer, add);
  compareResultUnions(oldModel, newModel, comparer, add);
  alignWithFeatures(facts, oldModel, newModel);
  facts.sort(compareFacts);
  const { kept, ignored } = applyIgnores(facts, options.ignore ?? []);
  const unique = dedupeFacts(kept);
  return {
    old: sideInfo(oldModel, options.oldName ?? oldModel.version ?? 'old', options.oldExtensions),
    new: sideInfo(givenNew, options.newName ?? newModel.version ?? 'new', options.newExtensions),
    notes: comparer.notes(),
    facts: unique,
    ignored,
    summary: {
      facts: unique.length,
      ignored: ignored.length,
      client: count(unique, 'client'),
      server: count(unique, 'server'),
    },
  };
}

/** A protocol feature added or removed: one fact, pointing at the definition carrying it on the side that has it. */
function compareFeatures(oldModel: ProtocolModel, newModel: ProtocolModel, add: AddFn): void {
  for (const f of FEATURES) {
    const was = oldModel.features[f.key];
    const is = newModel.features[f.key];
    if (was === is) continue;
    const change = is ? 'added' : 'removed';
    // The fact points at the definition carrying the feature, on the side that has it.
    const carrier = (m: ProtocolModel) => {
      const name = m.featureDefinitions?.[f.key];
      return name === undefined ? null : `#${definitionPointer(m.defsKeyword, name)}`;
    };
    add({
      rule: `${f.name}-${change}`,
      method: FEATURE_LOCATION[f.name] ?? f.name,
      kind: null,
      directions: [],
      part: 'protocol',
      path: '',
      oldPointer: is ? null : carrier(oldModel),
      newPointer: is ? carrier(newModel) : null,
      message: `${f.what} ${change}`,
    });
  }
}

/**
 * A result variant added to or removed from a result union (what a side may answer with: ServerResult,
 * ClientResult, … found from structure, matched by the side that writes it) that the per-request
 * comparison cannot see: one no request is paired with, or — in a closed union (no member takes any
 * object) — one a request still answers with on both sides. Variants a request gained or lost with the
 * request are that request's facts (method added or removed, its result compared).
 */
function compareResultUnions(o: ProtocolModel, n: ProtocolModel, comparer: SchemaComparer, add: AddFn): void {
  const paired = (m: ProtocolModel) => new Set(m.methods.flatMap((x) => (x.resultUnknown ? [] : (x.result ?? []))));
  const unions = (m: ProtocolModel) =>
    resultUnions(m.definitions, m.methods, definitionRefReader(m.definitions, m.defsKeyword));
  const pairedOld = paired(o);
  const pairedNew = paired(n);
  const oldUnions = unions(o);
  for (const nu of unions(n)) {
    const ou = oldUnions.find((u) => u.writer === nu.writer);
    if (!ou) continue;
    const changes = comparer.compare(comparer.cursor('old', ou.definition), comparer.cursor('new', nu.definition));
    // The direction of the requests the union answers.
    const direction: Direction = nu.writer === 'server' ? 'client->server' : 'server->client';
    const at = { method: nu.definition, kind: null, directions: [direction], part: 'result' as const };
    for (const c of changes) {
      const member = String(c.details.member);
      const unseen =
        (c.kind === 'union-member-added' &&
          (!pairedNew.has(member) || (pairedOld.has(member) && comparer.isClosedUnion('old', ou.definition)))) ||
        (c.kind === 'union-member-removed' &&
          (!pairedOld.has(member) || (pairedNew.has(member) && comparer.isClosedUnion('new', nu.definition))));
      if (c.path !== '' || !unseen) continue;
      const still = n.methods.filter((m) => !m.resultUnknown && m.result?.includes(member)).map((m) => m.method);
      const word = c.kind === 'union-member-removed' ? 'still' : 'already';
      const answering = pairedOld.has(member) && still.length > 0 ? ` (${word} the result of ${still.join(', ')})` : '';
      addChange(add, { ...c, message: `${c.message}${answering}` }, at, 'result');
    }
  }
}

/**
 * One change, one verdict: a result variant added to or removed from a method's result that is itself
 * a protocol feature's carrier (2026-07-28's InputRequiredResult) is the same change as the feature's
 * protocol fact, so it gets the protocol fact's verdict where that is worse.
 */
function alignWithFeatures(facts: Fact[], o: ProtocolModel, n: ProtocolModel): void {
  for (const f of FEATURES) {
    const added = facts.find((x) => x.rule === `${f.name}-added`);
    const removed = facts.find((x) => x.rule === `${f.name}-removed`);
    const cases = [
      { protocol: added, carrier: n.featureDefinitions?.[f.key], kind: 'union-member-added' },
      { protocol: removed, carrier: o.featureDefinitions?.[f.key], kind: 'union-member-removed' },
    ];
    for (const { protocol, carrier, kind } of cases) {
      if (protocol === undefined || carrier === undefined) continue;
      for (const x of facts) {
        if (x.location.part !== 'result' || !x.rule.endsWith(kind) || x.details.member !== carrier) continue;
        x.verdicts = {
          client: worse(x.verdicts.client, protocol.verdicts.client),
          server: worse(x.verdicts.server, protocol.verdicts.server),
        };
      }
    }
  }
}

function sideInfo(model: ProtocolModel, name: string, extensions: string[] = []): DiffSideInfo {
  const pairedByName = model.methods.filter((m) => m.pairedBy === 'name').map((m) => m.method);
  return { name, version: model.version, dialect: model.dialect, extensions: [...extensions], pairedByName };
}

function compareFacts(a: Fact, b: Fact): number {
  // Protocol facts first, then the envelope's, then per method.
  const rank = (f: Fact) => (f.location.part === 'protocol' ? 0 : f.location.part === 'envelope' ? 1 : 2);
  const pa = rank(a);
  const pb = rank(b);
  return (
    pa - pb ||
    compareStrings(a.location.method, b.location.method) ||
    MESSAGE_PARTS.indexOf(a.location.part) - MESSAGE_PARTS.indexOf(b.location.part) ||
    compareStrings(a.location.path, b.location.path) ||
    compareStrings(a.rule, b.rule) ||
    compareStrings(a.location.directions.join(','), b.location.directions.join(',')) ||
    compareStrings(a.message, b.message)
  );
}

function count(facts: Fact[], side: Side): VerdictCounts {
  const c: VerdictCounts = { breaking: 0, 'potentially-breaking': 0, 'non-breaking': 0 };
  for (const f of facts) c[f.verdicts[side]]++;
  return c;
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
