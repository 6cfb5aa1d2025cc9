/**
 * validators.js + validators.d.ts: ajv validators compiled to standalone code at generation time, so
 * nothing is compiled when a server starts. One validator per definition, one per inline params schema
 * (`params$<Definition>`).
 *
 * JavaScript beside its declarations (validator-declarations.ts), not a TypeScript module: a program that
 * imports the generated code then reads a few hundred lines of declarations instead of parsing ajv's
 * code (issue 37 measured the `@ts-nocheck` module at 0.80× the SDK's whole tsc cost, the declarations at
 * 0.38×). Bundlers, Node, Bun and Deno load it as it is; a `tsc --outDir` build sets `allowJs` so tsc
 * copies it (and converts it to CommonJS where the project is). Each export is its own tree-shakable
 * function (`/* @__PURE__ *\/` on every call an export is) and also a Standard Schema v1.
 */
import type { ParamsRef, ProtocolModel } from '../../model/types.js';
import { ajvClass } from './ajv-class.js';
import { repairDefinitions } from '../types/normalize.js';
import type { GeneratedFile } from '../shared/context.js';
import { paramsType } from '../types/params-names.js';
import type { TsFiles } from '../shared/ts-project.js';
import { stringLiteral } from '../shared/ts-names.js';
import { validatorDeclarations } from './validator-declarations.js';
import { compiledAt, standaloneModule, type AjvInstance } from './validator-code.js';
import { compactErrors } from './validator-errors.js';
import { schemaCompileError } from './validator-schema-error.js';
import { escapePointerToken } from '../../load/pointer.js';
import { sha256 } from '../../load/hash.js';
import { BoundedMemo } from '../shared/bounded-memo.js';
import { DEFINITION_MAPS, SUBSCHEMA_MAPS } from '../../load/schema-keywords.js';

/** The export name of the validator for a method's params. */
export function paramsValidatorName(params: ParamsRef, definition: string): string {
  return params.kind === 'inline' ? `params$${definition}` : params.name;
}

/**
 * What the generated validators accept, as ajv options (the bench compiles its run-time baseline with
 * exactly these, so the comparison stays like for like).
 */
export const VALIDATION_OPTIONS = {
  strict: false,
  allErrors: false,
  allowUnionTypes: true,
  validateFormats: false,
  unicodeRegExp: true,
  // Only own properties count: without this a `required: ["constructor"]` is met by
  // Object.prototype.constructor, and an optional `constructor` property is type-checked against it.
  ownProperties: true,
} as const;

/** The validators artifact: validators.js and the validators.d.ts that declares it. */
export function validatorFiles(
  model: ProtocolModel,
  ctx: { schemaFile: string; ts: TsFiles; importExt: string; singleFile?: boolean },
): GeneratedFile[] {
  const { js, exports } = validatorsModule(model, ctx.schemaFile);
  // The single-file layout declares types.ts's types in index.ts.
  const types = `./${ctx.singleFile === true ? 'index' : 'types'}${ctx.importExt}`;
  return [
    { path: 'validators.js', contents: js },
    { path: 'validators.d.ts', contents: ctx.ts.print(validatorDeclarations(exports, types)) },
  ];
}

/** validators.js's text. `schemaFile` names the schema in the error a keyword no validator can be compiled from gets. */
export function emitValidators(model: ProtocolModel, schemaFile: string): string {
  return validatorsModule(model, schemaFile).js;
}

function validatorsModule(model: ProtocolModel, schemaFile: string): ReturnType<typeof compiledExports> {
  let compiled: ReturnType<typeof compiledExports>;
  try {
    compiled = compiledExports(model);
  } catch (error) {
    throw schemaCompileError(error, model, schemaFile);
  }
  const paramsRows = model.methods.flatMap((m): [string, string][] =>
    m.params === null ? [] : [[m.method, paramsValidatorName(m.params, m.definition)]],
  );
  const resultNames = [
    ...new Set(
      model.methods.flatMap((m) => [...(m.result ?? []), ...(m.taskResult !== undefined ? [m.taskResult] : [])]),
    ),
  ].sort();
  const js = [
    '// @ts-self-types="./validators.d.ts"',
    "// @ts-nocheck -- ajv's generated JavaScript; validators.d.ts declares what it exports.",
    VALIDATOR_HELPERS,
    compiled.js,
    `export const paramsValidators = ${table(paramsRows)};`,
    `export const resultValidators = ${table(resultNames.map((n) => [n, n]))};`,
    `export const resultsByMethod = ${table(
      model.methods
        .filter((m) => m.result !== undefined && m.result !== null && m.result.length > 0)
        .map((m): [string, string] => [m.method, JSON.stringify(m.result)]),
    )};`,
    '',
  ].join('\n');
  return { js, exports: compiled.exports };
}

/** A frozen lookup table with no prototype: a method named "__proto__" or "toString" is data, never inherited. */
const table = (rows: [string, string][]) =>
  `/* @__PURE__ */ table$([\n${rows.map(([k, v]) => `  [${stringLiteral(k)}, ${v}],`).join('\n')}\n])`;

/**
 * Every export is `s$(validateN)`: the ajv function, given a `~standard` member (Standard Schema v1) whose
 * issues carry ajv's message and the path of keys to the value; where the error is about one property of an
 * object (missing, not allowed, badly named, missing because another is present) that property's own name
 * comes last, as the runtime's pointers have it. `table$` builds the lookup tables. Both are annotated pure
 * where called.
 */
export const VALIDATOR_HELPERS = `function s$(validate) {
  validate["~standard"] = {version: 1, vendor: "mcp-typegen", validate: (value) => validate(value) ? {value} : {issues: validate.errors.map((e) => i$(e, value))}};
  return validate;
}
function i$(error, value) {
  const path = [];
  for (const token of error.instancePath.split("/").slice(1)) {
    const key = Array.isArray(value) ? Number(token) : token.replace(/~1/g, "/").replace(/~0/g, "~");
    path.push(key);
    value = value == null ? undefined : value[key];
  }
  const p = error.params;
  const key = p.missingProperty ?? p.additionalProperty ?? p.unevaluatedProperty ?? p.propertyName;
  if (key !== undefined) path.push(key);
  return {message: error.message, path};
}
function table$(rows) {
  return Object.freeze(Object.setPrototypeOf(Object.fromEntries(rows), null));
}`;

/**
 * One exported validator per definition and per inline params schema, compiled by ajv into one module, with
 * the TypeScript type each one checks (validators.d.ts declares it).
 */
function compiledExports(model: ProtocolModel): { js: string; exports: { name: string; type: string }[] } {
  // The same repaired definitions as types.ts (normalize.ts), so a value the types accept validates.
  const definitions = repairDefinitions(model);
  const schema = hoistInlineParams(stripAnnotations(definitions) as Record<string, unknown>, model);
  const types = new Map<string, string>(Object.keys(model.definitions).map((name) => [name, `T.${name}`]));
  for (const m of model.methods)
    if (m.params?.kind === 'inline') types.set(paramsValidatorName(m.params, m.definition), paramsType(m, model));
  const js = validatorModule(model.dialect, model.defsKeyword, schema);
  return { js, exports: Object.keys(schema).map((name) => ({ name, type: types.get(name) ?? 'unknown' })) };
}

/**
 * A module exporting one compiled validator per entry of `defs` (each named by its key, an identifier), which
 * ajv sees as the definitions of one schema (so their `$ref`s between them and into them resolve); each
 * export is also a Standard Schema (`s$`, VALIDATOR_HELPERS). `failed(name, error)` makes the error a
 * definition's compilation throws into one that says where it is.
 */
export function validatorModule(
  dialect: ProtocolModel['dialect'],
  defsKeyword: string,
  defs: Record<string, unknown>,
  failed: (name: string, error: unknown) => unknown = (_name, error) => error,
  { allErrors = false, discriminator = false }: { allErrors?: boolean; discriminator?: boolean } = {},
): string {
  // The same definitions compile to the same module: a watch run after an edit that changed only
  // descriptions (stripped above), or another target of the same schema, reuses it.
  const options = { allErrors, discriminator };
  const key = sha256(`${dialect}\0${defsKeyword}\0${JSON.stringify(options)}\0${JSON.stringify(defs)}`);
  return (
    compiledModules.get(key) ?? compiledModules.set(key, compiledModule(dialect, defsKeyword, defs, failed, options))
  );
}

/** Compiled modules by their inputs' hash. */
const compiledModules = new BoundedMemo<string>(16);

function compiledModule(
  dialect: ProtocolModel['dialect'],
  defsKeyword: string,
  defs: Record<string, unknown>,
  failed: (name: string, error: unknown) => unknown,
  options: { allErrors: boolean; discriminator: boolean },
): string {
  // ajv's own code, from a function that returns: what ajv holds for every compiled definition (a few hundred
  // MB at 10,000 definitions) is garbage before the module's text is rewritten, not kept beside its copies.
  const module = compactErrors(ajvModule(dialect, defsKeyword, defs, failed, options));
  const names = new Set(Object.keys(defs));
  // The module writes `export const Name = validate12;`: each becomes a Standard Schema as well.
  return inlineAjvRuntime(module.helper ? `${module.helper}\n${module.code}` : module.code).replace(
    /^export const ([\w$]+) = ([\w$]+);$/gm,
    (match, name: string, fn: string) =>
      names.has(name) ? `export const ${name} = /* @__PURE__ */ s$(${fn});` : match,
  );
}

/** ajv's standalone code for `defs` (standaloneModule): one function per definition, as ajv writes it. */
function ajvModule(
  dialect: ProtocolModel['dialect'],
  defsKeyword: string,
  defs: Record<string, unknown>,
  failed: (name: string, error: unknown) => unknown,
  { allErrors, discriminator }: { allErrors: boolean; discriminator: boolean },
): string {
  const AjvClass = ajvClass(dialect);
  const ajv = new AjvClass({
    ...VALIDATION_OPTIONS,
    allErrors,
    // ajv's `discriminator` keyword, where the tool validators add it (tools/discriminated.ts).
    discriminator,
    // No optimisation pass: it costs more than a quarter of the compilation, and withoutNoOps
    // (validator-code.ts) removes what it would for a fraction of that.
    // ajv also turns each validator's source into a function with `new Function`; generation only writes
    // the source out (read from `validate.source`), so V8 gets a stub to parse instead.
    code: { source: true, esm: true, lines: true, optimize: false, process: () => 'return function stub() {}' },
    // Each definition compiles to one function that the others call: without this, every export
    // inlines its whole ref tree and the file grows to megabytes.
    inlineRefs: false,
    // Checking the schema against the draft's meta-schema first means compiling that meta-schema: a
    // fifth of the validators' generation time, for no change in the output. A keyword whose value has
    // the wrong type still stops the compilation (ajv checks each keyword's value as it compiles it).
    validateSchema: false,
    // An enum of this many values or more is checked by a loop over its values (which the module carries
    // anyway, for the error's allowedValues) instead of one comparison a value written out again: MCP Apps'
    // 80 CSS variable names were in a view's bundle twice.
    loopEnum: 10,
  });
  // ajv 2020 always tracks evaluated properties and dynamic anchors, which costs every function a
  // preamble and an argument; a schema that uses neither keyword family needs none of it.
  if (!usesDynamicKeywords(defs)) Object.assign(ajv.opts, { unevaluated: false, dynamicRef: false });
  // ajv prefixes every function's source with the lines that would read its scope values for `new Function`,
  // then hands it to `code.process` above, which discards it: at 10,000 definitions building that prefix
  // was ~1.3 s. It has no other use (standaloneModule reads `validate.source`), so it is not built.
  (ajv as unknown as { scope: { scopeRefs: () => string } }).scope.scopeRefs = () => '';
  const id = 'urn:mcp-typegen:schema';
  ajv.addSchema({ $id: id, [defsKeyword]: defs }, id);
  const pointerToken = (s: string) => encodeURIComponent(escapePointerToken(s));
  const names = new Set(Object.keys(defs));
  // validator-code.ts declares only the internals it reads, not ajv's public types.
  const internals = ajv as unknown as AjvInstance;
  const compiled = [...names].map((name): [string, ReturnType<typeof compiledAt>] => {
    try {
      return [name, compiledAt(internals, id, `#/${defsKeyword}/${pointerToken(name)}`)];
    } catch (error) {
      throw failed(name, error);
    }
  });
  return standaloneModule(compiled);
}

/**
 * A message's inline params schema becomes a definition of its own (`params$<Message>`) that the message
 * references: the params validator is exported, and the message's validator calls it instead of
 * carrying a second copy of the same checks. Error paths are unchanged (a `$ref` keeps the instance path).
 */
function hoistInlineParams(defs: Record<string, unknown>, model: ProtocolModel): Record<string, unknown> {
  const out = { ...defs };
  for (const m of model.methods) {
    if (m.params?.kind !== 'inline') continue;
    const name = paramsValidatorName(m.params, m.definition);
    const message = out[m.definition] as { properties?: Record<string, unknown> } | undefined;
    const params = message?.properties?.params;
    if (message === undefined || params === undefined || Object.hasOwn(out, name)) continue;
    const token = encodeURIComponent(name);
    Object.defineProperty(out, name, { value: params, enumerable: true, writable: true, configurable: true });
    out[m.definition] = {
      ...message,
      properties: { ...message.properties, params: { $ref: `#/${model.defsKeyword}/${token}` } },
    };
  }
  return out;
}

/** Keywords that need ajv's evaluated-property tracking or dynamic scopes. */
const DYNAMIC_KEYWORDS = new Set([
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
]);

function usesDynamicKeywords(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(usesDynamicKeywords);
  if (typeof node !== 'object' || node === null) return false;
  return Object.entries(node).some(([key, value]) => DYNAMIC_KEYWORDS.has(key) || usesDynamicKeywords(value));
}

const ANNOTATIONS = new Set([
  'description',
  'title',
  'examples',
  '$comment',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
const NAME_MAPS = new Set([...SUBSCHEMA_MAPS, ...DEFINITION_MAPS]);

/**
 * Annotations do not validate anything, but ajv embeds the schema objects its errors refer to: without
 * this the file carries every description of the spec and is several times larger.
 */
export function stripAnnotations(node: unknown, inNameMap = false): unknown {
  if (Array.isArray(node)) return node.map((n) => stripAnnotations(n));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // `$id` too: no `$ref` left depends on one (load/ref-base.ts refuses those that would; draft-07 ignores
    // one beside a `$ref`, which ajv does not), and ajv would resolve the `$ref`s under it against it.
    if (!inNameMap && (ANNOTATIONS.has(key) || key === '$id')) continue;
    Object.defineProperty(out, key, {
      value: inNameMap
        ? stripAnnotations(value)
        : key === 'const' || key === 'enum'
          ? value
          : stripAnnotations(value, NAME_MAPS.has(key)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return inNameMap ? out : protoAsPattern(constAlternativesAsEnum(withoutStringNameCheck(out)));
}

/**
 * `propertyNames: { type: "string" }` holds for every object (a property name is a string: Object.keys never
 * yields anything else), yet ajv compiles it to a loop over the keys with an error object for each: MCP Apps'
 * schemas (zod's output) carry it on every `_meta`, 34 times. It is left out.
 */
function withoutStringNameCheck(schema: Record<string, unknown>): Record<string, unknown> {
  const names = schema.propertyNames;
  if (typeof names !== 'object' || names === null || Array.isArray(names)) return schema;
  const keys = Object.keys(names);
  if (keys.length !== 1 || (names as Record<string, unknown>).type !== 'string') return schema;
  const { propertyNames: _always, ...rest } = schema;
  return rest;
}

/** The JSON type name of a `const` this rewrite takes (strings, booleans, null: no integer/number subtleties). */
function constType(value: unknown): string | undefined {
  if (value === null) return 'null';
  return typeof value === 'string' || typeof value === 'boolean' ? typeof value : undefined;
}

/**
 * `anyOf` (or `oneOf`) whose every branch is only a `const` (a string, boolean or null, with at most its own
 * `type`) accepts exactly the values an `enum` of those constants does (for `oneOf`, when no constant repeats),
 * and ajv compiles an `enum` to one comparison each where every branch costs it an error object: MCP Apps'
 * CSS variable names (80 of them) were two thirds of host-context-changed's validator. The error is then ajv's
 * `enum` one at the same instance path ("must be equal to one of the allowed values") instead of the first
 * branch's `const` one.
 */
function constAlternativesAsEnum(schema: Record<string, unknown>): Record<string, unknown> {
  if (Object.hasOwn(schema, 'enum')) return schema;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches) || branches.length < 2) continue;
    const values: unknown[] = [];
    for (const branch of branches as unknown[]) {
      if (typeof branch !== 'object' || branch === null || Array.isArray(branch)) return schema;
      const b = branch as Record<string, unknown>;
      const type = constType(b.const);
      if (!Object.hasOwn(b, 'const') || type === undefined) return schema;
      if (!Object.keys(b).every((k) => k === 'const' || (k === 'type' && b.type === type))) return schema;
      values.push(b.const);
    }
    if (keyword === 'oneOf' && new Set(values).size !== values.length) return schema;
    const { [keyword]: _replaced, ...rest } = schema;
    return { ...rest, enum: values };
  }
  return schema;
}

/**
 * ajv never validates a property named "__proto__" listed under `properties` (it drops the name as a
 * precaution), so its schema moves to `patternProperties` (`^__proto__$`), which ajv checks for every
 * own key: JSON.parse makes "__proto__" an own property, so the value is validated like any other.
 */
function protoAsPattern(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null || !Object.hasOwn(properties, '__proto__')) return schema;
  const rest: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(properties)) {
    if (name !== '__proto__')
      Object.defineProperty(rest, name, { value: sub, enumerable: true, writable: true, configurable: true });
  }
  const proto = Object.getOwnPropertyDescriptor(properties, '__proto__')?.value as unknown;
  const patterns =
    typeof schema.patternProperties === 'object' && schema.patternProperties !== null ? schema.patternProperties : {};
  return { ...schema, properties: rest, patternProperties: { ...patterns, '^__proto__$': proto } };
}

/**
 * ajv's standalone code `require()`s small helpers from ajv's runtime for some keywords (string
 * lengths in code points, deep equality). The output is an ES module with no dependencies, so those
 * helpers are inlined; any other runtime require is refused rather than emitted broken.
 */
const AJV_RUNTIME: Record<string, { name: string; source: string }> = {
  ucs2length: {
    name: 'ucs2length$',
    source: `function ucs2length$(str) {
  let length = 0;
  for (let pos = 0; pos < str.length; length++) {
    const code = str.charCodeAt(pos++);
    if (code >= 0xd800 && code <= 0xdbff && pos < str.length && (str.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
  }
  return length;
}`,
  },
  equal: {
    name: 'equal$',
    source: `function equal$(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal$(a[k], b[k]));
}`,
  },
};

export function inlineAjvRuntime(code: string): string {
  const used = new Set<string>();
  const out = code.replace(/require\("ajv\/dist\/runtime\/([a-z0-9_]+)"\)\.default/g, (match, name: string) => {
    const helper = AJV_RUNTIME[name];
    if (!helper)
      throw new Error(`validators: ajv needs its runtime module "${name}", which mcp-typegen cannot inline yet`);
    used.add(name);
    return helper.name;
  });
  if (/\brequire\(/.test(out)) throw new Error('validators: ajv emitted a require() that mcp-typegen cannot inline');
  const helpers = [...used].sort().map((name) => AJV_RUNTIME[name]?.source ?? '');
  return helpers.length ? `${helpers.join('\n')}\n${out}` : out;
}
