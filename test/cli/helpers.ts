/** Helpers for CLI tests: temp dirs under test/.tmp, the built CLI as a child process, a capturing Out. */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Out } from '../../src/run/console.js';

import { CLI, ROOT as REPO_ROOT, SCHEMA_DIR } from '../helpers/paths.js';

export { CLI, REPO_ROOT, SCHEMA_DIR };

/** A fresh directory outside this repository (whose own mcp-typegen.config.json would apply upward). */
export function outsideTempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `mcp-typegen-${prefix}-`));
}

export function tempDir(prefix: string): string {
  const base = join(REPO_ROOT, 'test', '.tmp');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, `${prefix}-`));
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built CLI (npm test builds first). */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

export interface CapturedOut extends Out {
  lines: string[];
  errors: string[];
  text(): string;
}

export function captureOut(): CapturedOut {
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    lines,
    errors,
    info: (l) => lines.push(l),
    verbose: (l) => lines.push(l),
    warn: (l) => lines.push(`warning: ${l}`),
    error: (l, hint) => {
      errors.push(l);
      lines.push(`error: ${l}${hint ? `\n  hint: ${hint}` : ''}`);
    },
    text: () => lines.join('\n'),
  };
}
