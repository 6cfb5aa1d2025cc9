/**
 * Builds the package from the repository's templates/ (the same source `--runtime copy` vendors), each module
 * at its path under templates/: dist/esm (ES modules with .d.ts) and dist/cjs (the same modules as CommonJS,
 * marked by their own package.json, with the same .d.ts). File by file, rewriting only what changed
 * (scripts/transpile.mjs); the runtime is type-checked under the strictest settings by `npm run checks`.
 * Run by the repository's `npm run build`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourcesBelow, transpile } from '../../scripts/transpile.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const dist = join(here, 'dist');

transpile({
  root,
  outDir: dist,
  sources: sourcesBelow(root, ['templates']),
  rebase: (path) => path.slice('templates/'.length),
  targets: [
    { dir: 'esm', module: 'esm' },
    { dir: 'cjs', module: 'commonjs' },
  ],
});
mkdirSync(join(dist, 'cjs'), { recursive: true });
writeFileSync(join(dist, 'cjs', 'package.json'), '{\n  "type": "commonjs"\n}\n');
