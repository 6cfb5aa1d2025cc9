/**
 * Standalone code for a set of exported ajv validators, with every definition compiled exactly once.
 *
 * Why not ajv's own `standaloneCode(ajv, refs)`:
 * - it looks each export up with `ajv.getSchema(uri#/$defs/X)`, which compiles a definition a second time
 *   when other definitions already reach it through `$ref` (ajv caches the two routes apart): 46 of the
 *   145 definitions of 2025-11-25 were in the file twice;
 * - it concatenates ajv's code objects export by export, re-spreading the whole accumulated array each
 *   time, so the work is quadratic and a schema of ~6,000 definitions overflows the call stack.
 * Here each export is resolved the way ajv resolves a `$ref` (one cache, on the schema's root), and the
 * module is assembled as plain strings from a work list: linear, with no recursion on schema depth.
 *
 * This reads ajv internals that its standalone module reads too (a validator's `source`, scope names and
 * their values); ajv is pinned, and the validator tests compile and run the output.
 */
import { resolveRef as ajvResolveRef } from 'ajv/dist/compile/index.js';

/** The parts of ajv's compiled validator this module reads (see ajv/dist/standalone). */
interface ScopeName {
  str: string;
  prefix: string;
  value?: { ref?: unknown; code?: { toString(): string } };
}
interface ValidatorSource {
  validateName: ScopeName;
  validateCode: string;
  scopeValues: Record<string, Map<unknown, ScopeName> | undefined>;
  evaluated?: string;
}
interface CompiledFunction {
  (data: unknown): boolean;
  source?: ValidatorSource;
}
interface SchemaEnv {
  schema: unknown;
  baseId: string;
  validate?: CompiledFunction;
  validateName?: ScopeName;
}
export interface AjvInstance {
  getSchema(keyRef: string): (CompiledFunction & { schemaEnv?: SchemaEnv }) | undefined;
  compile(schema: unknown): CompiledFunction;
}

const resolveRef = ajvResolveRef as unknown as (
  this: AjvInstance,
  root: SchemaEnv,
  baseId: string,
  ref: string,
) => SchemaEnv | unknown;
const IDENTIFIER = /^[a-z$_][a-z$_0-9]*$/i;

/**
 * The compiled validator for `pointer` inside the schema added as `rootId`, from the same cache that
 * `$ref`s inside that schema use. A boolean sub-schema is never a function in ajv's cache (it is inlined),
 * so it is compiled on its own: it is one line.
 */
export function compiledAt(ajv: AjvInstance, rootId: string, pointer: string): CompiledFunction {
  const root = ajv.getSchema(rootId)?.schemaEnv;
  if (!root) throw new Error(`validators: no schema ${rootId}`);
  const found = resolveRef.call(ajv, root, root.baseId, pointer);
  if (typeof found === 'boolean') return ajv.compile(found);
  const env = found as SchemaEnv | undefined;
  if (!env?.validate?.source) throw new Error(`validators: ${pointer} did not compile to a function`);
  return env.validate;
}

/** An ES module: `export const <name> = <validator>;` for each entry, then every function they need, once. */
export function standaloneModule(exports: readonly [string, CompiledFunction][]): string {
  const out: string[] = ['"use strict";'];
  const done = new Set<string>();
  const queue: ValidatorSource[] = [];
  const enqueue = (source: ValidatorSource | undefined) => {
    if (!source) throw new Error('validators: a compiled validator has no source (ajv code.source is off)');
    if (!done.has(source.validateName.str)) queue.push(source);
  };

  for (const [name, validate] of exports) {
    if (!IDENTIFIER.test(name)) throw new Error(`validators: "${name}" is not a valid export name`);
    enqueue(validate.source);
    out.push(`export const ${name} = ${validate.source?.validateName.str ?? ''};`);
  }
  // The queue grows while it is read: each validator's dependencies join it.
  for (const source of queue) {
    if (done.has(source.validateName.str)) continue;
    done.add(source.validateName.str);
    const { validateCode } = source;
    const schemas = schemaReads(validateCode);
    for (const values of Object.values(source.scopeValues)) {
      for (const name of values?.values() ?? []) {
        if (done.has(name.str)) continue;
        const code = name.value?.code;
        const ref = name.value?.ref as
          (CompiledFunction & { validateName?: ScopeName; validate?: CompiledFunction }) | undefined;
        if (code) {
          // Every function holds its own schema as a scope value, but the code reads one only for an
          // error's params (an enum's allowed values): unused ones are left out.
          if (name.prefix === 'schema' && !schemas.reads(name.str)) continue;
          done.add(name.str);
          const value =
            name.prefix === 'schema' ? schemas.value(name.str, name.value?.ref, code.toString()) : code.toString();
          out.push(`const ${name.str} = ${value};`);
        } else if (name.prefix === 'validate' && typeof ref === 'function') {
          // A function declaration, hoisted: emitted when the queue reaches it.
          enqueue(ref.source);
        } else if ((name.prefix === 'root' || name.prefix === 'wrapper') && ref) {
          // A reference to a validator still being compiled when this one was (recursive schemas).
          done.add(name.str);
          if (!ref.validateName) throw new Error('validators: ajv left a recursive reference unnamed');
          out.push(`const ${name.str} = {validate: ${ref.validateName.str}};`);
          enqueue(ref.validate?.source);
        } else {
          throw new Error(`validators: ajv scope value "${name.str}" has no code`);
        }
      }
    }
    out.push(withoutNoOps(validateCode));
    if (source.evaluated) out.push(`${source.validateName.str}.evaluated = ${source.evaluated};`);
  }
  return out.join('\n');
}

/** What one function's code reads of its schema values, each scan of the code made once, when first needed. */
function schemaReads(code: string) {
  let names: Set<string> | undefined;
  let blank: string | undefined;
  return {
    reads: (name: string): boolean => (names ??= schemaNamesIn(code)).has(name),
    value: (name: string, schema: unknown, whole: string): string =>
      schemaAsRead(code, (blank ??= blankStrings(code)), name, schema, whole),
  };
}

/** `schemaN` followed by property reads: `.enum`, `[0]`, `["a/b"]`. */
const SCHEMA_NAME = /(?<![\w$."'])schema\d+(?![\w$])/g;
const SCHEMA_STEP = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\\n]|\\.)*")\]/y;

/**
 * A schema value as the function reads it: where the code only reads parts of its schema (an enum's values for
 * its check and its error, `schema12.properties.mode.enum`), an object with those parts at the same paths and
 * nothing else; the whole schema (`code`) where a read is anything else. A module then need not carry a
 * whole schema (up to 7 kB for an MCP Apps message) for one list of allowed values.
 */
function schemaAsRead(code: string, blank: string, name: string, schema: unknown, whole: string): string {
  // Names are found in `blank` (the code with its string literals blanked), paths read from the code itself.
  const pruned: Record<string, unknown> = {};
  for (const found of blank.matchAll(SCHEMA_NAME)) {
    if (found[0] !== name) continue;
    let value = schema;
    let into: Record<string | number, unknown> = pruned;
    const path: (string | number)[] = [];
    let end = found.index + name.length;
    for (SCHEMA_STEP.lastIndex = end; ; end = SCHEMA_STEP.lastIndex) {
      const step = SCHEMA_STEP.exec(code);
      if (!step) break;
      const key = step[1] ?? (step[2] !== undefined ? Number(step[2]) : (JSON.parse(step[3] ?? '""') as string));
      // Arrays on the way become objects with index keys: a read of their length would then be wrong.
      if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return whole;
      if (key === 'length' || key === '__proto__') return whole;
      path.push(key);
      value = (value as Record<string | number, unknown>)[key];
    }
    const rest = code.slice(end);
    // Only reads of JSON data: not the bare name, not a call on or an assignment to what is read.
    if (path.length === 0 || value === undefined || /^\s*(?:=[^=]|\()/.test(rest)) return whole;
    for (const [i, key] of path.entries()) {
      if (i === path.length - 1) into[key] = value;
      else into = (into[key] ??= {}) as Record<string | number, unknown>;
    }
  }
  return JSON.stringify(pruned);
}

/** `code` with each string literal's text blanked to the same length: what is left is code, at the same offsets. */
function blankStrings(code: string): string {
  return code.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (t) => `"${' '.repeat(t.length - 2)}"`);
}

/**
 * The `schemaN` identifiers `code` uses, found in one pass: a union's function holds thousands of schema
 * values, and searching its code once for each was a tenth of the validators' time at 10,000 definitions.
 * A string literal may contain such a word too; keeping a schema it names costs bytes, never correctness.
 */
function schemaNamesIn(code: string): Set<string> {
  return new Set(code.match(/(?<![\w$])schema\d+(?![\w$])/g) ?? []);
}

/** An empty `else` block, and an empty `if` over a condition that only compares (no `else` follows). */
const EMPTY_ELSE = /else \{\n\}\n/g;
const EMPTY_IF = /if\((?:errors === _errs\d+|_errs\d+ === errors|!?valid\d+|errors === 0)\)\{\n\}\n(?!else )/g;
const ERRORS_MARK = /const (_errs\d+) = errors;\n/g;
/** An error collected (inside `anyOf`, `oneOf`, `not`…): ajv names it, then starts or extends the list. */
const COLLECTED_ERROR =
  /^const (err\d+) = (.+);\nif\(vErrors === null\)\{\nvErrors = \[\1\];\n\}\nelse \{\nvErrors\.push\(\1\);\n\}\n/gm;

/**
 * One function's code without the statements that do nothing, which ajv's own optimisation pass
 * (`code.optimize`) would drop: empty blocks and error-count marks nothing reads. That pass costs more
 * than a quarter of the compilation (it recounts every name of every nested block); these few patterns
 * are all it changes in the generated validators that matters for size. The code is ajv's, one statement a
 * line (`code.lines`), so a string literal never holds a line break and never matches.
 */
export function withoutNoOps(code: string): string {
  // The same list in one statement (`vErrors` is only ever null or an array): six lines for every error a
  // union's branches can collect, 495 of them in 2025-11-25's validators with MCP Apps.
  let out = code.replace(COLLECTED_ERROR, '(vErrors ??= []).push($2);\n');
  for (let before = ''; before !== out;) {
    before = out;
    out = out.replace(EMPTY_ELSE, '').replace(EMPTY_IF, '');
  }
  const uses = new Map<string, number>();
  for (const [name] of out.matchAll(/\b_errs\d+\b/g)) uses.set(name, (uses.get(name) ?? 0) + 1);
  return withSingleUseDataInlined(out.replace(ERRORS_MARK, (line, name: string) => (uses.get(name) === 1 ? '' : line)));
}

/** `let dataN = <a property of another data variable>;` at the start of a line. */
const DATA_LET = /^let (data\d+) = (data\d*(?:\.[A-Za-z_$][\w$]*|\[(?:"[^"\n]*"|i\d+)\])+);\n/m;

/**
 * A data variable read once is replaced by the property access it holds, as ajv's optimisation pass
 * does (`let data1 = data.id; … f(data1)` becomes `f(data.id)`): the data is never changed while it is
 * validated, and an index variable does not move between the declaration and its one use (same block).
 * Names are counted and found in a copy whose string literals are blanked to the same length, so text
 * inside a string (a property name, an instance path) is never taken for a variable.
 */
function withSingleUseDataInlined(code: string): string {
  let out = code;
  let blank = code.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (s) => `"${' '.repeat(s.length - 2)}"`);
  for (let from = 0; ;) {
    const found = DATA_LET.exec(blank.slice(from));
    if (!found) return out;
    const at = from + found.index;
    const [declaration, name = '', initializer = ''] = found;
    const uses = [...blank.matchAll(new RegExp(`(?<![\\w$.])${name}(?![\\w$])`, 'g'))].filter(
      (m) => m.index !== at + 4,
    );
    const use = uses.length === 1 ? (uses[0]?.index ?? -1) : -1;
    // Read once, after the declaration, and never assigned to (ajv assigns data only when it coerces).
    if (use < at || /^\s*=[^=]/.test(blank.slice(use + name.length))) {
      from = at + declaration.length;
      continue;
    }
    const exprAt = at + declaration.length - 2 - initializer.length;
    const expr = out.slice(exprAt, exprAt + initializer.length);
    const edit = (s: string, e: string) =>
      s.slice(0, at) + s.slice(at + declaration.length, use) + e + s.slice(use + name.length);
    out = edit(out, expr);
    blank = edit(blank, initializer);
    from = at;
  }
}
