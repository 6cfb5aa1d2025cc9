#!/usr/bin/env node
/**
 * The published bin (package.json "bin" → dist/cli/main.js): the tsc output of src/cli/main.ts bundled by
 * esbuild into one file. A fresh `generate` spent about a fifth of its CPU time resolving, reading and
 * linking ~250 small modules (ours, ajv's, json-schema-to-typescript's); in one file, a module the run
 * imports dynamically is still evaluated only when imported, but nothing is resolved or linked at run time.
 * `npm run build` runs this after tsc; the library entry (dist/src/index.js) stays unbundled.
 *
 * Left out of the bundle, loaded from node_modules only when a command really needs them: prettier (a user
 * prettier config applies), typescript (the single-file layout), undici (a download), yargs (the full
 * command line; it finds its locale files next to its own modules). The build fails if one of them would
 * be imported at start-up.
 *
 * json-schema-to-typescript's index loads its formatter (prettier, ~40 ms) and its $ref resolver at start-up;
 * mcp-typegen calls neither unless a schema still holds a `$ref` (src/emit/jstt.ts), so the bundle requires
 * those two from node_modules on first use instead. The version is pinned: the build fails if the code it
 * rewrites moved.
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_BUNDLE = join(ROOT, 'dist', 'cli', 'main.js');
const EXTERNAL = /^(?:prettier|typescript|undici|yargs)(?:\/|$)/;
/** Bundled all the same: the doc printer the emitters lay output out with (src/emit/layout.ts). */
const BUNDLED = new Set(['prettier/doc']);

const JSTT_INDEX = /[\\/]node_modules[\\/]json-schema-to-typescript[\\/]dist[\\/]src[\\/]index\.js$/;
const DEFERRED = ['./formatter', './resolver'];
const deferredPath = (spec) => `json-schema-to-typescript/dist/src/${spec.slice(2)}.js`;
/** A module required on the first property read of its exports instead of when the importer loads. */
const LAZY = 'const __lazy = (load) => { let m; return new Proxy({}, { get: (_, key) => (m ??= load())[key] }); };\n';
/**
 * typescript's namespace, required on first use: single-file.ts (the `singleFile` layout only) imports it
 * statically, and in one file esbuild hoists a static import of an external to start-up.
 */
const LAZY_TYPESCRIPT = `${LAZY}export default __lazy(() => require('typescript'));\n`;

function deferJsttRequires() {
  return {
    name: 'defer-jstt-requires',
    setup(b) {
      b.onLoad({ filter: JSTT_INDEX }, (args) => {
        let code = readFileSync(args.path, 'utf8');
        for (const spec of DEFERRED) {
          const pattern = new RegExp(`^const (\\w+) = require\\("${spec.replace(/[./]/g, '\\$&')}"\\);$`, 'm');
          if (!pattern.test(code)) throw new Error(`bundle-cli: no top-level require("${spec}") in ${args.path}`);
          code = code.replace(pattern, (_, name) => `const ${name} = __lazy(() => require("${deferredPath(spec)}"));`);
        }
        return { contents: LAZY + code, loader: 'js' };
      });
      const deferred = new Set(DEFERRED.map(deferredPath));
      b.onResolve({ filter: /^json-schema-to-typescript\// }, (args) =>
        deferred.has(args.path) && JSTT_INDEX.test(args.importer) ? { path: args.path, external: true } : undefined,
      );
    },
  };
}

function externals() {
  return {
    name: 'externals',
    setup(b) {
      b.onResolve({ filter: /^typescript$/ }, (args) =>
        args.namespace === 'lazy' ? { path: args.path, external: true } : { path: 'typescript', namespace: 'lazy' },
      );
      b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({ contents: LAZY_TYPESCRIPT, loader: 'js' }));
      b.onResolve({ filter: EXTERNAL }, (args) =>
        BUNDLED.has(args.path) ? undefined : { path: args.path, external: true },
      );
    },
  };
}

/** An external imported statically would be loaded at every start: only Node's own modules may be. */
function assertLazyExternals(metafile) {
  for (const output of Object.values(metafile.outputs)) {
    const eager = output.imports.filter(
      (i) => i.external && i.kind === 'import-statement' && !i.path.startsWith('node:'),
    );
    if (eager.length) throw new Error(`bundle-cli: imported at start-up: ${eager.map((i) => i.path).join(', ')}`);
  }
}

export async function bundleCli() {
  const result = await build({
    entryPoints: [join(ROOT, 'dist', 'src', 'cli', 'main.js')],
    outfile: CLI_BUNDLE,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    // The CommonJS inside (ajv, json-schema-to-typescript) requires Node's modules and the externals.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    plugins: [externals(), deferJsttRequires()],
    logLevel: 'warning',
    metafile: true,
  });
  assertLazyExternals(result.metafile);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli();
