/**
 * The one definition of `diff`'s options: yargs (cli/main.ts) and the pre-yargs path (cli/quick-check.ts)
 * both read this table, and `diffFlagsFrom` turns either parser's values into DiffFlags. Adding a diff
 * option is one entry here plus its use in diff-command.ts.
 */
import type { ParseArgsConfig } from 'node:util';
// The choice lists only: importing diff/index.js would load the whole diff on every command.
import { FAIL_ON, SIDE_FILTERS } from '../diff/types.js';
import { REPORT_FORMATS } from '../diff/render.js';
import type { DiffFlags } from './diff-command.js';
import { pathFlagProblem } from './options.js';

export interface DiffOptionSpec {
  flag: string;
  /** The DiffFlags key it fills. */
  key: keyof DiffFlags;
  type: 'string' | 'boolean' | 'string[]' | 'number';
  alias?: string;
  choices?: readonly string[];
  default?: string;
  /** A file or directory (an empty value is refused: it would resolve to the working directory or be ignored). */
  path?: boolean;
  /** Only through yargs (the quick path declines a run that uses it). */
  yargsOnly?: boolean;
  describe: string;
}

export const DIFF_OPTIONS: readonly DiffOptionSpec[] = [
  {
    flag: 'ext',
    key: 'ext',
    type: 'string[]',
    path: true,
    describe: 'A vendor extension file merged into both sides (repeatable)',
  },
  {
    flag: 'old-ext',
    key: 'oldExt',
    type: 'string[]',
    path: true,
    describe: 'An extension of the old side only: a file or git:<ref>:<path> (repeatable)',
  },
  {
    flag: 'new-ext',
    key: 'newExt',
    type: 'string[]',
    path: true,
    describe: 'An extension of the new side only: a file or git:<ref>:<path> (repeatable)',
  },
  {
    flag: 'schema-dir',
    key: 'schemaDir',
    type: 'string',
    path: true,
    describe: 'Schema root for spec versions (default: $MCP_SCHEMA_DIR, else the user cache, else downloaded)',
  },
  {
    flag: 'format',
    key: 'format',
    alias: 'f',
    type: 'string',
    choices: REPORT_FORMATS,
    default: 'text',
    describe: 'Report format',
  },
  {
    flag: 'fail-on',
    key: 'failOn',
    type: 'string',
    choices: FAIL_ON,
    default: 'breaking',
    describe: 'Exit 1 when a change reaches this level',
  },
  {
    flag: 'side',
    key: 'side',
    type: 'string',
    choices: SIDE_FILTERS,
    default: 'both',
    describe: 'Whose verdicts count: client, server or both',
  },
  {
    flag: 'ignore',
    key: 'ignore',
    type: 'string',
    path: true,
    describe: 'An ignore file: a JSON array of { rule, location?, reason? }',
  },
  {
    flag: 'max-annotations',
    key: 'maxAnnotations',
    type: 'number',
    describe: 'github format: at most this many annotations, errors first (default 10), plus a summary',
  },
  {
    flag: 'pairing',
    key: 'pairing',
    type: 'string',
    path: true,
    describe: 'A pairing file for requests whose result is not named after them (both sides)',
  },
  {
    flag: 'rules',
    key: 'rules',
    type: 'boolean',
    yargsOnly: true,
    describe: 'List every rule with its one-line reason and exit',
  },
  {
    flag: 'include-descriptions',
    key: 'includeDescriptions',
    type: 'boolean',
    describe: 'Also report description-only changes',
  },
];

/** node:util parseArgs options for the quick path (defaults and choices are checked by `diffFlagsFrom`). */
export function diffParseArgsOptions(): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(
    DIFF_OPTIONS.filter((o) => !o.yargsOnly).map((o) => [
      o.flag,
      {
        type: o.type === 'boolean' ? ('boolean' as const) : ('string' as const),
        ...(o.type === 'string[]' ? { multiple: true } : {}),
        ...(o.alias ? { short: o.alias } : {}),
      },
    ]),
  );
}

/**
 * DiffFlags from a parser's values, read by flag name, defaults applied; undefined when a value is
 * outside its choices or an empty path (the caller lets yargs report it).
 */
export function diffFlagsFrom(read: (flag: string) => unknown): Omit<DiffFlags, 'old' | 'new'> | undefined {
  const flags: Record<string, unknown> = {};
  for (const o of DIFF_OPTIONS) {
    const raw = read(o.flag) ?? o.default;
    if (raw === undefined) continue;
    // node:util parses numbers as strings; yargs already gives a number.
    if (o.type === 'number' && !/^\d+$/.test(String(raw))) return undefined;
    const value = o.type === 'number' ? Number(raw) : raw;
    if (o.choices && !o.choices.includes(String(value))) return undefined;
    if (o.path && [value].flat().some((v) => pathFlagProblem(o.flag, v) !== undefined)) return undefined;
    flags[o.key] = value;
  }
  return flags as Omit<DiffFlags, 'old' | 'new'>;
}
