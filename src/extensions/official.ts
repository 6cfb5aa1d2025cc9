/**
 * Official MCP extensions ship with mcp-typegen as extension files in schema/extensions/, so
 * `--ext io.modelcontextprotocol/tasks` works without a copy of the file.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { toolPackage } from '../load/package-root.js';

/** Official extension id → its file in schema/extensions/. */
export const OFFICIAL_EXTENSIONS: Readonly<Record<string, string>> = Object.freeze({
  'io.modelcontextprotocol/tasks': 'tasks.extension.json',
  'io.modelcontextprotocol/ui': 'apps.extension.json',
  'io.modelcontextprotocol/skills': 'skills.extension.json',
});

/**
 * The shipped file for an `--ext` value that is an official extension id, or null when it is not one
 * (a file of that name relative to `cwd` wins, so a local file is never shadowed).
 */
export function officialExtensionFile(value: string, cwd: string): string | null {
  const file = Object.hasOwn(OFFICIAL_EXTENSIONS, value) ? OFFICIAL_EXTENSIONS[value] : undefined;
  if (file === undefined || existsSync(resolve(cwd, value))) return null;
  return join(toolPackage().root, 'schema', 'extensions', file);
}
