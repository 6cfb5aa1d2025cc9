/** Test helpers: the MCP facts the rules need, read from the official schemas in ../shared/mcp-schema. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../src/errors.js';

import { ROOT, SCHEMA_DIR } from '../helpers/paths.js';

export { ROOT, SCHEMA_DIR };
export const VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
export const FIXTURES = 'test/fixtures/extensions';

type Defs = Record<string, { properties?: { method?: { const?: string } } }>;

function defsOf(version: string): Defs {
  const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, version, 'schema.json'), 'utf8')) as {
    definitions?: Defs;
    $defs?: Defs;
  };
  return (schema.$defs ?? schema.definitions)!;
}

/** MCP definition names of one version. */
export function mcpDefinitionNames(version: string): Set<string> {
  return new Set(Object.keys(defsOf(version)));
}

/** The MCP method strings of one version (from `method.const` of its definitions). */
export function mcpMethods(version: string): Set<string> {
  const methods = new Set<string>();
  for (const def of Object.values(defsOf(version))) {
    const method = def.properties?.method?.const;
    if (typeof method === 'string') methods.add(method);
  }
  return methods;
}

/** The union of MCP method strings over every version. */
export function allMcpMethods(): Set<string> {
  return new Set(VERSIONS.flatMap((version) => [...mcpMethods(version)]));
}

/** Run `fn` and return the InputError it throws as plain data (fails when it throws something else or nothing). */
export async function inputErrorOf(
  fn: () => unknown,
): Promise<{ file: string; pointer: string | undefined; reason: string }> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof InputError) return { file: e.file, pointer: e.pointer, reason: e.reason };
    throw e;
  }
  throw new Error('expected an InputError, nothing was thrown');
}
