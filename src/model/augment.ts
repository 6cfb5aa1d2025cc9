/**
 * Augmentations: what an extension adds to MCP's own definitions and methods for the targets it is
 * enabled for (the tasks extension's CreateTaskResult as a tools/call result, SubscriptionFilter.taskIds;
 * MCP Apps' `_meta.ui` on Tool). Applied to the model's definitions and methods, so types, validators,
 * client, server and diff all see them without knowing about extensions.
 */
import { InputError } from '../errors.js';
import type { ExtensionSpec } from '../extensions/types.js';
import { isObject } from '../load/schema.js';
import { decodeFragmentToken } from '../load/pointer.js';
import type { JsonSchema } from '../load/schema-types.js';
import type { MethodInfo, ProtocolModel } from './types.js';

export interface AugmentTarget {
  model: ProtocolModel;
  /** The merged definitions so far (MCP's and the extensions'); replaced, never mutated in place. */
  definitions: Record<string, JsonSchema>;
  /** The merged methods so far; entries are replaced, never mutated in place. */
  methods: MethodInfo[];
  /** `mcp:X`, `#/definitions/X` and `file#/definitions/X` → a ref into the merged definitions. */
  rewrite: (schema: JsonSchema) => JsonSchema;
  /** The definition name a `$ref` of the file names (any of the three forms), or null. */
  refName: (ref: string) => string | null;
}

/** `_meta` schemas built here, so a second extension adds its key to the same object. */
const augmentedMeta = new WeakSet<object>();

function where(model: ProtocolModel): string {
  return model.version ? `MCP ${model.version}` : 'the target schema';
}

function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The `properties` of a definition, looking through a top-level `allOf` of local refs as well. */
function declaredConst(
  definitions: Record<string, JsonSchema>,
  name: string,
  property: string,
  refName: (ref: string) => string | null,
  seen = new Set<string>(),
): unknown {
  const def = definitions[name];
  if (!isObject(def) || seen.has(name)) return undefined;
  seen.add(name);
  const own = isObject(def.properties) ? def.properties[property] : undefined;
  if (isObject(own) && own.const !== undefined) return own.const;
  for (const part of Array.isArray(def.allOf) ? def.allOf : []) {
    const ref = isObject(part) && typeof part.$ref === 'string' ? refName(part.$ref) : null;
    const found = ref ? declaredConst(definitions, ref, property, refName, seen) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A plain object schema (nothing composed or referenced) that does not declare `property`. */
function lacksProperty(definition: unknown, property: string): boolean {
  if (!isObject(definition) || !isObject(definition.properties)) return false;
  if (['allOf', 'anyOf', 'oneOf', '$ref'].some((k) => definition[k] !== undefined)) return false;
  return !Object.hasOwn(definition.properties, property);
}

/**
 * The discriminant value an MCP result implies without declaring it as a constant: `resultType` is a plain
 * string in the schema, but a result that asks for input (one with `inputRequests` or `requestState`) says
 * "input_required" and any other the final "complete" (the schema's ResultType description).
 */
function impliedValue(definition: unknown, property: string): string | undefined {
  if (property !== 'resultType' || !isObject(definition)) return undefined;
  const properties = isObject(definition.properties) ? definition.properties : {};
  return 'inputRequests' in properties || 'requestState' in properties ? 'input_required' : 'complete';
}

/** Apply one extension's augmentations. Throws InputError(file, pointer, reason) for anything that does not fit the target. */
export function applyAugmentations(spec: ExtensionSpec, target: AugmentTarget): void {
  for (const a of spec.augment.results) addResultVariant(spec, a, target);
  for (const a of spec.augment.properties) addProperty(spec, a, target);
  for (const a of spec.augment.meta) addMetaKey(spec, a, target);
}

type Augment = ExtensionSpec['augment'];

/** A result variant of a core request, with its discriminant; the other variants' discriminants are pinned too. */
function addResultVariant(spec: ExtensionSpec, a: Augment['results'][number], target: AugmentTarget): void {
  const { model, definitions, methods } = target;
  const index = methods.findIndex((m) => m.method === a.method);
  const method = methods[index];
  if (!method || method.source !== 'mcp') {
    throw new InputError(spec.file, a.pointer, `no MCP method "${a.method}" in ${where(model)} to add a result to`);
  }
  if (method.kind !== 'request') {
    throw new InputError(spec.file, a.pointer, `"${a.method}" is a notification: it has no result`);
  }
  const name = target.refName(a.ref);
  if (name === null || !isObject(definitions[name])) {
    throw new InputError(spec.file, `${a.pointer}/$ref`, `"${a.ref}" does not name a definition`);
  }
  for (const [property, value] of Object.entries(a.discriminant)) {
    const declared = declaredConst(definitions, name, property, target.refName);
    if (declared !== value) {
      throw new InputError(
        spec.file,
        `${a.pointer}/discriminant`,
        `${name} must declare ${property} with "const": ${JSON.stringify(value)} (the discriminant of this variant)`,
      );
    }
    for (const other of method.result ?? []) {
      if (declaredConst(definitions, other, property, target.refName) === value) {
        throw new InputError(
          spec.file,
          `${a.pointer}/discriminant`,
          `"${a.method}" already has a result with ${property} ${JSON.stringify(value)} (${other})`,
        );
      }
    }
  }
  const discriminants = { ...method.discriminants };
  for (const other of method.result ?? []) {
    const values = { ...discriminants[other] };
    for (const property of Object.keys(a.discriminant)) {
      const value =
        declaredConst(definitions, other, property, target.refName) ?? impliedValue(definitions[other], property);
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        values[property] = value;
      // A variant that does not carry the property at all: typed without it, so `result.kind === …` narrows.
      else if (lacksProperty(definitions[other], property)) values[property] = null;
    }
    if (Object.keys(values).length > 0) discriminants[other] = values;
  }
  discriminants[name] = { ...a.discriminant };
  methods[index] = { ...method, result: [...(method.result ?? []), name], discriminants };
}

/** A property added to a core definition. */
function addProperty(spec: ExtensionSpec, a: Augment['properties'][number], target: AugmentTarget): void {
  const { model, definitions } = target;
  const def = definitions[a.definition];
  if (!isObject(def)) {
    throw new InputError(
      spec.file,
      a.pointer,
      `no definition "${a.definition}" in ${where(model)} to add properties to`,
    );
  }
  const properties = isObject(def.properties) ? def.properties : undefined;
  if (!properties) {
    throw new InputError(spec.file, a.pointer, `"${a.definition}" in ${where(model)} declares no properties to add to`);
  }
  if (Object.hasOwn(properties, a.property)) {
    throw new InputError(
      spec.file,
      a.pointer,
      `"${a.definition}" in ${where(model)} already has a property "${a.property}"`,
    );
  }
  const next: JsonSchema = { ...properties };
  setOwn(next, a.property, target.rewrite(a.schema));
  setOwn(definitions, a.definition, { ...def, properties: next });
}

/** Whether a schema declares `key` among its properties, directly or through local `$ref`s and `allOf`. */
function declaresKey(schema: unknown, key: string, definitions: Record<string, JsonSchema>, seen = new Set()): boolean {
  if (!isObject(schema) || seen.has(schema)) return false;
  seen.add(schema);
  if (isObject(schema.properties) && Object.hasOwn(schema.properties, key)) return true;
  const ref =
    typeof schema.$ref === 'string' ? /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(schema.$ref)?.[1] : undefined;
  if (ref !== undefined && declaresKey(definitions[decodeFragmentToken(ref)], key, definitions, seen)) return true;
  const parts = Array.isArray(schema.allOf) ? schema.allOf : [];
  return parts.some((part) => declaresKey(part, key, definitions, seen));
}

/** A typed key beside a core definition's `_meta`. */
function addMetaKey(spec: ExtensionSpec, a: Augment['meta'][number], target: AugmentTarget): void {
  const { model, definitions } = target;
  const def = definitions[a.definition];
  const properties = isObject(def) && isObject(def.properties) ? def.properties : undefined;
  const meta = properties?._meta;
  if (!isObject(def) || !properties || !isObject(meta)) {
    throw new InputError(
      spec.file,
      a.pointer,
      `no definition "${a.definition}" with a _meta property in ${where(model)}`,
    );
  }
  // `_meta` stays what MCP says (usually a $ref to MetaObject) and gains the typed keys beside it.
  const already = augmentedMeta.has(meta);
  const base = already ? (meta.allOf as JsonSchema[]) : [meta];
  const extra: JsonSchema = already && isObject(meta.properties) ? { ...meta.properties } : {};
  if (Object.hasOwn(extra, a.key)) {
    throw new InputError(spec.file, a.pointer, `"${a.definition}._meta" already has a key "${a.key}"`);
  }
  if (base.some((part) => declaresKey(part, a.key, definitions))) {
    throw new InputError(
      spec.file,
      a.pointer,
      `"${a.definition}._meta" in ${where(model)} already declares "${a.key}": an extension adds keys, it does not retype MCP's`,
      'give the key a name of the extension\'s own (e.g. with its prefix, "com.example/key")',
    );
  }
  setOwn(extra, a.key, target.rewrite(a.schema));
  const augmented: JsonSchema = { allOf: base, type: 'object', properties: extra };
  augmentedMeta.add(augmented);
  const nextProps: JsonSchema = { ...properties };
  setOwn(nextProps, '_meta', augmented);
  setOwn(definitions, a.definition, { ...def, properties: nextProps });
}
