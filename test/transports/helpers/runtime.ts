/**
 * The hand-written runtime in templates/ as plain ESM JavaScript, so a child process (which runs plain
 * `node`, without a TypeScript loader) can import it. Transpiled once per content of templates/ and shared by
 * every test file and run (test/.tmp/runtime-js/<hash>): the transpile takes over a second, and the runtime
 * tests also run on Node 22 and 24 (test/platforms/runtime-nodes.test.ts). Built under a temporary name and
 * renamed into place, so a concurrent worker sees no build or all of it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const templatesDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'templates');
export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const BUILDS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.tmp', 'runtime-js');

/** The directory of the templates as .js (each at its path under templates/), transpiled from the templates on disk now. */
export function transpiledRuntime(): string {
  const sources = readdirSync(templatesDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(templatesDir, file), 'utf8') }));
  const hash = createHash('sha256').update(ts.version);
  for (const { file, text } of sources) hash.update('\0').update(file).update('\0').update(text);
  const dir = join(BUILDS, hash.digest('hex').slice(0, 16));
  if (existsSync(join(dir, 'package.json'))) return dir;
  const staging = `${dir}.${process.pid}.partial`;
  mkdirSync(staging, { recursive: true });
  for (const { file, text } of sources) {
    const { outputText } = ts.transpileModule(text, {
      fileName: file,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
    });
    const target = join(staging, file.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  // package.json last: its presence marks a whole build.
  writeFileSync(join(staging, 'package.json'), '{"type":"module"}\n');
  try {
    renameSync(staging, dir);
  } catch {
    // Another worker placed the same build first.
    rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}
