/**
 * maps.ts, client.ts, server.ts and index.ts are written in prettier's layout without prettier
 * (src/emit/layout.ts): formatting them with prettier and the default options must change nothing, for
 * every spec version, with extensions (channels, vendor methods, result variants), with each import
 * extension and with a vendored runtime — so the layout never drifts from prettier's. In process, on the
 * emitters (no json-schema-to-typescript or ajv); prettier is loaded once.
 */
import { join } from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/emit/format.js';
import { emitClient } from '../../src/emit/client.js';
import { emitIndex } from '../../src/emit/index-file.js';
import { emitMaps } from '../../src/emit/maps.js';
import { REGISTRY, resolveArtifacts, type EmitContext } from '../../src/emit/registry.js';
import { runtimeImports, type RuntimeMode } from '../../src/emit/runtime.js';
import { emitServer } from '../../src/emit/server.js';
import { loadSchema } from '../../src/load/schema.js';
import { buildModel } from '../../src/model/build.js';
import { applyExtensions, loadExtensionsFor } from '../../src/model/extensions.js';
import type { MethodInfo, ProtocolModel } from '../../src/model/types.js';
import { ROOT, SCHEMA_DIR } from '../helpers/paths.js';

const APPS = join(ROOT, 'schema', 'extensions', 'apps.extension.json');
const TASKS = join(ROOT, 'schema', 'extensions', 'tasks.extension.json');
const ACME = join(ROOT, 'schema', 'examples', 'acme-jobs.extension.json');

const CASES: { version: string; extensions: string[]; importExt: string; runtime: RuntimeMode }[] = [
  { version: '2024-11-05', extensions: [], importExt: '.js', runtime: 'package' },
  { version: '2025-03-26', extensions: [], importExt: '', runtime: 'copy' },
  { version: '2025-06-18', extensions: [APPS], importExt: '.js', runtime: 'package' },
  { version: '2025-11-25', extensions: [ACME, APPS], importExt: '.ts', runtime: 'package' },
  { version: '2026-07-28', extensions: [TASKS, APPS], importExt: '.js', runtime: 'copy' },
];

async function model(version: string, extensions: string[]): Promise<ProtocolModel> {
  const loaded = await loadSchema({ spec: version, schemaDir: SCHEMA_DIR, cwd: ROOT });
  return applyExtensions(buildModel(loaded), await loadExtensionsFor(extensions, ROOT));
}

/** Methods whose stubs take the rarer shapes: a stub with stubs under it (`Object.assign`), reserved words. */
function withOddMethods(m: ProtocolModel): ProtocolModel {
  const list = m.methods.find((x) => x.method === 'tools/list')!;
  const odd = (method: string): MethodInfo => ({ ...list, method, source: 'acme/odd' });
  return { ...m, methods: [...m.methods, odd('tools/list/all'), odd('default'), odd('new/thing'), odd('acme/delete')] };
}

function files(m: ProtocolModel, importExt: string, runtimeMode: RuntimeMode): Record<string, string> {
  const ctx: EmitContext = {
    importExt,
    artifacts: resolveArtifacts(undefined),
    runtimeMode,
    runtime: {
      ...runtimeImports(runtimeMode, importExt),
      range: runtimeMode === 'package' ? '^0.1.0' : null,
      generator: 'mcp-typegen 0.1.0',
    },
    schemaFile: 'schema.json',
  };
  return {
    'maps.ts': emitMaps(m, importExt),
    'client.ts': emitClient(m, importExt, ctx.runtime),
    'server.ts': emitServer(m, importExt, ctx.runtime),
    'index.ts': emitIndex(
      m,
      REGISTRY.filter((e) => e.enabled(ctx)),
      ctx,
    ),
  };
}

async function expectLaidOut(generated: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(generated)) {
    const formatted = await prettier.format(text, { ...DEFAULTS, parser: 'babel-ts' });
    expect(text, path).toBe(formatted);
  }
}

describe("emitted in prettier's layout", () => {
  it.each(CASES)('$version $importExt $runtime', async ({ version, extensions, importExt, runtime }) => {
    await expectLaidOut(files(await model(version, extensions), importExt, runtime));
  });

  it('with stubs that have stubs under them and reserved words as names', async () => {
    const m = withOddMethods(await model('2025-11-25', []));
    const generated = files(m, '.js', 'package');
    expect(generated['client.ts']).toContain('Object.assign(');
    await expectLaidOut(generated);
  });
});
