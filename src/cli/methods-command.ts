/** `mcp-typegen methods`: print the protocol model, as a table or as stable JSON. */
import type { GenerateOptions } from '../generate.js';
import { unescapePointerToken } from '../load/pointer.js';
import { paramsRefText, type MethodInfo, type ParamsRef } from '../model/types.js';

/** The stable `--json` shape: sorted by method; `result` only on requests; `extension` (its id) only on extension methods. */
export function methodsJson(methods: MethodInfo[]): string {
  const rows = methods.map((m) => ({
    method: m.method,
    kind: m.kind,
    directions: m.directions,
    params: m.params && paramsRefText(m.params),
    paramsRequired: m.paramsRequired,
    ...(m.kind === 'request' ? { result: m.result ?? [] } : {}),
    ...(m.source !== 'mcp' ? { extension: m.source } : {}),
  }));
  return `${JSON.stringify(rows, null, 2)}\n`;
}

/**
 * The params column of the table: a definition's name, or for params written inline in the message
 * definition, `<Message>.params` (the pointer is in `--json`).
 */
export function paramsLabel(ref: ParamsRef): string {
  if (ref.kind === 'definition') return ref.name;
  const message = /^#\/(?:\$defs|definitions)\/([^/]+)\//.exec(ref.pointer)?.[1];
  return message === undefined ? ref.pointer : `${unescapePointerToken(message)}.params`;
}

export function methodsTable(methods: MethodInfo[]): string {
  const rows = methods.map((m) => [
    m.method,
    m.kind,
    m.directions.join(', '),
    m.params === null ? '-' : `${paramsLabel(m.params)}${m.paramsRequired ? '' : '?'}`,
    m.result?.join(' | ') ?? '',
  ]);
  const head = ['method', 'kind', 'directions', 'params', 'result'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n') + '\n';
}

export async function loadModelFor(options: GenerateOptions) {
  const { loadSchema } = await import('../load/schema.js');
  const { buildModel } = await import('../model/build.js');
  const { applyExtensions, loadExtensionsFor } = await import('../model/extensions.js');
  const { readPairingFile } = await import('../model/pairing.js');
  const { requireRequests } = await import('../model/coverage.js');
  const { resolve } = await import('node:path');
  const cwd = options.cwd ?? process.cwd();
  const loaded = await loadSchema({ ...options, cwd });
  const extensions = await loadExtensionsFor(options.extensions ?? [], cwd);
  const pairing = options.pairing ? await readPairingFile(resolve(cwd, options.pairing)) : undefined;
  const model = applyExtensions(buildModel(loaded, { pairing }), extensions);
  requireRequests(model, loaded.file);
  return { loaded, model, extensions };
}
