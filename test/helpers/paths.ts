/**
 * The repository root and the schema root every test reads the official schemas from. The schema
 * root is MCP_SCHEMA_DIR, which vitest.config.ts sets (to ../shared/mcp-schema): product code never
 * names that folder, only the project's own tests and scripts point there.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function schemaDirFromEnv(): string {
  const dir = process.env.MCP_SCHEMA_DIR;
  if (!dir) throw new Error('MCP_SCHEMA_DIR is not set: run the tests through vitest (vitest.config.ts sets it)');
  return resolve(ROOT, dir);
}

export const SCHEMA_DIR = schemaDirFromEnv();
export const TMP = join(ROOT, 'test', '.tmp');
/** The published bin (package.json "bin"): the bundle scripts/bundle-cli.mjs builds. */
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');
