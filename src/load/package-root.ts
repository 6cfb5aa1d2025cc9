import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: { root: string; version: string } | undefined;

/**
 * The mcp-typegen package's own root (where `schema/` and `templates/` ship). Found by walking up from
 * this module, so it works from `src/` under vitest and from `dist/src/` once built or installed.
 */
export function toolPackage(): { root: string; version: string } {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'mcp-typegen') return (cached = { root: dir, version: pkg.version ?? '0.0.0' });
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('mcp-typegen: cannot find its own package.json');
    dir = parent;
  }
}

let build: string | null | undefined;

/**
 * The fingerprint of the sources the running tool was built from, in a checkout of this repository (the stamp
 * `npm run build` writes, scripts/build.mjs); null in an installed package, which ships no stamp (its version
 * says which code it is). A rebuilt generator of the same version is a different generator: output it wrote
 * before is not "unchanged" to it.
 */
export function toolBuild(): string | null {
  if (build !== undefined) return build;
  try {
    build = readFileSync(join(toolPackage().root, 'dist', '.build-inputs.tool'), 'utf8').trim() || null;
  } catch {
    build = null;
  }
  return build;
}
