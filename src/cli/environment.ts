/**
 * The environment variables the commands read, for each command's `--help` (as an epilogue): one
 * description per variable, and per command the ones its work reads.
 */

const VARIABLES = {
  MCP_SCHEMA_DIR: 'schema root for spec versions (as --schema-dir)',
  MCP_TYPEGEN_CACHE: 'the schema cache (default: the user cache)',
  MCP_TYPEGEN_SCHEMA_BASE_URL: 'where spec schemas are downloaded from',
  MCP_TYPEGEN_OFFLINE: '1: never download (as --offline)',
  MCP_TYPEGEN_FETCH_TIMEOUT: 'download timeout, seconds (as --fetch-timeout)',
  HTTPS_PROXY: 'the download proxy (also HTTP_PROXY, NO_PROXY)',
  NO_COLOR: 'set: no colour in errors and warnings',
} as const;

type Variable = keyof typeof VARIABLES;

/** Everything resolving a spec version reads (schema root, cache, download). */
const SPEC_RESOLUTION: readonly Variable[] = [
  'MCP_SCHEMA_DIR',
  'MCP_TYPEGEN_CACHE',
  'MCP_TYPEGEN_SCHEMA_BASE_URL',
  'MCP_TYPEGEN_OFFLINE',
  'MCP_TYPEGEN_FETCH_TIMEOUT',
  'HTTPS_PROXY',
];

export const COMMAND_ENVIRONMENT = {
  generate: [...SPEC_RESOLUTION, 'NO_COLOR'],
  methods: [...SPEC_RESOLUTION, 'NO_COLOR'],
  diff: [...SPEC_RESOLUTION, 'NO_COLOR'],
  'schemas list': ['MCP_SCHEMA_DIR', 'MCP_TYPEGEN_CACHE', 'MCP_TYPEGEN_SCHEMA_BASE_URL', 'NO_COLOR'],
  'schemas pull': [
    'MCP_TYPEGEN_CACHE',
    'MCP_TYPEGEN_SCHEMA_BASE_URL',
    'MCP_TYPEGEN_OFFLINE',
    'MCP_TYPEGEN_FETCH_TIMEOUT',
    'HTTPS_PROXY',
    'NO_COLOR',
  ],
  init: ['MCP_SCHEMA_DIR', 'NO_COLOR'],
} as const satisfies Record<string, readonly Variable[]>;

/** The `--help` epilogue of a command: the variables it reads, one a line, then the exit codes. */
export function environmentEpilogue(command: keyof typeof COMMAND_ENVIRONMENT): string {
  const names: readonly Variable[] = COMMAND_ENVIRONMENT[command];
  const width = Math.max(...names.map((n) => n.length));
  const lines = names.map((n) => `  ${n.padEnd(width)}  ${VARIABLES[n]}`);
  return ['Environment:', ...lines, '', EXIT_CODES].join('\n');
}

export const EXIT_CODES = 'Exit codes: 0 ok, 1 stale output or breaking changes found, 2 bad input or usage.';
