#!/usr/bin/env node
/**
 * The published bin (package.json "bin" → dist/cli/main.js): the built dist/src/cli/main.js bundled by
 * esbuild. A fresh `generate` spent about a fifth of its CPU time resolving, reading and linking ~250 small
 * modules (ours, ajv's, json-schema-to-typescript's); bundled, nothing is resolved or linked at run time.
 * Code splitting keeps each dynamically imported part in a chunk of its own (dist/cli/chunk-*.js), loaded
 * when the run first imports it, so `--check` on up-to-date output never loads the generator.
 * `npm run build` runs this after the JavaScript is built; the library entry (dist/src/index.js) stays unbundled.
 *
 * Dependencies are bundled as published, never edited. yargs is bundled too: resolving its ~25 ES modules
 * cost ~65 ms of CPU on every run, bundled ~35 ms; the run asks for English (`.locale('en')`), whose
 * messages are y18n's keys themselves, so it needs none of yargs' locale files. Left out of the bundle,
 * loaded from node_modules: prettier (it finds its plugins next to its own modules), ts-morph and typescript
 * (ts-morph carries a TypeScript compiler that looks for its lib files next to itself), undici (a
 * download). The build fails if one of them would be imported at start-up.
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = join(ROOT, 'dist', 'cli');
export const CLI_BUNDLE = join(OUT_DIR, 'main.js');
const EXTERNAL = ['prettier', 'typescript', 'ts-morph', 'undici'];

/**
 * The outputs loaded when the bin starts (the entry and the chunks it imports statically) must import no
 * external package statically: only Node's own modules.
 */
function assertLazyExternals(metafile) {
  const entry = Object.keys(metafile.outputs).find((path) => metafile.outputs[path].entryPoint !== undefined);
  const eager = new Set([entry]);
  for (const path of eager)
    for (const i of metafile.outputs[path].imports) if (!i.external && i.kind === 'import-statement') eager.add(i.path);
  for (const path of eager) {
    const loaded = metafile.outputs[path].imports.filter(
      (i) => i.external && i.kind === 'import-statement' && !i.path.startsWith('node:'),
    );
    if (loaded.length) throw new Error(`bundle-cli: imported at start-up: ${loaded.map((i) => i.path).join(', ')}`);
  }
}

/**
 * yargs lays out help with cliui and measures text with string-width, whose modules build an Intl.Segmenter
 * and Unicode property regexes (`\p{RGI_Emoji}`) when they are evaluated: ~60 ms of CPU on every run, for
 * help text a run without `--help` never prints. yargs' imports of the two resolve here to a stand-in that
 * `require()`s the package on its first call; esbuild keeps a `require()`d ES module, and what it imports,
 * unevaluated until then. The packages are bundled as published.
 */
const HELP_LAYOUT = /^(cliui|string-width)$/;
const lazyHelpLayout = {
  name: 'lazy-help-layout',
  setup(build) {
    build.onResolve({ filter: HELP_LAYOUT }, (args) => {
      // The stand-in's own require() is the package itself.
      if (args.namespace === 'lazy-help-layout' || !/[\\/]node_modules[\\/]yargs[\\/]/.test(args.importer))
        return undefined;
      return { path: args.path, namespace: 'lazy-help-layout', pluginData: { resolveDir: args.resolveDir } };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-help-layout' }, (args) => ({
      contents: `let real;
export default function lazy(...args) {
  real ??= require(${JSON.stringify(args.path)});
  return (typeof real === 'function' ? real : real.default)(...args);
}`,
      resolveDir: args.pluginData.resolveDir,
      loader: 'js',
    }));
  },
};

export async function bundleCli() {
  // tsc wrote dist/cli/main.js earlier (the bin is its bundle): chunks of an earlier build would linger.
  rmSync(OUT_DIR, { recursive: true, force: true });
  const result = await build({
    entryPoints: { main: join(ROOT, 'dist', 'src', 'cli', 'main.js') },
    outdir: OUT_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    external: EXTERNAL,
    // The CommonJS inside (ajv, json-schema-to-typescript) requires Node's modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
    metafile: true,
    plugins: [lazyHelpLayout],
  });
  assertLazyExternals(result.metafile);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli();
