/**
 * Merging vendor extensions into the protocol model. Loading and the name rules live in
 * src/extensions/; this module folds checked extensions into one model:
 *
 * - the file's definitions join the schema's definitions (refs rewritten: `mcp:X` and
 *   `#/definitions/X` become refs into this schema's `definitions`/`$defs`);
 * - each method gets message, params and result definitions named after it
 *   (`acme/jobs.start` → `AcmeJobsStartRequest`, `AcmeJobsStartRequestParams`, `AcmeJobsStartResult`),
 *   so every emitter (types, maps, client, server, validators) treats it like an MCP method;
 * - the settings schema becomes `capabilities.extensions["<id>"]` where the version has that map.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '../errors.js';
import { parseExtension } from '../extensions/load.js';
import { checkExtensions } from '../extensions/rules.js';
import { appliesTo, type ExtensionSpec } from '../extensions/types.js';
import { sha256 } from '../inputs.js';
import { knownVersionNames } from '../load/manifest.js';
import { isObject } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';
import { compareStrings } from './build.js';
import type { MethodInfo, ProtocolModel } from './types.js';

export interface LoadedExtension {
  /** The file as the user gave it (part of the inputs hash). */
  file: string;
  sha256: string;
  spec: ExtensionSpec;
  warnings: string[];
}

/** Reads an extension source (a file, or e.g. a `git:` object for diff) as display name and text. */
export type ExtensionReader = (file: string, cwd: string) => Promise<{ name: string; text: string }>;

export const readExtensionFile: ExtensionReader = async (file, cwd) => {
  const path = resolve(cwd, file);
  try {
    return { name: path, text: await readFile(path, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(path, undefined, `cannot read extension file${code ? ` (${code})` : ''}`);
  }
};

export async function loadExtensionsFor(
  files: string[],
  cwd: string,
  read: ExtensionReader = readExtensionFile,
): Promise<LoadedExtension[]> {
  const loaded: LoadedExtension[] = [];
  for (const file of files) {
    const { name, text } = await read(file, cwd);
    loaded.push({ file, sha256: sha256(text), spec: parseExtension(name, text), warnings: [] });
  }
  // What holds for every target (syntax, ids, targets, refs, duplicates); methods against MCP's own
  // are checked per target in applyExtensions, against that target's schema only.
  if (loaded.length > 0)
    checkExtensions(
      loaded.map((e) => e.spec),
      { knownVersions: new Set(knownVersionNames()) },
    );
  return loaded;
}

export function applyExtensions(model: ProtocolModel, extensions: LoadedExtension[]): ProtocolModel {
  if (extensions.length === 0) return model;
  const applicable = extensions.filter((e) => model.version === null || appliesTo(e.spec, model.version));
  for (const e of extensions) {
    if (!applicable.includes(e))
      e.warnings.push(`${e.file}: extension ${e.spec.id} does not target MCP ${model.version}; skipped`);
  }
  if (applicable.length === 0) return model;
  checkExtensions(
    applicable.map((e) => e.spec),
    {
      knownMcpMethods: new Set(model.methods.map((m) => m.method)),
      mcpDefinitionNames: new Set(Object.keys(model.definitions)),
      version: model.version ?? undefined,
    },
  );
  const definitions: Record<string, JsonSchema> = { ...model.definitions };
  const methods: MethodInfo[] = [...model.methods];
  const ref = (name: string) => `#/${model.defsKeyword}/${name}`;
  const addDefinition = (e: LoadedExtension, name: string, schemaNode: JsonSchema, pointer: string) => {
    if (Object.hasOwn(definitions, name)) {
      throw new InputError(
        e.file,
        pointer,
        `the definition "${name}" generated for this method collides with an existing definition`,
      );
    }
    definitions[name] = rewriteRefs(schemaNode, ref) as JsonSchema;
  };

  for (const e of applicable) {
    for (const [name, def] of Object.entries(e.spec.definitions)) addDefinition(e, name, def, `/definitions/${name}`);
    for (const m of e.spec.methods) {
      const base = pascalCase(m.method);
      const messageName = `${base}${m.kind === 'request' ? 'Request' : 'Notification'}`;
      const paramsName = m.params ? `${messageName}Params` : null;
      if (paramsName)
        addDefinition(
          e,
          paramsName,
          withDescription(withReservedMeta(m.params!, model, m.kind), m.description),
          m.pointer,
        );
      const message: JsonSchema = {
        ...(m.description ? { description: m.description } : {}),
        type: 'object',
        properties: {
          jsonrpc: { type: 'string', const: '2.0' },
          ...(m.kind === 'request' ? { id: { $ref: ref('RequestId') } } : {}),
          method: { type: 'string', const: m.method },
          ...(paramsName ? { params: { $ref: ref(paramsName) } } : {}),
        },
        required: [
          ...(m.kind === 'request' ? ['id'] : []),
          'jsonrpc',
          'method',
          ...(paramsName && m.paramsRequired ? ['params'] : []),
        ],
      };
      addDefinition(e, messageName, message, m.pointer);
      let result: string[] | undefined;
      if (m.kind === 'request') {
        const resultName = `${base}Result`;
        addDefinition(e, resultName, m.result ?? { type: 'object' }, `${m.pointer}/result`);
        result = [resultName];
      }
      methods.push({
        method: m.method,
        kind: m.kind,
        directions: [...m.directions],
        definition: messageName,
        params: paramsName,
        paramsRequired: paramsName !== null && m.paramsRequired,
        ...(result ? { result } : {}),
        source: e.spec.id,
      });
    }
    if (e.spec.settings && model.features.capabilityExtensions) {
      const settingsName = `${pascalCase(e.spec.id)}Settings`;
      addDefinition(
        e,
        settingsName,
        withDescription(e.spec.settings, `Settings of the ${e.spec.id} extension.`),
        '/settings',
      );
      for (const caps of ['ClientCapabilities', 'ServerCapabilities']) {
        definitions[caps] = withCapabilityEntry(definitions[caps], e.spec.id, ref(settingsName));
      }
    }
  }
  methods.sort((a, b) => compareStrings(a.method, b.method));
  const sorted = Object.fromEntries(
    Object.keys(definitions)
      .sort(compareStrings)
      .map((k) => [k, definitions[k]!]),
  );
  return { ...model, definitions: sorted, methods };
}

/** `acme/jobs.start` → `AcmeJobsStart`; `com.acme/search` → `ComAcmeSearch`. */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/**
 * `_meta` is reserved in every request's and notification's params: the runtime sends it whatever the
 * extension declares (`_meta.progressToken` with onProgress; 2026-07-28 on, the per-request protocol
 * version, client info and capabilities on every request). Params closed with `additionalProperties:
 * false` (or `unevaluatedProperties: false`) that do not declare it would make the generated server
 * refuse those calls with -32602, so it is added as an optional property typed like MCP's own `_meta`.
 */
function withReservedMeta(params: JsonSchema, model: ProtocolModel, kind: 'request' | 'notification'): JsonSchema {
  const properties = isObject(params.properties) ? params.properties : undefined;
  const closed = params.additionalProperties === false || params.unevaluatedProperties === false;
  if (!closed || (properties && Object.hasOwn(properties, '_meta'))) return params;
  const meta = mcpMetaSchema(model, kind);
  return { ...params, properties: { ...properties, _meta: meta } };
}

/** MCP's `_meta` schema for a request's or a notification's params in this version (refs already local). */
function mcpMetaSchema(model: ProtocolModel, kind: 'request' | 'notification'): JsonSchema {
  const base = kind === 'request' ? 'Request' : 'Notification';
  const paramsDef = model.definitions[`${base}Params`];
  const messageDef = model.definitions[base];
  const candidates = [
    isObject(paramsDef) && isObject(paramsDef.properties) ? paramsDef.properties._meta : undefined,
    isObject(messageDef) &&
    isObject(messageDef.properties) &&
    isObject(messageDef.properties.params) &&
    isObject(messageDef.properties.params.properties)
      ? messageDef.properties.params.properties._meta
      : undefined,
  ];
  const found = candidates.find(isObject);
  return found ? (structuredClone(found) as JsonSchema) : { type: 'object', additionalProperties: {} };
}

function withDescription(schemaNode: JsonSchema, description: string | undefined): JsonSchema {
  return description && typeof schemaNode.description !== 'string' ? { description, ...schemaNode } : schemaNode;
}

/** Add `extensions.<id>` to a capabilities definition, without touching the loaded schema. */
function withCapabilityEntry(caps: JsonSchema | undefined, id: string, settingsRef: string): JsonSchema {
  if (!isObject(caps) || !isObject(caps.properties) || !isObject(caps.properties.extensions)) return caps ?? {};
  const extensions = caps.properties.extensions;
  const properties = isObject(extensions.properties) ? { ...extensions.properties } : {};
  Object.defineProperty(properties, id, {
    value: { $ref: settingsRef },
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return { ...caps, properties: { ...caps.properties, extensions: { ...extensions, properties } } };
}

/** `mcp:X` → a ref to the MCP definition X; `#/definitions/X` → a ref to the merged definition X. */
function rewriteRefs(node: unknown, ref: (name: string) => string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, ref));
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    let next = value;
    if (key === '$ref' && typeof value === 'string') {
      if (value.startsWith('mcp:')) next = ref(value.slice(4));
      else if (value.startsWith('#/definitions/')) next = ref(value.slice('#/definitions/'.length));
    } else {
      next = rewriteRefs(value, ref);
    }
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
