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
import { extensionReadError } from '../extensions/read-error.js';
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { parseExtension } from '../extensions/load.js';
import { FILE_REF, checkExtensions, crossFileRefsOf, resolveSibling } from '../extensions/rules.js';
import { officialExtensionFile } from '../extensions/official.js';
import { appliesTo, type ExtensionSpec } from '../extensions/types.js';
import { sha256 } from '../load/hash.js';
import { knownVersionNames, methodSenders } from '../load/manifest.js';
import { isObject } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';
import { compareStrings } from '../load/order.js';
import { applyAugmentations } from './augment.js';
import { pascalCase, settingsDefinitionName } from './extension-names.js';
import { factsWith } from './extension-facts.js';
import { withVendorResultTypes } from './vendor-results.js';
import type { MethodInfo, ProtocolModel } from './types.js';
import { ownRequestMeta } from './request-meta.js';
import { escapePointerToken, unescapePointerToken } from '../load/pointer.js';
import { unwrapAllOf } from '../load/schema-keywords.js';

export { pascalCase, settingsDefinitionName } from './extension-names.js';

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
    throw extensionReadError(path, e);
  }
};

/**
 * Load the extension files given (an official id such as `io.modelcontextprotocol/tasks` stands for the
 * file shipped in schema/extensions/), then every file their cross-file `$ref`s name, each once.
 */
export async function loadExtensionsFor(
  files: string[],
  cwd: string,
  read: ExtensionReader = readExtensionFile,
): Promise<LoadedExtension[]> {
  const loaded: LoadedExtension[] = [];
  const seen = new Set<string>();
  const queue = files.map((file) => officialExtensionFile(file, cwd) ?? file);
  // Who named each file reached through a `$ref`, so a file that cannot be read is reported there.
  const referrers = new Map<number, Referrer>();
  for (const [i, file] of queue.entries()) {
    const { name, text } = await readReferenced(read, file, cwd, referrers.get(i));
    if (seen.has(name)) continue;
    seen.add(name);
    const spec = parseExtension(name, text);
    loaded.push({ file: files[i] ?? file, sha256: sha256(text), spec, warnings: [] });
    for (const other of crossFileRefsOf([spec.methods, spec.definitions, spec.settings, spec.augment])) {
      // Relative to the referring file as the reader named it, so `git:<ref>:<path>` sources work too.
      referrers.set(queue.length, { file: name, text, ref: other });
      queue.push(resolveSibling(isAbsolute(name) ? name : file, other));
    }
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

/** The file whose `$ref` named another file (its text, parsed again only when that file is missing). */
interface Referrer {
  file: string;
  text: string;
  ref: string;
}

/** `read`, but a file named by another one's `$ref` that cannot be read is that `$ref`'s error. */
async function readReferenced(
  read: ExtensionReader,
  file: string,
  cwd: string,
  referrer: Referrer | undefined,
): Promise<{ name: string; text: string }> {
  try {
    return await read(file, cwd);
  } catch (error) {
    if (referrer === undefined || !(error instanceof InputError)) throw error;
    // Said again without suggesting the referring file itself, which sits beside the missing one.
    const reason = error.reason.startsWith('extension file not found')
      ? extensionReadError(error.file, { code: 'ENOENT' }, referrer.file).reason
      : error.reason;
    throw new InputError(
      referrer.file,
      fileRefPointer(JSON.parse(referrer.text), referrer.ref),
      `$ref names "${referrer.ref}": ${reason} (${error.file})`,
    );
  }
}

/** The pointer of the first `$ref` in an extension file (in file order) that names `file`. Iterative. */
function fileRefPointer(json: unknown, file: string): string | undefined {
  const stack: { node: unknown; at: string }[] = [{ node: json, at: '' }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node, at } = top;
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, child] of Object.entries(node).reverse()) {
      const here = `${at}/${escapePointerToken(key)}`;
      if (key === '$ref' && typeof child === 'string' && FILE_REF.exec(child)?.[1] === file) return here;
      stack.push({ node: child, at: here });
    }
  }
  return undefined;
}

export function applyExtensions(model: ProtocolModel, extensions: LoadedExtension[]): ProtocolModel {
  if (extensions.length === 0) return model;
  const applicable = extensions.filter((e) => model.version === null || appliesTo(e.spec, model.version));
  for (const e of extensions) {
    if (!applicable.includes(e))
      e.warnings.push(`${e.file}: extension ${e.spec.id} does not target MCP ${model.version}; skipped`);
  }
  if (applicable.length === 0) return model;
  warnUnknownChannelMethods(applicable, model);
  checkExtensions(
    applicable.map((e) => e.spec),
    {
      knownMcpMethods: new Set(model.methods.map((m) => m.method)),
      mcpDefinitionNames: new Set(Object.keys(model.definitions)),
      version: model.version ?? undefined,
      inputRequests: model.features.inputRequests,
      cacheableResults: Object.hasOwn(model.definitions, 'CacheableResult'),
      serverRequests: model.methods.some(
        (m) => m.source === 'mcp' && m.kind === 'request' && m.directions.includes('server->client'),
      ),
    },
  );
  const merge = new ExtensionMerge(model);
  for (const e of applicable) merge.add(e);
  const { definitions, methods } = merge.finish(applicable);
  const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => compareStrings(a, b)));
  const channels = channelsOf(applicable);
  return {
    ...model,
    definitions: sorted,
    methods: methods.sort((x, y) => compareStrings(x.method, y.method)),
    facts: factsWith(model, applicable, sorted, methods),
    ...(channels.length > 0 ? { channels } : {}),
  };
}

/** The model's definitions and methods with extensions merged in, one extension file at a time. */
class ExtensionMerge {
  readonly definitions: Record<string, JsonSchema>;
  readonly methods: MethodInfo[];
  private readonly inputMessages: string[] = [];
  private readonly inputResults: string[] = [];
  /** Methods whose paramsRequired is derived once every definition (other files' too) is merged. */
  private readonly derived: { info: MethodInfo; paramsName: string }[] = [];
  private readonly model: ProtocolModel;

  constructor(model: ProtocolModel) {
    this.model = model;
    this.definitions = { ...model.definitions };
    this.methods = [...model.methods];
  }

  ref(name: string): string {
    return `#/${this.model.defsKeyword}/${name}`;
  }

  add(e: LoadedExtension): void {
    for (const [name, def] of Object.entries(e.spec.definitions)) this.define(e, name, def, `/definitions/${name}`);
    for (const m of e.spec.methods) this.addMethod(e, m);
    // Every extension gets a settings type (an empty object schema when the file declares none) and its
    // entry in both capabilities' `extensions` map — also in versions whose schema has no such map
    // (SEP-2133 negotiates extensions there too: capabilities are open objects).
    const settingsName = settingsDefinitionName(e.spec.id);
    this.define(
      e,
      settingsName,
      withDescription(e.spec.settings ?? { type: 'object' }, `Settings of the ${e.spec.id} extension.`),
      '/settings',
    );
    for (const caps of ['ClientCapabilities', 'ServerCapabilities']) {
      this.definitions[caps] = withCapabilityEntry(this.definitions[caps], e.spec.id, this.ref(settingsName));
    }
  }

  /** Derived params requirements, augmentations and the input unions, once every file is in. */
  finish(applicable: readonly LoadedExtension[]): { definitions: Record<string, JsonSchema>; methods: MethodInfo[] } {
    const { definitions, model } = this;
    for (const { info, paramsName } of this.derived) {
      // Both were defined by addMethod, under these names.
      const [params, message] = [definitions[paramsName], definitions[info.definition]];
      if (params === undefined || message === undefined) continue;
      info.paramsRequired = requiresParams(params, definitions, model);
      definitions[info.definition] = withParamsRequired(message, info.paramsRequired);
    }
    const channelled = new Set(applicable.filter((e) => e.spec.channel !== null).map((e) => e.spec.id));
    const cacheable = new Set(
      applicable.flatMap((e) => e.spec.methods.filter((m) => m.cacheable).map((m) => m.method)),
    );
    withVendorResultTypes(
      definitions,
      this.methods,
      (id) => channelled.has(id),
      (method) => cacheable.has(method),
    );
    for (const e of applicable) {
      applyAugmentations(e.spec, {
        model,
        definitions,
        methods: this.methods,
        rewrite: (node) => rewriteRefs(node, (name) => this.ref(name)) as JsonSchema,
        refName: (value) => refTarget(value),
      });
    }
    // Vendor input requests join the unions an InputRequiredResult's inputRequests/inputResponses accept.
    // Only where there is something to extend: a version without input requests must not gain empty unions.
    if (this.inputMessages.length > 0) {
      const refs = (names: string[]) => names.map((n) => this.ref(n));
      definitions.InputRequest = withAlternatives(definitions.InputRequest, refs(this.inputMessages));
      definitions.InputResponse = withAlternatives(definitions.InputResponse, refs(this.inputResults));
    }
    return { definitions, methods: this.methods };
  }

  private define(e: LoadedExtension, name: string, schemaNode: JsonSchema, pointer: string): void {
    if (Object.hasOwn(this.definitions, name)) {
      throw new InputError(
        e.file,
        pointer,
        `the definition "${name}" generated for this method collides with an existing definition`,
      );
    }
    this.definitions[name] = rewriteRefs(schemaNode, (n) => this.ref(n)) as JsonSchema;
  }

  /** One method: its params, message and result definitions, and its MethodInfo. */
  private addMethod(e: LoadedExtension, m: LoadedExtension['spec']['methods'][number]): void {
    const base = pascalCase(m.method);
    const messageName = `${base}${m.kind === 'request' ? 'Request' : 'Notification'}`;
    const paramsName = m.params ? `${messageName}Params` : null;
    if (paramsName)
      this.define(
        e,
        paramsName,
        withDescription(withReservedMeta(m.params ?? {}, this.model, m), m.description),
        m.pointer,
      );
    this.define(e, messageName, this.messageSchema(m, paramsName), m.pointer);
    let result: string[] | undefined;
    if (m.kind === 'request') {
      const resultName = `${base}Result`;
      this.define(e, resultName, m.result ?? { type: 'object' }, `${m.pointer}/result`);
      result = [resultName];
      if (m.directions.includes('input')) {
        this.inputMessages.push(messageName);
        this.inputResults.push(resultName);
      }
    }
    const info: MethodInfo = {
      method: m.method,
      kind: m.kind,
      directions: [...m.directions],
      definition: messageName,
      params: paramsName === null ? null : { kind: 'definition', name: paramsName },
      paramsRequired: paramsName !== null && m.paramsRequired,
      ...(result ? { result } : {}),
      source: e.spec.id,
    };
    this.methods.push(info);
    if (paramsName !== null && !m.paramsRequiredGiven) this.derived.push({ info, paramsName });
  }

  private messageSchema(m: LoadedExtension['spec']['methods'][number], paramsName: string | null): JsonSchema {
    return {
      ...(m.description ? { description: m.description } : {}),
      type: 'object',
      properties: {
        jsonrpc: { type: 'string', const: '2.0' },
        ...(m.kind === 'request' ? { id: { $ref: this.ref('RequestId') } } : {}),
        method: { type: 'string', const: m.method },
        ...(paramsName ? { params: { $ref: this.ref(paramsName) } } : {}),
      },
      required: [
        ...(m.kind === 'request' ? ['id'] : []),
        'jsonrpc',
        'method',
        ...(paramsName && m.paramsRequired ? ['params'] : []),
      ],
    };
  }
}

/**
 * A channel's `mcpMethods` (or `mcpMethodsReversed`) entry that names no method of this schema nor of any known
 * MCP version carries nothing: most likely misspelt, so it is said. (One some versions lack, as 2026-07-28 lacks
 * `ping`, is not.)
 */
function warnUnknownChannelMethods(applicable: readonly LoadedExtension[], model: ProtocolModel): void {
  const listed = (e: LoadedExtension) =>
    (['mcpMethods', 'mcpMethodsReversed'] as const).flatMap((key) =>
      (e.spec.channel?.[key] ?? []).map((name) => ({ key, name })),
    );
  if (!applicable.some((e) => listed(e).length > 0)) return;
  const known = new Set([...model.methods.map((m) => m.method), ...methodSenders().keys()]);
  for (const e of applicable) {
    for (const { key, name } of listed(e)) {
      if (!known.has(name)) e.warnings.push(`${e.file}: channel.${key} names "${name}", which is no MCP method`);
    }
  }
}

/** The channels the extensions declare, with the class names of their two ends. */
function channelsOf(applicable: readonly LoadedExtension[]) {
  return applicable
    .flatMap((e) => (e.spec.channel === null ? [] : [{ e, channel: e.spec.channel }]))
    .map(({ e, channel }) => {
      const name = pascalCase(e.spec.id.slice(e.spec.id.indexOf('/') + 1));
      const classes = {
        clientClass: name + pascalCase(channel.client),
        serverClass: name + pascalCase(channel.server),
      };
      return { extension: e.spec.id, ...channel, ...classes };
    })
    .sort((a, b) => compareStrings(a.extension, b.extension));
}

/**
 * `_meta` is reserved in every request's and notification's params: the runtime sends it whatever the
 * extension declares (`_meta.progressToken` with onProgress; 2026-07-28 on, the per-request protocol
 * version, client info and capabilities on every request). Params closed with `additionalProperties:
 * false` (or `unevaluatedProperties: false`) that do not declare it would make the generated server
 * refuse those calls with -32602, so it is added as an optional property typed like MCP's own `_meta`.
 */
function withReservedMeta(
  params: JsonSchema,
  model: ProtocolModel,
  m: Pick<MethodInfo, 'kind' | 'directions'>,
): JsonSchema {
  const properties = isObject(params.properties) ? params.properties : undefined;
  const closed = params.additionalProperties === false || params.unevaluatedProperties === false;
  if (!closed || (properties && Object.hasOwn(properties, '_meta'))) return params;
  const meta = mcpMetaSchema(model, m);
  return { ...params, properties: { ...properties, _meta: meta } };
}

/** MCP's `_meta` schema for a request's or a notification's params in this version (refs already local). */
function mcpMetaSchema(model: ProtocolModel, m: Pick<MethodInfo, 'kind' | 'directions'>): JsonSchema {
  const own = ownRequestMeta(model.definitions, model.defsKeyword, m);
  if (own !== undefined) return own;
  const base = m.kind === 'request' ? 'Request' : 'Notification';
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

/**
 * Add `extensions.<id>` to a capabilities definition, without touching the loaded schema; where the
 * version has no `extensions` map, add one (open to other extensions' settings objects).
 */
function withCapabilityEntry(caps: JsonSchema | undefined, id: string, settingsRef: string): JsonSchema {
  if (!isObject(caps) || !isObject(caps.properties)) return caps ?? {};
  const extensions: JsonSchema = isObject(caps.properties.extensions)
    ? caps.properties.extensions
    : {
        description: 'Extensions this peer supports, by extension id, each with its settings object.',
        type: 'object',
        additionalProperties: { type: 'object', additionalProperties: {} },
      };
  const properties = isObject(extensions.properties) ? { ...extensions.properties } : {};
  Object.defineProperty(properties, id, {
    value: { $ref: settingsRef },
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return { ...caps, properties: { ...caps.properties, extensions: { ...extensions, properties } } };
}

/**
 * The merged definition a `$ref` of an extension file names: `mcp:X`, `#/definitions/X` and
 * `<file>#/definitions/X` all name X (extension definitions share one namespace with MCP's), or null.
 */
function refTarget(value: string): string | null {
  if (value.startsWith('mcp:')) return value.slice(4);
  const token = /^#\/definitions\/([^/]+)$/.exec(value)?.[1] ?? FILE_REF.exec(value)?.[2];
  return token === undefined ? null : unescapePointerToken(token);
}

/** Add `$ref`s to a union definition (`anyOf`), without touching the loaded schema. */
function withAlternatives(union: JsonSchema | undefined, refs: string[]): JsonSchema {
  if (!isObject(union) || refs.length === 0) return union ?? {};
  // A union wrapped in a single-member allOf gets the alternatives inside the wrapper.
  const [wrapped] = Array.isArray(union.allOf) && unwrapAllOf(union).node !== union ? union.allOf : [];
  if (isObject(wrapped)) return { ...union, allOf: [withAlternatives(wrapped, refs)] };
  const key = Array.isArray(union.anyOf) ? 'anyOf' : 'oneOf';
  const list = Array.isArray(union[key]) ? (union[key] as unknown[]) : [];
  return { ...union, [key]: [...list, ...refs.map(($ref) => ({ $ref }))] };
}

/** The message definition with `params` required or not. */
function withParamsRequired(message: JsonSchema, required: boolean): JsonSchema {
  const list = (message.required as string[]).filter((r) => r !== 'params');
  return { ...message, required: required ? [...list, 'params'] : list };
}

/**
 * Whether params must be sent, when the file does not say: the params schema requires a property —
 * directly, through `$ref`s (MCP's too), in any `allOf` member, or in every `oneOf`/`anyOf` branch.
 */
function requiresParams(
  schemaNode: JsonSchema,
  definitions: Record<string, JsonSchema>,
  model: ProtocolModel,
  seen = new Set<JsonSchema>(),
): boolean {
  if (seen.has(schemaNode)) return false;
  seen.add(schemaNode);
  if (Array.isArray(schemaNode.required) && schemaNode.required.length > 0) return true;
  const prefix = `#/${model.defsKeyword}/`;
  if (typeof schemaNode.$ref === 'string' && schemaNode.$ref.startsWith(prefix)) {
    const target = definitions[schemaNode.$ref.slice(prefix.length)];
    if (isObject(target) && requiresParams(target, definitions, model, seen)) return true;
  }
  const all = Array.isArray(schemaNode.allOf) ? schemaNode.allOf.filter(isObject) : [];
  if (all.some((s) => requiresParams(s, definitions, model, seen))) return true;
  for (const key of ['oneOf', 'anyOf']) {
    const branches = Array.isArray(schemaNode[key]) ? (schemaNode[key] as unknown[]).filter(isObject) : [];
    if (branches.length > 0 && branches.every((s) => requiresParams(s, definitions, model, new Set(seen)))) return true;
  }
  return false;
}

/** `mcp:X` → a ref to the MCP definition X; `#/definitions/X` and `<file>#/definitions/X` → a ref to the merged definition X. */
function rewriteRefs(node: unknown, ref: (name: string) => string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, ref));
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    let next = value;
    if (key === '$ref' && typeof value === 'string') {
      const target = refTarget(value);
      if (target !== null) next = ref(target);
    } else {
      next = rewriteRefs(value, ref);
    }
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
