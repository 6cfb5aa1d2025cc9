/**
 * An extension renamed between the two sides (SEP-2133: a breaking change takes a new identifier) is
 * one fact, not one per place the id shows up (method sources, `capabilities.extensions[id]` in every
 * message that carries capabilities, the settings definition named after it). The diff pairs an id only
 * on the old side with an id only on the new side that declares the same methods, reports the pair,
 * and compares the rest with the new side's id put back to the old one.
 */
import { isObject } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';
import { pascalCase } from '../model/extensions.js';
import type { ProtocolModel } from '../model/types.js';

export interface ExtensionRename {
  from: string;
  to: string;
}

/** Extension id → its methods (sorted), from method sources and the capabilities' `extensions` entries. */
function extensionsOf(model: ProtocolModel): Map<string, string> {
  const methods = new Map<string, string[]>();
  for (const m of model.methods)
    if (m.source !== 'mcp') methods.set(m.source, [...(methods.get(m.source) ?? []), m.method]);
  for (const id of capabilityIds(model)) if (!methods.has(id)) methods.set(id, []);
  return new Map([...methods].map(([id, list]) => [id, list.sort().join('\n')]));
}

function capabilityIds(model: ProtocolModel): string[] {
  const caps = model.definitions.ClientCapabilities;
  const extensions = isObject(caps) && isObject(caps.properties) ? caps.properties.extensions : undefined;
  return isObject(extensions) && isObject(extensions.properties) ? Object.keys(extensions.properties) : [];
}

/** Ids only on one side, paired by identical method lists (each id at most once, in sorted order). */
export function extensionRenames(oldModel: ProtocolModel, newModel: ProtocolModel): ExtensionRename[] {
  const before = extensionsOf(oldModel);
  const after = extensionsOf(newModel);
  const gone = [...before.keys()].filter((id) => !after.has(id)).sort();
  const added = [...after.keys()].filter((id) => !before.has(id)).sort();
  const renames: ExtensionRename[] = [];
  for (const from of gone) {
    const to = added.find((id) => after.get(id) === before.get(from) && !renames.some((r) => r.to === id));
    if (to !== undefined) renames.push({ from, to });
  }
  return renames;
}

/** The model with each rename undone: method sources, capabilities entries and the settings definition. */
export function withOldExtensionIds(model: ProtocolModel, renames: ExtensionRename[]): ProtocolModel {
  if (renames.length === 0) return model;
  const back = new Map(renames.map((r) => [r.to, r.from]));
  const settingsNames = new Map(renames.map((r) => [`${pascalCase(r.to)}Settings`, `${pascalCase(r.from)}Settings`]));
  const defs = model.defsKeyword;
  const renameRef = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(renameRef);
    if (!isObject(node)) return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      let next = renameRef(value);
      if (key === '$ref' && typeof value === 'string') {
        const name = value.startsWith(`#/${defs}/`) ? value.slice(defs.length + 3) : undefined;
        if (name !== undefined && settingsNames.has(name)) next = `#/${defs}/${settingsNames.get(name)!}`;
      }
      Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const definitions: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(model.definitions)) {
    let next = schema;
    if (name === 'ClientCapabilities' || name === 'ServerCapabilities') next = withCapabilityKeys(schema, back);
    if (settingsNames.has(name) || name === 'ClientCapabilities' || name === 'ServerCapabilities')
      next = renameRef(next) as JsonSchema;
    definitions[settingsNames.get(name) ?? name] = next;
  }
  return {
    ...model,
    definitions,
    methods: model.methods.map((m) => (back.has(m.source) ? { ...m, source: back.get(m.source)! } : m)),
  };
}

function withCapabilityKeys(caps: JsonSchema, back: Map<string, string>): JsonSchema {
  const extensions = isObject(caps.properties) ? caps.properties.extensions : undefined;
  if (!isObject(caps.properties) || !isObject(extensions) || !isObject(extensions.properties)) return caps;
  const properties: JsonSchema = {};
  for (const [id, schema] of Object.entries(extensions.properties)) {
    Object.defineProperty(properties, back.get(id) ?? id, {
      value: schema,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { ...caps, properties: { ...caps.properties, extensions: { ...extensions, properties } } };
}
