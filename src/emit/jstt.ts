/**
 * json-schema-to-typescript's `compile()` for one normalised definition, minus the steps that input
 * never needs: the options are merged once, not per definition, and when the schema holds no `$ref`
 * and no `$id` (normalize.ts turned every reference into a type name) it is neither deep-cloned nor
 * handed to the $ref parser, which together cost about as much as the rest of the compile. The types
 * still come from the library's own linker, validator, normaliser, parser, optimiser and generator,
 * imported from its modules (the version is pinned exactly; the golden and layout tests hold the
 * output). Anything else goes through `compile()` itself, unchanged. JSTT's own rules are checked
 * first on both paths, so that a refusal says where it is instead of compile() printing it.
 */
import { compile, DEFAULT_OPTIONS, type Options } from 'json-schema-to-typescript';
import { link } from 'json-schema-to-typescript/dist/src/linker.js';
import { validate } from 'json-schema-to-typescript/dist/src/validator.js';
import { normalize, normalizeNullableRefs } from 'json-schema-to-typescript/dist/src/normalizer.js';
import { nameAnonymousRecursiveTypes, parse } from 'json-schema-to-typescript/dist/src/parser.js';
import { optimize } from 'json-schema-to-typescript/dist/src/optimizer.js';
import { generate } from 'json-schema-to-typescript/dist/src/generator.js';
import type { JSONSchema } from 'json-schema-to-typescript';
import { pointer } from '../load/pointer.js';
import { forEachSubschema } from '../load/schema-keywords.js';
import { isObject } from '../load/schema-types.js';

/**
 * JSTT's own rules (validator.ts: `minItems` above `maxItems`, a negative one, a `deprecated` that is no
 * boolean) refused a schema. compile() would print its messages with console.error and throw an error
 * with no message; this says where (a JSON pointer below the compiled schema) and which rule.
 */
export class JsttRuleError extends Error {
  override readonly name = 'JsttRuleError';
  constructor(
    readonly pointer: string,
    readonly rule: string,
  ) {
    super(rule);
  }
}

/** One compiler per option set: `compile(schema, name)` resolves to the declaration's text. */
export function jsttCompiler(options: Partial<Options>): (schema: object, name: string) => Promise<string> {
  const merged = mergeOptions(options);
  const compileOne = async (schema: object, name: string): Promise<string> => {
    const text = JSON.stringify(schema);
    // A copy as compile() makes one (JSON is all a normalised schema holds; own `__proto__` keys survive).
    const copy = JSON.parse(text) as JSONSchema;
    normalizeNullableRefs(copy);
    const linked = link(copy);
    // Checked before either path, so compile() never meets input its rules refuse (and never prints).
    const refused = validate(linked, name);
    if (refused.length) throw firstRuleBreach(schema, '') ?? new JsttRuleError('', ruleOf(refused[0]!));
    if (/"\$(?:ref|id)"/.test(text)) return compile(schema, name, options);
    const dereferencedPaths = new WeakMap();
    const normalized = normalize(linked, dereferencedPaths, name, merged);
    const processed = new Map();
    const usedNames = new Set<string>();
    const parsed = parse(normalized, merged, undefined, processed, usedNames);
    nameAnonymousRecursiveTypes(parsed, processed, dereferencedPaths, usedNames);
    return generate(optimize(parsed, merged), merged);
  };
  return (schema, name) => withoutVerbose(() => compileOne(schema, name));
}

/** How many JSTT calls are running, and the VERBOSE they hid (see withoutVerbose). */
let hiding = 0;
let hiddenVerbose: string | undefined;

/**
 * Runs a JSTT call with VERBOSE unset: JSTT prints debug dumps of every type to stdout whenever that variable
 * is set (CI systems often set it), tens of thousands of lines that are not ours to print. Calls overlap
 * (compile() awaits), so the variable comes back when the last one ends.
 */
async function withoutVerbose<T>(run: () => Promise<T>): Promise<T> {
  if (hiding++ === 0) {
    hiddenVerbose = process.env['VERBOSE'];
    if (hiddenVerbose !== undefined) delete process.env['VERBOSE'];
  }
  try {
    return await run();
  } finally {
    if (--hiding === 0 && hiddenVerbose !== undefined) process.env['VERBOSE'] = hiddenVerbose;
  }
}

/**
 * The first sub-schema, depth first, whose own keywords JSTT's rules refuse. Only called once a schema
 * was refused: JSTT's messages name a property key, not where it is.
 */
function firstRuleBreach(schema: unknown, at: string): JsttRuleError | undefined {
  if (!isObject(schema)) return undefined;
  const own = Object.fromEntries(Object.entries(schema).filter(([, value]) => !holdsObjects(value)));
  const [problem] = validate(link(own as JSONSchema), '');
  if (problem !== undefined) return new JsttRuleError(at, ruleOf(problem));
  let found: JsttRuleError | undefined;
  forEachSubschema(schema, (sub, tokens) => {
    found ??= firstRuleBreach(sub, at + pointer(...tokens));
  });
  return found;
}

const holdsObjects = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && (!Array.isArray(value) || value.some(holdsObjects));

/** The rule of a JSTT message: `Error at key "x" in file "Name": <rule>`. */
const ruleOf = (message: string): string => message.replace(/^Error at key .*? in file ".*?": /s, '');

/** compile()'s own option handling: the defaults under the given options, `cwd` ending in `/`. */
function mergeOptions(options: Partial<Options>): Options {
  const merged: Options = { ...DEFAULT_OPTIONS, ...options, style: { ...DEFAULT_OPTIONS.style, ...options.style } };
  if (!merged.cwd.endsWith('/')) merged.cwd += '/';
  return merged;
}
