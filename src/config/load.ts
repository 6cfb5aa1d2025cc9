/**
 * `mcp-typegen.config.json`: found upward from the cwd (or named), parsed with line/column errors,
 * checked against schema/config.schema.json (unknown keys are errors with their JSON pointer), then
 * turned into targets with every path resolved against the config file's directory.
 */
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { CONTROL_CHARACTERS, InputError } from '../errors.js';
import { escapePointerToken } from '../load/pointer.js';
import { parseJson } from '../load/json.js';
import { toolPackage } from '../load/package-root.js';
import { specVersionProblem } from '../load/spec-source.js';
import { closest } from '../load/suggest.js';
import { CONFIG_NAME } from './name.js';
import { TARGET_OPTIONS, optionsFromConfig, type OptionSpec, type TargetOptions } from './options.js';

export { CONFIG_NAME };

export interface ConfigTarget extends TargetOptions {
  /** The target's name (given, else the spec version, else the schema file as written). */
  name: string;
  /** Absolute output directory. */
  out: string;
  /** Where in the config file each option's value was written (`/targets/0/extensions`, or `/extensions`). */
  pointers: Partial<Record<keyof TargetOptions, string>>;
}

export interface LoadedConfig {
  /** Absolute path of the config file. */
  file: string;
  targets: ConfigTarget[];
}

/** The nearest mcp-typegen.config.json at or above `cwd`, else undefined. */
export function findConfig(cwd: string = process.cwd()): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, CONFIG_NAME);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

let validator: ValidateFunction | undefined;
/**
 * ajv's 2020-12 class, brought in by loadConfig with a dynamic import (from the CLI bundle's own copy when
 * the CLI runs bundled, instead of resolving ajv's ~90 modules from node_modules). Loaded on first use:
 * `generate --spec … --check` never reads a config and should not pay for ajv.
 */
let ajv2020: (new (options: object) => { compile(schema: object): ValidateFunction }) | undefined;
export function configSchemaPath(): string {
  return join(toolPackage().root, 'schema', 'config.schema.json');
}
function validate(): ValidateFunction {
  if (!validator) {
    const schema = JSON.parse(readFileSync(configSchemaPath(), 'utf8')) as object;
    // parseConfig called directly (the library API) without loadConfig first: required here.
    const Ajv = ajv2020 ?? (createRequire(import.meta.url)('ajv/dist/2020.js') as typeof Ajv2020Module).Ajv2020;
    // Every error, so that an unknown key ("outDir") is reported before the missing key it misspells ("out").
    validator = new Ajv({ allErrors: true, strict: true }).compile(schema);
  }
  return validator;
}

const TOP_LEVEL_KEYS = [
  '$schema',
  'targets',
  ...TARGET_OPTIONS.filter((o) => !('perTargetOnly' in o)).map((o) => o.key),
];
const TARGET_KEYS = ['name', ...TARGET_OPTIONS.map((o) => o.key)];

function allowedKeys(topLevel: boolean): string {
  return `allowed here: ${topLevel ? 'the target options but out, schema and sha256; "targets" and "$schema"' : TARGET_KEYS.join(', ')}`;
}

/** `unknown key "outDir": did you mean "out"?` (at the top level, a per-target key is said to go in each target). */
function unknownKey(key: string, topLevel: boolean): string {
  const match = closest(key, topLevel ? [...TOP_LEVEL_KEYS, ...TARGET_KEYS] : TARGET_KEYS);
  if (match === undefined) return `unknown key "${key}"`;
  const where = topLevel && !TOP_LEVEL_KEYS.includes(match) ? ', in each target' : '';
  return `unknown key "${key}": did you mean "${match}"${where}?`;
}

/** The error to report of several: an unknown key first (it explains a "missing" one), else the first. */
function firstError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  return errors.find((e) => e.keyword === 'additionalProperties') ?? errors[0];
}

/** The first schema error as an InputError with the pointer of the offending key or value. */
function toInputError(file: string, error: ErrorObject): InputError {
  const at = error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      return new InputError(
        file,
        `${at}/${escapePointerToken(key)}`,
        unknownKey(key, at === ''),
        allowedKeys(at === ''),
      );
    }
    case 'required':
      return new InputError(file, at, `missing required key "${String(params.missingProperty)}"`);
    case 'type':
      return new InputError(
        file,
        at,
        `must be ${String(params.type) === 'array' ? 'an array' : `a ${String(params.type)}`}`,
      );
    case 'enum':
      return new InputError(
        file,
        at,
        `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      );
    case 'minItems':
      return new InputError(file, at, `must have at least ${String(params.limit)} item(s)`);
    case 'pattern': {
      const key = at.split('/').pop();
      const option = (TARGET_OPTIONS as readonly OptionSpec[]).find((o) => o.key === key);
      return new InputError(file, at, option?.pattern?.says ?? `must match ${String(params.pattern)}`);
    }
    case 'minLength':
      return new InputError(file, at, 'must not be empty');
    case 'not': // only the output directory's "-" (options.ts)
      return new InputError(
        file,
        at,
        'must name a directory: writing to standard output ("-") is not supported',
        './- names a directory called "-"',
      );
    default:
      return new InputError(file, at, error.message ?? `fails ${error.keyword}`);
  }
}

type RawTarget = TargetOptions & { name?: string };
interface RawConfig extends TargetOptions {
  $schema?: string;
  targets: RawTarget[];
}

/** Parse and check config text; paths are resolved against `dirname(file)`. */
export function parseConfig(text: string, file: string): LoadedConfig {
  const data = parseJson(text, file);
  const check = validate();
  if (!check(data)) {
    const first = firstError(check.errors ?? []);
    throw first ? toInputError(file, first) : new InputError(file, '', 'not a valid mcp-typegen config');
  }
  const raw = data as RawConfig;
  const dir = dirname(file);
  // The schema keeps per-target-only keys (out, schema, sha256) out of the top level.
  const defaults = optionsFromConfig(raw as unknown as Record<string, unknown>, dir);
  const names = new Set<string>();
  const outs = new Map<string, string>();
  return {
    file,
    targets: raw.targets.map((t, i): ConfigTarget => {
      const own = optionsFromConfig(t as Record<string, unknown>, dir);
      const merged: TargetOptions = { ...defaults, ...own };
      if (t.spec && t.schema)
        throw new InputError(file, `/targets/${i}/schema`, '"spec" and "schema" cannot be used together');
      if (t.schema) delete merged.spec;
      const source = merged.spec ?? merged.schema;
      if (source === undefined) {
        throw new InputError(file, `/targets/${i}`, 'a target needs "spec" (a version name) or "schema" (a file)');
      }
      if (merged.spec !== undefined && t.schema === undefined) {
        const problem = specVersionProblem(merged.spec, {
          schemaDir: merged.schemaDir,
          cwd: dir,
          otherSchema: 'for another schema use "schema": "<file or https URL>" instead of "spec"',
        });
        if (problem) throw new InputError(file, t.spec ? `/targets/${i}/spec` : '/spec', problem.reason, problem.hint);
      }
      const name = t.name ?? source;
      if (names.has(name))
        throw new InputError(
          file,
          `/targets/${i}${t.name ? '/name' : ''}`,
          `duplicate target name "${name}"`,
          'give each target a distinct "name"',
        );
      names.add(name);
      const out = merged.out;
      if (out === undefined) throw new InputError(file, `/targets/${i}`, 'a target needs "out" (its output directory)');
      const outProblem = outPathProblem(out, file);
      if (outProblem !== undefined) throw new InputError(file, `/targets/${i}/out`, outProblem);
      const sameOut = outs.get(out);
      if (sameOut !== undefined)
        throw new InputError(
          file,
          `/targets/${i}/out`,
          `targets "${sameOut}" and "${name}" have the same "out" (${t.out}): one would overwrite the other`,
          'give each target its own output directory',
        );
      outs.set(out, name);
      return { ...merged, name, out, pointers: pointersOf(merged, t, i) };
    }),
  };
}

/** Where each option of a target was written: in the target, else among the top-level defaults. */
function pointersOf(merged: TargetOptions, own: RawTarget, index: number): ConfigTarget['pointers'] {
  const pointers: ConfigTarget['pointers'] = {};
  for (const key of Object.keys(merged) as (keyof TargetOptions)[])
    pointers[key] = own[key] !== undefined ? `/targets/${index}/${key}` : `/${key}`;
  return pointers;
}

/** Why `out` cannot be an output directory, or undefined: the config file itself, or a name with control characters. */
function outPathProblem(out: string, configFile: string): string | undefined {
  if (resolve(dirname(configFile), out) === resolve(configFile)) return '"out" is this config file, not a directory';
  if (CONTROL_CHARACTERS.test(out)) return '"out" holds a control character or line break';
  return undefined;
}

/** Load a config: the file named (relative to `cwd`), else the nearest one upward from `cwd`. */
export async function loadConfig(file?: string, cwd: string = process.cwd()): Promise<LoadedConfig> {
  const path = file !== undefined ? resolve(cwd, file) : findConfig(cwd);
  if (!path) {
    throw new InputError(
      resolve(cwd),
      undefined,
      `no ${CONFIG_NAME} found here or in any parent directory`,
      'run `mcp-typegen init` to write one, or pass --config <file>',
    );
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      path,
      undefined,
      code === 'ENOENT' ? 'config file not found' : `cannot read config file (${code ?? String(error)})`,
    );
  }
  ajv2020 ??= (await import('../emit/validators/ajv-class.js')).ajvClass('2020-12');
  return parseConfig(text, path);
}
