/**
 * Reads vendor extension files: JSON parse (line/column on error), structural validation against
 * `schema/extension.schema.json` (first error only, with its JSON pointer), normalization.
 * Name rules are not checked here: see `checkExtensions` in `rules.ts`.
 */
import { extensionReadError } from './read-error.js';
import { didYouMean } from '../load/suggest.js';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { InputError } from '../errors.js';
import { escapePointerToken, pointer } from '../load/pointer.js';
import { isObject, type JsonSchema } from '../load/schema-types.js';
import type { Direction } from '../protocol-terms.js';
import type { ExtensionAugment, ExtensionChannel, ExtensionMethod, ExtensionSpec } from './types.js';
import { parseJson as parseJsonText } from '../load/json.js';
import { findStructureProblem } from './json-structure.js';
import { toolPackage } from '../load/package-root.js';
import { compareStrings } from '../load/order.js';

export type { ExtensionMethod, ExtensionSpec } from './types.js';

/** Absolute path of `schema/extension.schema.json` in the package. */
export function extensionMetaSchemaPath(): string {
  return join(toolPackage().root, 'schema', 'extension.schema.json');
}

let validator: ValidateFunction | undefined;

function metaValidator(): ValidateFunction {
  if (validator) return validator;
  const Ajv2020 = Ajv2020Module.default;
  // verbose: errors carry parentSchema, where our `errorMessage` annotations live.
  // validateFormats off: `$ref: "mcp:Name"` must not trip the uri-reference format of the 2020-12 meta-schema.
  const ajv = new Ajv2020({
    allErrors: false,
    verbose: true,
    validateFormats: false,
    strict: true,
    strictRequired: false,
    strictTypes: false,
  });
  ajv.addVocabulary(['errorMessage']);
  const metaSchema = JSON.parse(readFileSync(extensionMetaSchemaPath(), 'utf8')) as object;
  validator = ajv.compile(metaSchema);
  return validator;
}

/** Turn an ajv error into a stable, readable reason. */
function describeAjvError(error: ErrorObject): string {
  const parent = error.parentSchema as { errorMessage?: unknown } | undefined;
  if (parent && typeof parent === 'object' && typeof parent.errorMessage === 'string') return parent.errorMessage;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing required property "${String(params.missingProperty)}"`;
    case 'additionalProperties': {
      // Config keys have a did-you-mean; so do the extension file's (`method` → `methods`).
      const name = String(params.additionalProperty);
      const allowed = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return `unknown property "${name}"${didYouMean(name, allowed, (s) => `"${s}"`)}`;
    }
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'dependentRequired':
      return `"${String(params.property)}" requires "${String(params.missingProperty)}"`;
    default:
      return error.message ?? `fails "${error.keyword}"`;
  }
}

interface RawMethod {
  kind: 'request' | 'notification';
  direction: 'client->server' | 'server->client' | 'both' | 'input';
  description?: string;
  params?: JsonSchema;
  paramsRequired?: boolean;
  nameFrom?: string;
  cacheable?: boolean;
  mandatory?: boolean;
  setting?: string;
  result?: JsonSchema;
}

interface RawExtension {
  extension: string;
  official?: boolean;
  namespaces?: string[];
  version?: string;
  description: string;
  targets?: string[];
  methods?: Record<string, RawMethod>;
  definitions?: Record<string, JsonSchema>;
  settings?: JsonSchema;
  augment?: {
    results?: Record<string, { $ref: string; discriminant: Record<string, string | number | boolean> }[]>;
    properties?: Record<string, Record<string, JsonSchema>>;
    meta?: Record<string, Record<string, JsonSchema>>;
  };
  channel?: {
    client: string;
    server: string;
    handshake: string;
    initialized?: string;
    mcpMethods?: string[];
    mcpMethodsReversed?: string[];
  };
}

const LOCAL_DEF_REF = /^#\/definitions\/([^/]+)$/;

/** The schema `name` has among the properties of `schema` (or of the local definition it refers to). */
function propertySchema(
  schema: JsonSchema | null | undefined,
  name: string,
  definitions: Record<string, JsonSchema>,
): { found: boolean; schema?: unknown } {
  let current: JsonSchema | undefined = schema ?? undefined;
  const seen = new Set<JsonSchema>();
  while (current && !seen.has(current)) {
    seen.add(current);
    const properties = (current as { properties?: unknown }).properties;
    if (isObject(properties) && Object.hasOwn(properties, name)) return { found: true, schema: properties[name] };
    const target = typeof current.$ref === 'string' ? LOCAL_DEF_REF.exec(current.$ref)?.[1] : undefined;
    current = target === undefined ? undefined : definitions[target];
  }
  return { found: false };
}

/** Default for `paramsRequired`: the params schema (or the local definition it refers to) has required properties. */
function hasRequiredProperties(schema: JsonSchema, definitions: Record<string, JsonSchema>): boolean {
  let current: JsonSchema | undefined = schema;
  const seen = new Set<JsonSchema>();
  while (current && !seen.has(current)) {
    seen.add(current);
    if (Array.isArray(current.required) && current.required.length > 0) return true;
    const ref: unknown = current.$ref;
    const match = typeof ref === 'string' ? LOCAL_DEF_REF.exec(ref) : null;
    current = match?.[1] !== undefined ? definitions[match[1]] : undefined;
  }
  return false;
}

/** A copy with sorted keys; own properties defined, so a key named `__proto__` stays a key. */
function byKey<T>(record: Record<string, T>): Record<string, T> {
  const sorted: Record<string, T> = {};
  for (const key of Object.keys(record).sort(compareStrings)) {
    Object.defineProperty(sorted, key, { value: record[key], enumerable: true, writable: true, configurable: true });
  }
  return sorted;
}

/** The file's `augment` section as lists with the JSON pointer of each entry. */
function augmentOf(raw: RawExtension['augment']): ExtensionAugment {
  const out: ExtensionAugment = { results: [], properties: [], meta: [] };
  for (const [method, variants] of Object.entries(raw?.results ?? {})) {
    variants.forEach((v, i) =>
      out.results.push({
        method,
        ref: v.$ref,
        discriminant: v.discriminant,
        pointer: pointer('augment', 'results', method, i),
      }),
    );
  }
  for (const [definition, added] of Object.entries(raw?.properties ?? {})) {
    for (const [property, schema] of Object.entries(added)) {
      out.properties.push({
        definition,
        property,
        schema,
        pointer: pointer('augment', 'properties', definition, property),
      });
    }
  }
  for (const [definition, added] of Object.entries(raw?.meta ?? {})) {
    for (const [key, schema] of Object.entries(added)) {
      out.meta.push({ definition, key, schema, pointer: pointer('augment', 'meta', definition, key) });
    }
  }
  return out;
}

function directionsOf(direction: RawMethod['direction']): Direction[] {
  return direction === 'both' ? ['client->server', 'server->client'] : [direction];
}

/**
 * Validate an already parsed extension document against the meta-schema and normalize it.
 * Throws InputError(file, pointer of the first error, reason).
 */
export function normalizeExtension(file: string, document: unknown): ExtensionSpec {
  const validate = metaValidator();
  if (!validate(document)) {
    const first = validate.errors?.[0];
    if (!first) throw new InputError(file, '', 'does not match the extension file schema');
    // An unknown property is reported at its own pointer, not at the object that holds it.
    const extra = first.keyword === 'additionalProperties' ? (first.params as { additionalProperty?: unknown }) : {};
    const at =
      typeof extra.additionalProperty === 'string'
        ? `${first.instancePath}/${escapePointerToken(extra.additionalProperty)}`
        : first.instancePath;
    throw new InputError(file, at, describeAjvError(first));
  }
  const raw = document as RawExtension;
  const definitions = byKey(raw.definitions ?? {});
  const methods: ExtensionMethod[] = Object.keys(raw.methods ?? {})
    .sort(compareStrings)
    .map((method) => methodOf(file, method, (raw.methods ?? {})[method] as RawMethod, definitions)); // a key of the same object
  for (const m of methods) checkSettingName(file, m, raw.settings, definitions);
  if (raw.settings !== undefined) checkSettingsSatisfiable(file, raw.settings);
  const slash = raw.extension.indexOf('/');
  return {
    file,
    id: raw.extension,
    prefix: slash === -1 ? raw.extension : raw.extension.slice(0, slash),
    official: raw.official === true,
    namespaces: raw.namespaces ? [...raw.namespaces] : [],
    version: raw.version ?? null,
    description: raw.description,
    targets: raw.targets ? [...raw.targets] : null,
    methods,
    definitions,
    settings: raw.settings ?? null,
    augment: augmentOf(raw.augment),
    channel: channelOf(file, raw.channel, methods),
  };
}

/** One method of the file, normalized (`nameFrom` checked against the params it names). */
function methodOf(
  file: string,
  method: string,
  m: RawMethod,
  definitions: Record<string, JsonSchema>,
): ExtensionMethod {
  const params = m.params ?? null;
  if (m.kind === 'notification' && m.cacheable !== undefined) {
    throw new InputError(
      file,
      `${pointer('methods', method)}/cacheable`,
      `"cacheable" is for requests: ${method} is a notification, which has no result to cache`,
      'remove "cacheable" from the notification',
    );
  }
  const out: ExtensionMethod = {
    method,
    kind: m.kind,
    directions: directionsOf(m.direction),
    params,
    paramsRequired: m.paramsRequired ?? (params !== null && hasRequiredProperties(params, definitions)),
    paramsRequiredGiven: m.paramsRequired !== undefined,
    cacheable: m.kind === 'request' && m.cacheable === true,
    mandatory: m.mandatory === true,
    pointer: pointer('methods', method),
  };
  for (const key of ['mandatory', 'setting'] as const) {
    if (m[key] === undefined || (m.kind === 'request' && m.direction === 'client->server')) continue;
    throw new InputError(
      file,
      `${out.pointer}/${key}`,
      `"${key}" is for client->server requests: ${method} is a ${m.direction} ${m.kind}`,
      `remove "${key}" (it tells what a server advertising the extension offers)`,
    );
  }
  if (m.setting !== undefined) out.setting = m.setting;
  if (m.kind === 'request' && m.result !== undefined) out.result = m.result;
  if (m.nameFrom !== undefined) {
    if (!propertySchema(params, m.nameFrom, definitions).found) {
      throw new InputError(
        file,
        `${out.pointer}/nameFrom`,
        `"${m.nameFrom}" is not a property of the params of ${method}`,
        'name a property the params declare (Mcp-Name carries its value)',
      );
    }
    out.nameFrom = m.nameFrom;
  }
  if (m.description !== undefined) out.description = m.description;
  return out;
}

/**
 * Settings no value can satisfy would refuse every peer that advertises the extension: a required property
 * whose schema is `false` (or `not: {}`, or an empty `enum`), one `"additionalProperties": false` leaves out,
 * more required properties than `maxProperties` allows, or an empty `enum` for the settings themselves.
 */
function checkSettingsSatisfiable(file: string, settings: JsonSchema): void {
  const refuse = (at: string, why: string): never => {
    throw new InputError(
      file,
      at,
      `no settings can satisfy this schema: ${why}`,
      'a peer advertising the extension could never be valid',
    );
  };
  const properties = isObject(settings.properties) ? settings.properties : {};
  const required = Array.isArray(settings.required) ? settings.required.filter((r) => typeof r === 'string') : [];
  if (Array.isArray(settings.enum) && settings.enum.length === 0) refuse('/settings/enum', 'its enum is empty');
  if (typeof settings.maxProperties === 'number' && required.length > settings.maxProperties)
    refuse('/settings/maxProperties', `it requires ${required.length} properties and allows ${settings.maxProperties}`);
  for (const name of required) {
    const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const at = pointer('settings', 'properties', name);
    if (schema === false || (isObject(schema) && isObject(schema.not) && Object.keys(schema.not).length === 0))
      refuse(at, `the required "${name}" accepts no value`);
    if (isObject(schema) && Array.isArray(schema.enum) && schema.enum.length === 0)
      refuse(`${at}/enum`, `the required "${name}" has an empty enum`);
    if (schema === undefined && settings.additionalProperties === false && !isObject(settings.patternProperties))
      refuse('/settings/required', `"${name}" is required and "additionalProperties": false leaves it out`);
  }
}

/** A method's `setting` must be a boolean property of the extension's settings (the flag a server sets). */
function checkSettingName(
  file: string,
  m: ExtensionMethod,
  settings: JsonSchema | undefined,
  definitions: Record<string, JsonSchema>,
): void {
  if (m.setting === undefined) return;
  const property = propertySchema(settings, m.setting, definitions).schema;
  if (isObject(property) && property['type'] === 'boolean') return;
  throw new InputError(
    file,
    `${m.pointer}/setting`,
    `"${m.setting}" is not a boolean property of this extension's settings`,
    `declare it in "settings": { "properties": { "${m.setting}": { "type": "boolean" } } }`,
  );
}

/** The file's `channel`, its handshake and initialized checked against the file's own methods. */
function channelOf(file: string, raw: RawExtension['channel'], methods: ExtensionMethod[]): ExtensionChannel | null {
  if (raw === undefined) return null;
  const sent = (key: 'handshake' | 'initialized', kind: 'request' | 'notification') => {
    const name = raw[key];
    const method = methods.find((m) => m.method === name);
    if (method === undefined || method.kind !== kind || !method.directions.includes('client->server')) {
      throw new InputError(
        file,
        pointer('channel', key),
        `"${name}" is not a client->server ${kind} of this extension`,
        `the ${raw.client} end sends it to open the channel`,
      );
    }
  };
  sent('handshake', 'request');
  if (raw.initialized !== undefined) sent('initialized', 'notification');
  if (raw.client === raw.server) {
    throw new InputError(file, pointer('channel', 'server'), `the two ends of the channel need different names`);
  }
  for (const key of ['mcpMethods', 'mcpMethodsReversed'] as const) {
    const own = raw[key]?.findIndex((name) => methods.some((m) => m.method === name)) ?? -1;
    if (own >= 0) {
      throw new InputError(
        file,
        pointer('channel', key, String(own)),
        `"${raw[key]?.[own] ?? ''}" is a method of this extension`,
        "list only methods declared elsewhere (MCP's own): the channel carries every method of this file already",
      );
    }
  }
  return {
    client: raw.client,
    server: raw.server,
    handshake: raw.handshake,
    initialized: raw.initialized ?? null,
    mcpMethods: raw.mcpMethods ?? null,
    mcpMethodsReversed: raw.mcpMethodsReversed ?? [],
  };
}

/** Parse extension file text (a leading BOM is ignored), validate and normalize it. */
export function parseExtension(file: string, text: string): ExtensionSpec {
  const document = parseJsonText(text, file);
  const problem = findStructureProblem(text);
  if (problem) throw new InputError(file, problem.pointer, problem.reason);
  return normalizeExtension(file, document);
}

/** Read, parse, validate and normalize one extension file. `file` in the result and in errors is `path` as given. */
export async function loadExtensionFile(path: string): Promise<ExtensionSpec> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw extensionReadError(path, e);
  }
  return parseExtension(path, text);
}
