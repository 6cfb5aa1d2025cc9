/**
 * A Python with the official MCP SDK, for the tests that run a Python MCP server: `MCP_TYPEGEN_TEST_PYTHON`, or
 * `python3` when it imports `mcp`, or else a virtual environment under test/.tmp made from the local package
 * index pip is configured with (a `file://` extra index, as this machine has: installing from it takes seconds;
 * the public index is never waited on). Undefined, with the reason, when none can be had.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TMP } from './paths.js';

const importsMcp = (python: string): boolean => {
  try {
    execFileSync(python, ['-c', 'import mcp'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
};

/** The local (file://) package indexes pip is configured with. */
function localIndexes(): string[] {
  try {
    const configured = execFileSync('python3', ['-m', 'pip', 'config', 'get', 'global.extra-index-url'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    return configured.split(/\s+/).filter((url) => url.startsWith('file://'));
  } catch {
    return [];
  }
}

export function pythonWithMcp(): { python: string } | { reason: string } {
  const given = process.env['MCP_TYPEGEN_TEST_PYTHON'];
  if (given) return importsMcp(given) ? { python: given } : { reason: `${given} cannot import mcp` };
  if (importsMcp('python3')) return { python: 'python3' };
  const venv = join(TMP, 'python-mcp');
  const python = join(venv, 'bin', 'python');
  if (existsSync(python) && importsMcp(python)) return { python };
  const [index, ...more] = localIndexes();
  if (index === undefined) return { reason: 'python3 has no mcp, and pip has no local index to install it from' };
  try {
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'ignore', timeout: 120_000 });
    const extra = more.flatMap((url) => ['--extra-index-url', url]);
    execFileSync(python, ['-m', 'pip', 'install', '-q', '--index-url', index, ...extra, 'mcp'], {
      stdio: 'ignore',
      timeout: 180_000,
    });
  } catch (error) {
    return { reason: `installing mcp into ${venv} failed: ${(error as Error).message.split('\n')[0] ?? ''}` };
  }
  return importsMcp(python) ? { python } : { reason: `${python} cannot import mcp after installing it` };
}
