/**
 * index.ts: the module users import — every definition type, then the names of the other generated
 * modules and of the runtime they use. Written in prettier's layout (layout.ts).
 */
import type { ProtocolModel } from '../model/types.js';
import { printStatements, type Statement } from './layout.js';
import { moduleDecl } from './layout-code.js';
import type { ArtifactEntry, EmitContext } from './registry.js';

/**
 * index.ts re-exports every definition type, then the other modules' names — except a name that a
 * definition already uses (e.g. 2026-07-28 defines `InputRequests`): that one stays reachable through
 * its own module, so the index never has an ambiguous export.
 */
export function emitIndex(model: ProtocolModel, entries: readonly ArtifactEntry[], ctx: EmitContext): string {
  const taken = new Set(Object.keys(model.definitions));
  const statements: Statement[] = [{ doc: `export type * from './types${ctx.importExt}';` }];
  for (const { module, ...names } of entries.flatMap((e) => e.exports(ctx, model))) {
    const types = names.types.filter((n) => !taken.has(n));
    const values = names.values.filter((n) => !taken.has(n));
    for (const n of [...types, ...values]) taken.add(n);
    // Relative `.js` specifiers take the chosen extension.
    const specifier = /^\.{1,2}\/.*\.js$/.test(module) ? `${module.slice(0, -3)}${ctx.importExt}` : module;
    if (types.length) statements.push({ doc: moduleDecl('export', true, types, specifier) });
    if (values.length) statements.push({ doc: moduleDecl('export', false, values, specifier) });
  }
  return printStatements(statements);
}
