/**
 * index.ts: the module users import — every definition type, then the names of the other generated
 * modules and of the runtime they use, as ts-morph statement structures (ts-structures.ts).
 */
import type { ProtocolModel } from '../model/types.js';
import type { Statement } from './shared/ts-project.js';
import { exportDecl } from './shared/ts-structures.js';
import type { ArtifactEntry } from './registry.js';
import type { EmitContext } from './shared/context.js';

/**
 * index.ts re-exports every definition type, then the other modules' names — except a name that a
 * definition already uses (e.g. 2026-07-28 defines `InputRequests`): that one stays reachable through
 * its own module, so the index never has an ambiguous export.
 */
export function indexStatements(
  model: ProtocolModel,
  entries: readonly ArtifactEntry[],
  ctx: EmitContext,
): Statement[] {
  const taken = new Set(Object.keys(model.definitions));
  const statements: Statement[] = [exportDecl(true, '*', `./types${ctx.importExt}`)];
  for (const { module, js, ...names } of entries.flatMap((e) => e.exports(ctx, model))) {
    const types = names.types.filter((n) => !taken.has(n));
    const values = names.values.filter((n) => !taken.has(n));
    for (const n of [...types, ...values]) taken.add(n);
    // Relative `.js` specifiers take the chosen extension; a JavaScript module's keeps `.js` for `.ts`.
    const ext = js === true && ctx.importExt === '.ts' ? '.js' : ctx.importExt;
    const specifier = /^\.{1,2}\/.*\.js$/.test(module) ? `${module.slice(0, -3)}${ext}` : module;
    if (types.length) statements.push(exportDecl(true, types, specifier));
    if (values.length) statements.push(exportDecl(false, values, specifier));
  }
  return statements;
}
