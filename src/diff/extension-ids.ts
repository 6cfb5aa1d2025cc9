/**
 * An extension whose identifier changed between the two sides (SEP-2133: a breaking change takes a new
 * id) is one fact, not a property removed and one added in every message that carries capabilities.
 * An extension shows in a model as the `source` of its methods and as a key of the capabilities'
 * `extensions` map (found from structure: an `extensions` object property next to `experimental`).
 * An id only on the old side pairs with an id only on the new side that declares mostly the same
 * methods (at least half of the smaller list) — the same strings, or the same after each side's id as
 * their prefix (`acme/jobs.start` and `acme/tasks.start` when `acme/jobs` became `acme/tasks`); two ids
 * without methods pair when they are the only ones gone and added. The new model is then compared as if
 * each paired extension had kept its old id, and its methods their old names.
 */
import { isObject } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';
import type { ProtocolModel } from '../model/types.js';
import { compareStrings } from '../load/order.js';

export interface ExtensionRename {
  from: string;
  to: string;
  /** Methods renamed with the id's prefix: new name → old name. */
  methods: Map<string, string>;
}

/** A method's name past its extension's id (`.start` of `acme/jobs.start`), when the id is its prefix. */
function pastId(id: string, method: string): string | undefined {
  if (!method.startsWith(id) || method.length === id.length) return undefined;
  return /[./:#_-]/.test(method.charAt(id.length)) ? method.slice(id.length) : undefined;
}

/** The methods two ids share: the same names, or the same past each side's id; new name → old name. */
function sharedMethods(from: string, to: string, before: Set<string>, after: Set<string>): Map<string, string> {
  const byRest = new Map<string, string>();
  for (const m of before) {
    const rest = pastId(from, m);
    if (rest !== undefined) byRest.set(rest, m);
  }
  const shared = new Map<string, string>();
  for (const m of after) {
    const rest = pastId(to, m);
    const old = before.has(m) ? m : rest !== undefined ? byRest.get(rest) : undefined;
    if (old !== undefined) shared.set(m, old);
  }
  return shared;
}

/** Extension id → the methods it declares (possibly none), on one side. */
function extensionsOf(model: ProtocolModel): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const m of model.methods) {
    if (m.source === 'mcp') continue;
    let set = out.get(m.source);
    if (!set) out.set(m.source, (set = new Set()));
    set.add(m.method);
  }
  for (const def of Object.values(model.definitions))
    for (const id of capabilityExtensionIds(def)) if (!out.has(id)) out.set(id, new Set());
  return out;
}

/** Keys of a capabilities object's `extensions` map (an object with `experimental` and `extensions`). */
function capabilityExtensionIds(def: unknown): string[] {
  if (!isObject(def) || !isObject(def.properties)) return [];
  const { experimental, extensions } = def.properties;
  if (experimental === undefined || !isObject(extensions) || !isObject(extensions.properties)) return [];
  return Object.keys(extensions.properties);
}

/** The renames between two models, each id at most once, in id order. */
export function extensionRenames(oldModel: ProtocolModel, newModel: ProtocolModel): ExtensionRename[] {
  const before = extensionsOf(oldModel);
  const after = extensionsOf(newModel);
  const gone = [...before.keys()].filter((id) => !after.has(id)).sort();
  const added = [...after.keys()].filter((id) => !before.has(id)).sort();
  const renames: ExtensionRename[] = [];
  const taken = new Set<string>();
  for (const from of gone) {
    const methods = before.get(from) ?? new Set<string>();
    let best: ExtensionRename | undefined;
    let bestShare = 0.5;
    for (const to of added) {
      if (taken.has(to)) continue;
      const other = after.get(to) ?? new Set<string>();
      if (methods.size === 0 || other.size === 0) continue;
      const shared = sharedMethods(from, to, methods, other);
      const share = shared.size / Math.min(methods.size, other.size);
      if (share >= bestShare && (best === undefined || share > bestShare)) {
        const renamed = new Map([...shared].filter(([now, was]) => now !== was));
        best = { from, to, methods: renamed };
        bestShare = share;
      }
    }
    if (best !== undefined) {
      renames.push(best);
      taken.add(best.to);
    }
  }
  const loneGone = gone.filter((id) => !renames.some((r) => r.from === id));
  const loneAdded = added.filter((id) => !taken.has(id));
  // One extension gone and one added, neither with methods: a rename of a settings-only extension.
  const [from, to] = [loneGone[0], loneAdded[0]];
  if (
    loneGone.length === 1 &&
    loneAdded.length === 1 &&
    from !== undefined &&
    to !== undefined &&
    before.get(from)?.size === 0 &&
    after.get(to)?.size === 0
  )
    renames.push({ from, to, methods: new Map() });
  return renames.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}

/** The model with each rename undone: method sources and names, and the capabilities' `extensions` keys. */
export function withOldExtensionIds(model: ProtocolModel, renames: ExtensionRename[]): ProtocolModel {
  if (renames.length === 0) return model;
  const back = new Map(renames.map((r) => [r.to, r.from]));
  const oldNames = new Map(renames.flatMap((r) => [...r.methods]));
  const definitions: Record<string, JsonSchema> = {};
  for (const [name, def] of Object.entries(model.definitions))
    definitions[name] = capabilityExtensionIds(def).some((id) => back.has(id)) ? withKeys(def, back) : def;
  const methods = model.methods.map((m) => {
    const source = back.get(m.source);
    const method = oldNames.get(m.method);
    if (source === undefined && method === undefined) return m;
    return { ...m, source: source ?? m.source, method: method ?? m.method };
  });
  methods.sort((a, b) => compareStrings(a.method, b.method));
  return { ...model, definitions, methods };
}

function withKeys(caps: JsonSchema, back: Map<string, string>): JsonSchema {
  const props = caps.properties as JsonSchema;
  const extensions = props.extensions as JsonSchema;
  const properties: JsonSchema = {};
  for (const [id, schema] of Object.entries(extensions.properties as JsonSchema))
    Object.defineProperty(properties, back.get(id) ?? id, {
      value: schema,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return { ...caps, properties: { ...props, extensions: { ...extensions, properties } } };
}
