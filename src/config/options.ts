/**
 * The one definition of every per-target option. The CLI's yargs options, the config file's target
 * properties (schema/config.schema.json, kept equal to this table by a test) and the programmatic
 * API's `TargetOptions` all come from here.
 */
import { ARTIFACTS, type Artifact, type ImportExtension } from '../generate-artifacts.js';
import { RUNTIME_MODES, type RuntimeMode } from '../emit/runtime.js';

export interface OptionSpec {
  /** Key in the config file and in the API. */
  key: string;
  /** The CLI flag (kebab case, without `--`), or null when the option has no flag. */
  flag: string | null;
  type: 'string' | 'boolean' | 'string[]';
  /** Allowed values (for strings or array items). */
  choices?: readonly string[];
  /** A path, resolved against the config file's directory (or the cwd for flags). */
  path?: boolean;
  describe: string;
}

export const IMPORT_EXTENSIONS = ['.js', '.ts', ''] as const;

export const TARGET_OPTIONS = [
  {
    key: 'spec',
    flag: 'spec',
    type: 'string',
    describe: 'A known MCP spec version, e.g. 2025-11-25 (resolved in the schema root)',
  },
  { key: 'schema', flag: 'schema', type: 'string', path: true, describe: 'An MCP JSON Schema file (instead of spec)' },
  {
    key: 'schemaDir',
    flag: 'schema-dir',
    type: 'string',
    path: true,
    describe: 'Schema root for spec (default: $MCP_SCHEMA_DIR, else ../shared/mcp-schema)',
  },
  { key: 'out', flag: 'out', type: 'string', path: true, describe: 'Output directory (default: generated)' },
  {
    key: 'extensions',
    flag: 'ext',
    type: 'string[]',
    path: true,
    describe: 'Vendor extension files merged into the output',
  },
  {
    key: 'pairing',
    flag: 'pairing',
    type: 'string',
    path: true,
    describe:
      'A pairing file for requests whose result is not named after them: { "pairs": { "<method>": "<ResultDefinition>" } }',
  },
  {
    key: 'artifacts',
    flag: 'artifacts',
    type: 'string[]',
    choices: ARTIFACTS,
    describe: 'Artifacts to emit (default: all; dependencies are added)',
  },
  {
    key: 'importExtension',
    flag: 'import-extension',
    type: 'string',
    choices: IMPORT_EXTENSIONS,
    describe: 'Specifier extension between generated files (default .js; "" or none for no extension)',
  },
  {
    key: 'singleFile',
    flag: 'single-file',
    type: 'boolean',
    describe: 'Merge types, maps, client and server into one index.ts (runtime/ and validators stay separate files)',
  },
  {
    key: 'format',
    flag: 'format',
    type: 'boolean',
    describe: 'Format with prettier (default true; --no-format to skip)',
  },
  {
    key: 'runtime',
    flag: 'runtime',
    type: 'string',
    choices: RUNTIME_MODES,
    describe: 'package: import @mcp-typegen/runtime (default); copy: vendor it as runtime/*.ts (ESM and bundlers only)',
  },
] as const satisfies readonly OptionSpec[];

export type TargetOptionKey = (typeof TARGET_OPTIONS)[number]['key'];

/** The per-target options as the API and the config file take them (paths relative to `cwd`). */
export interface TargetOptions {
  spec?: string;
  schema?: string;
  schemaDir?: string;
  out?: string;
  extensions?: string[];
  pairing?: string;
  artifacts?: Artifact[];
  importExtension?: ImportExtension;
  singleFile?: boolean;
  format?: boolean;
  runtime?: RuntimeMode;
}

// Compile-time check: the interface and the table name the same keys.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameKeys: Same<keyof TargetOptions, TargetOptionKey> = true;
void sameKeys;

/** The JSON Schema of one option, as it appears in schema/config.schema.json. */
export function optionJsonSchema(spec: OptionSpec): Record<string, unknown> {
  const base: Record<string, unknown> =
    spec.type === 'boolean'
      ? { type: 'boolean' }
      : spec.type === 'string'
        ? spec.choices
          ? { enum: [...spec.choices] }
          : { type: 'string', minLength: 1 }
        : { type: 'array', items: spec.choices ? { enum: [...spec.choices] } : { type: 'string', minLength: 1 } };
  return base;
}
