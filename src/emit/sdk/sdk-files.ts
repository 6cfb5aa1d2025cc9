/**
 * sdk.js + sdk.d.ts: the SDK v2 adapter as JavaScript and its declarations, the file shape of validators.js
 * and validators.d.ts. A program that imports the adapter then type-checks declarations only (skipLibCheck
 * skips them) instead of checking the adapter's bodies as its own source: ~0.07 s of every tsc run of a
 * project on the SDK (bench `sdk`). Both are TypeScript's transpilers' output of the one sdk.ts text that
 * sdk.ts's statements print (types stripped; declarations without a program, as `isolatedDeclarations`
 * allows: every export's type is written out). With `jsModules: 'ts'` the text itself is sdk.ts.
 */
import type { ProtocolModel } from '../../model/types.js';
import type { EmitContext, GeneratedFile } from '../shared/context.js';
import { sdkStatements } from './sdk.js';
import { tsMorph, type TsFiles } from '../shared/ts-project.js';

/** The adapter as TypeScript: what sdk.js and sdk.d.ts are made from (test/generate/compile checks its bodies). */
export const sdkSource = (model: ProtocolModel, ts: TsFiles, importExt: string): string =>
  ts.print(sdkStatements(model, importExt));

export function sdkFiles(model: ProtocolModel, ctx: EmitContext): GeneratedFile[] {
  const source = sdkSource(model, ctx.ts, ctx.importExt);
  if (ctx.jsModules === 'ts') return [{ path: 'sdk.ts', contents: source }];
  const { ts } = tsMorph();
  const compilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    verbatimModuleSyntax: true,
    isolatedDeclarations: true,
    declaration: true,
  };
  const declarations = ts.transpileDeclaration(source, {
    compilerOptions,
    fileName: 'sdk.ts',
    reportDiagnostics: true,
  });
  // An export whose type the declarations cannot write out is the emitter's bug, never the user's input.
  const [problem] = declarations.diagnostics ?? [];
  if (problem !== undefined) {
    throw new Error(`sdk.d.ts: ${ts.flattenDiagnosticMessageText(problem.messageText, ' ')} (an emitter bug)`);
  }
  const js = ts.transpileModule(source, { compilerOptions: { ...compilerOptions, declaration: false } }).outputText;
  return [
    {
      path: 'sdk.js',
      contents: `// @ts-self-types="./sdk.d.ts"\n// @ts-nocheck -- sdk.ts transpiled; sdk.d.ts declares what it exports.\n${js}`,
    },
    { path: 'sdk.d.ts', contents: declarations.outputText },
  ];
}
