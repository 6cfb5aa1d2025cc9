/**
 * Method collisions depend on the target version only: the same extension files give the same answer
 * with `--spec` and a schema root, with `--schema <file>` alone outside the checkout, and with
 * MCP_SCHEMA_DIR set or not. Runs the CLI in-process.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Out } from '../../src/run/console.js';
import { ROOT, SCHEMA_DIR } from './helpers.js';
import { R } from './rule-cases.js';

const work = mkdtempSync(join(tmpdir(), 'mcp-typegen-ext-target-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FILES = ['official-collides-mcp.json', 'official-notifications-namespace.json'].map((f) => resolve(ROOT, R, f));

/** A schema file alone in a directory outside the checkout (no schema root next to it). */
function lonelySchema(version: string): string {
  const dir = join(work, `lonely-${version}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(SCHEMA_DIR, version, 'schema.json'), join(dir, 'schema.json'));
  return join(dir, 'schema.json');
}

async function run(source: string[], env: string | undefined): Promise<{ code: number; errors: string[] }> {
  const errors: string[] = [];
  const out: Out = {
    info: () => undefined,
    verbose: () => undefined,
    warn: () => undefined,
    error: (line) => errors.push(line),
  };
  const saved = process.env.MCP_SCHEMA_DIR;
  if (env === undefined) delete process.env.MCP_SCHEMA_DIR;
  else process.env.MCP_SCHEMA_DIR = env;
  try {
    const argv = ['methods', ...source, '--json'];
    for (const f of FILES) argv.push('--ext', f);
    const quiet = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      return { code: await main(argv, out), errors };
    } finally {
      quiet.mockRestore();
    }
  } finally {
    if (saved === undefined) delete process.env.MCP_SCHEMA_DIR;
    else process.env.MCP_SCHEMA_DIR = saved;
  }
}

describe('collisions are checked against the target version, the same way in every environment', () => {
  it.each([
    ['--spec with --schema-dir', (v: string) => ['--spec', v, '--schema-dir', SCHEMA_DIR], undefined],
    ['--spec with MCP_SCHEMA_DIR', (v: string) => ['--spec', v], SCHEMA_DIR],
    ['--schema alone, no MCP_SCHEMA_DIR', (v: string) => ['--schema', lonelySchema(v)], undefined],
    ['--schema alone, MCP_SCHEMA_DIR set', (v: string) => ['--schema', lonelySchema(v)], SCHEMA_DIR],
  ])('%s', async (_name, source, env) => {
    expect(await run(source('2026-07-28'), env)).toEqual({ code: 0, errors: [] });
    const refused = await run(source('2025-11-25'), env);
    expect(refused.code).toBe(2);
    expect(refused.errors).toEqual([
      `${FILES[0]}#/methods/tasks~1get: method "tasks/get" collides with the MCP method of the same name in MCP 2025-11-25`,
    ]);
  });
});
