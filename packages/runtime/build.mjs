/**
 * Builds the package from the repository's templates/ (the same source `--runtime copy` vendors):
 * dist/esm (ES modules, type-checked by tsc, with .d.ts) and dist/cjs (the same modules transpiled to
 * CommonJS, marked by their own package.json, with the same .d.ts), each module at its path under templates/.
 * Run by the repository's `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const here = dirname(fileURLToPath(import.meta.url));
const templates = join(here, '..', '..', 'templates');
const esm = join(here, 'dist', 'esm');
const cjs = join(here, 'dist', 'cjs');

rmSync(join(here, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(here, 'tsconfig.json')], {
  stdio: 'inherit',
});
mkdirSync(cjs, { recursive: true });
writeFileSync(join(cjs, 'package.json'), '{\n  "type": "commonjs"\n}\n');
const sources = readdirSync(templates, { recursive: true, encoding: 'utf8' });
for (const name of sources.filter((n) => n.endsWith('.ts') && !n.endsWith('.d.ts'))) {
  const { outputText } = ts.transpileModule(readFileSync(join(templates, name), 'utf8'), {
    fileName: name,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS },
  });
  const base = name.slice(0, -3);
  mkdirSync(dirname(join(cjs, base)), { recursive: true });
  writeFileSync(join(cjs, `${base}.js`), outputText);
  // The declarations are the same text; under dist/cjs they describe CommonJS modules.
  copyFileSync(join(esm, `${base}.d.ts`), join(cjs, `${base}.d.ts`));
}
