/**
 * The one definition of `diff`'s options, which yargs reads (cli/options.ts `diffYargsOptions`). Adding a
 * diff option is one entry here plus its use in diff-command.ts.
 */
// The choice lists only: importing diff/index.js would load the whole diff on every command.
import { FAIL_ON, SIDE_FILTERS } from '../diff/types.js';
import { REPORT_FORMATS } from '../diff/render.js';
import type { DiffFlags } from './diff-command.js';

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
    flag: 'allow-shrink',
    key: 'allowShrink',
    type: 'boolean',
    describe: 'A side with fewer than half the methods of the other really lost them: report them removed, not exit 2',
  },
  {
    flag: 'rules',
    key: 'rules',
    type: 'boolean',
    describe: 'List every rule with its one-line reason and exit',
  },
  {
    flag: 'include-descriptions',
    key: 'includeDescriptions',
    type: 'boolean',
    describe: 'Also report description-only changes',
  },
];
