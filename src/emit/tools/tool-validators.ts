/**
 * tool-validators.js (+ .d.ts): ajv validators of a tool surface (tool-surface.ts), compiled at generation time like
 * validators.ts (validatorModule): one per tool's arguments, per tool's structured result and per prompt's
 * arguments, each exported under the name of its type in tools.ts. tools.ts reads them through a namespace
 * import (`V.EchoArguments`).
 *
 * MCP takes a tool schema without `$schema` as JSON Schema 2020-12 (2025-11-25, "JSON Schema Usage"); many
 * servers declare draft-07. Both compile in one 2020-12 ajv, the draft-07 ones with the few keywords whose
 * meaning moved rewritten to their 2020-12 spelling (dialects.ts).
 */
import { InputError } from '../../errors.js';
import { escapePointerToken } from '../../load/pointer.js';
import { isObject, type JsonSchema } from '../../load/schema-types.js';
import { rebase } from '../../load/snapshot-arguments.js';
import { repairedSchemas } from './tool-types.js';
import { withDiscriminators } from './discriminated.js';
import { as2020, declaresDraft07 } from './dialects.js';
import { setOwn } from '../../load/own-property.js';
import type { NamedSchema, ToolSurface } from '../shared/tool-surface.js';
import type { GeneratedFile } from '../shared/context.js';
import type { TsFiles } from '../shared/ts-project.js';
import { validatorDeclarations } from '../validators/validator-declarations.js';
import { stripAnnotations, VALIDATOR_HELPERS, validatorModule } from '../validators/validators.js';

/** The schemas that get a validator: what a client sends and checks, and what handlers are given. */
export function validatedSchemas(surface: ToolSurface): NamedSchema[] {
  return [
    ...surface.tools.flatMap((t) => [t.input, ...(t.output ? [t.output] : [])]),
    ...(surface.prompts ?? []).map((p) => p.input),
  ];
}

/** tool-validators.js and its declarations, tool-validators.d.ts (the shape validators.ts gives validators.js). */
export function toolValidatorFiles(
  surface: ToolSurface,
  ctx: { ts: TsFiles; importExt: string; singleFile?: boolean },
): GeneratedFile[] {
  const names = validatedSchemas(surface).map((s) => s.name);
  // tool-types.ts declares the types (index.ts in the single-file layout).
  const types = `./${ctx.singleFile === true ? 'index' : 'tool-types'}${ctx.importExt}`;
  const declarations = validatorDeclarations(
    names.map((name) => ({ name, type: `T.${name}` })),
    types,
    { tables: false },
  );
  return [
    { path: 'tool-validators.js', contents: emitToolValidators(surface) },
    { path: 'tool-validators.d.ts', contents: ctx.ts.print(declarations) },
  ];
}

/** tool-validators.js's text. */
export function emitToolValidators(surface: ToolSurface): string {
  const repaired = repairedSchemas(surface);
  const defs: Record<string, unknown> = {};
  const pointers = new Map<string, string>();
  for (const named of validatedSchemas(surface)) {
    const schema = repaired[named.name];
    const moved = rebase(isObject(schema) && declaresDraft07(schema) ? as2020(schema) : schema, root(named.name));
    defs[named.name] = withDiscriminators(stripAnnotations(withoutSchemaKeyword(moved)));
    pointers.set(named.name, named.pointer);
  }
  // Every issue, not the first: a caller of one tool is told everything wrong with its arguments at once
  // (tools' schemas are small; the protocol's validators stop at the first, on every message's hot path).
  const js = validatorModule(
    '2020-12',
    '$defs',
    defs,
    (name, error) => {
      const reason = error instanceof Error ? error.message : String(error);
      return new InputError(surface.file, pointers.get(name), `no validator can be compiled from this schema: ${reason}`);
    },
    { allErrors: true, discriminator: true },
  );
  return [
    '// @ts-self-types="./tool-validators.d.ts"',
    "// @ts-nocheck -- ajv's generated JavaScript; tool-validators.d.ts declares what it exports.",
    VALIDATOR_HELPERS,
    js,
    '',
  ].join('\n');
}

const root = (name: string) => `#/$defs/${escapePointerToken(name)}`;

/** `$schema` anywhere: one ajv compiles every tool, and a `$schema` it has no meta-schema for would stop it. */
function withoutSchemaKeyword(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSchemaKeyword);
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' && typeof value === 'string') continue;
    setOwn(out, key, key === 'const' || key === 'enum' ? value : withoutSchemaKeyword(value));
  }
  return out;
}
