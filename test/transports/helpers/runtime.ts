/**
 * Compiles the hand-written runtime in templates/ to plain ESM JavaScript in a temporary directory, so a
 * child process (which runs plain `node`, without a TypeScript loader) can import it.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const templatesDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'templates');
export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** Transpiles every templates/*.ts into a fresh temp dir; returns the dir and a cleanup function. */
export function compileRuntime(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-typegen-runtime-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  for (const file of readdirSync(templatesDir)) {
    if (!file.endsWith('.ts') || file.endsWith('.d.ts')) continue;
    const source = readFileSync(join(templatesDir, file), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      fileName: file,
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        verbatimModuleSyntax: true,
      },
    });
    writeFileSync(join(dir, file.replace(/\.ts$/, '.js')), outputText);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
