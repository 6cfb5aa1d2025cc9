/**
 * types.ts: one exported declaration per schema definition, named exactly as its key.
 *
 * Each definition is normalised (see normalize.ts) and compiled on its own by
 * json-schema-to-typescript, unformatted; generate.ts formats the file with prettier (format.ts).
 */
import type { Options } from 'json-schema-to-typescript';
import { InputError } from '../../errors.js';
import type { ProtocolModel } from '../../model/types.js';
import { isObject } from '../../load/schema.js';
import type { JsonSchema } from '../../load/schema-types.js';
import { normalizeDefinition, repairDefinitions, setOwn, type RefNamer, type RepairRule } from './normalize.js';
import { inlineParamsAliases } from './params-names.js';
import { jsttCompiler } from './jstt.js';
import { assertTypeName, propertyKey, stringLiteral } from '../shared/ts-names.js';
import { decodeFragmentToken, definitionPointer } from '../../load/pointer.js';

const JSTT_OPTIONS: Partial<Options> = {
  bannerComment: '',
  format: false,
  // No `[k: string]: unknown` unless the schema allows extra properties.
  additionalProperties: false,
  declareExternallyReferenced: false,
  unknownAny: true,
  strictIndexSignatures: false,
  enableConstEnums: false,
  inferStringEnumKeysFromValues: false,
  ignoreMinAndMaxItems: true,
  unreachableDefinitions: false,
};
const compile = jsttCompiler(JSTT_OPTIONS);

/** Extra documentation for definitions whose TypeScript type cannot say everything the schema does. */
const NOTES: Record<string, string> = {
  RequestId:
    'A JSON-RPC request id: a string or an integer. Never a float and never null (TypeScript has no integer type: send integers). Integers beyond Number.MAX_SAFE_INTEGER (±(2^53−1)) are refused with -32600: JavaScript cannot read them back exactly, so an answer could not be matched to its request.',
  ProgressToken: 'A string or an integer, never a float.',
};

export interface EmitTypesOptions {
  /** Rules to leave out: only the fidelity test uses this, to show what each rule is for. */
  withoutRules?: readonly (RepairRule | 'ts-object-keyword')[];
}

/** types.ts as json-schema-to-typescript writes it, unformatted (generate.ts formats it with the rest). */
export async function emitTypes(model: ProtocolModel, file: string, options: EmitTypesOptions = {}): Promise<string> {
  const defsPrefix = `#/${model.defsKeyword}/`;
  const refToType: RefNamer = (ref) => refToTypeExpression(ref, defsPrefix, model.definitions);
  const parts: string[] = [];
  const without = options.withoutRules ?? [];
  const definitions = repairDefinitions(
    model,
    without.filter((r): r is RepairRule => r !== 'ts-object-keyword'),
  );
  const paramsAliases = new Map(
    [...inlineParamsAliases(model.methods, model.definitions)].map(([alias, m]) => [
      m.definition,
      { alias, method: m.method },
    ]),
  );
  for (const [name, definition] of Object.entries(definitions)) {
    const pointer = definitionPointer(model.defsKeyword, name);
    assertTypeName(name, file, pointer);
    let normalized = normalizeDefinition(definition, file, pointer, refToType, !without.includes('ts-object-keyword'));
    // Own properties only: a definition named `toString` must not get Object.prototype's.
    const note = Object.hasOwn(NOTES, name) ? NOTES[name] : undefined;
    if (note !== undefined && typeof normalized === 'object' && normalized !== null) {
      const own = normalized as { description?: unknown };
      own.description = typeof own.description === 'string' ? `${own.description}\n\n${note}` : note;
    }
    if (typeof normalized === 'boolean') normalized = normalized ? {} : { not: {} };
    const params = paramsAliases.get(name);
    const hoisted = params && hoistParams(normalized as JsonSchema, params.alias, params.method);
    parts.push(await compileDeclaration(normalized as object, name, file, pointer));
    if (params && hoisted)
      parts.push(await compileDeclaration(hoisted, params.alias, file, `${pointer}/properties/params`));
  }
  // maps.ts types request ids by RequestId: a schema without one gets JSON-RPC's own.
  if (!Object.hasOwn(definitions, 'RequestId'))
    parts.push(
      "/** A JSON-RPC request id (the schema defines none: JSON-RPC 2.0's own). */\nexport type RequestId = string | number;",
    );
  return parts.join('\n');
}

/** One declaration by JSTT, named after its second argument (names were checked before). */
export async function compileDeclaration(schema: object, name: string, file: string, pointer: string): Promise<string> {
  try {
    return await escapeLineSeparators(await compile(schema, name));
  } catch (error) {
    throw new InputError(file, pointer, `cannot turn this definition into a type: ${(error as Error).message}`);
  }
}

/**
 * JSTT prints U+2028/U+2029 raw; in a string literal they are valid but editors and older tools take them
 * for line breaks. Descriptions had them turned into newlines (normalize.ts), so what is left is inside
 * string literals (values, quoted keys): each such literal is rewritten as an escaped one, through ts-morph.
 * Rare, so its Project is made only when a declaration holds one.
 */
async function escapeLineSeparators(declaration: string): Promise<string> {
  if (!/[\u2028\u2029]/.test(declaration)) return declaration;
  const { createTsFiles, tsMorph } = await import('../shared/ts-project.js');
  const { SyntaxKind } = tsMorph();
  const source = createTsFiles().add('declaration.ts', declaration);
  const literals = source
    .getDescendantsOfKind(SyntaxKind.StringLiteral)
    .filter((literal) => /[\u2028\u2029]/.test(literal.getLiteralValue()));
  // Last first: a replacement never moves a literal still to be replaced.
  for (const literal of literals.reverse()) literal.replaceWithText(stringLiteral(literal.getLiteralValue()));
  return source.getFullText();
}

/**
 * Params written inline become their own declaration (see params-names.ts): the message's `params`
 * property now names it. Returns the params schema to declare, or undefined when there is none.
 */
function hoistParams(message: JsonSchema, alias: string, method: string): JsonSchema | undefined {
  const properties = message.properties;
  if (!isObject(properties) || !Object.hasOwn(properties, 'params')) return undefined;
  const params = properties.params;
  if (!isObject(params) || params.tsType !== undefined) return undefined;
  const reference: JsonSchema = { tsType: alias };
  if (typeof params.description === 'string') reference.description = params.description;
  setOwn(properties, 'params', reference);
  return {
    ...params,
    description: typeof params.description === 'string' ? params.description : `The params of \`${method}\`.`,
  };
}

/**
 * `#/$defs/Foo` → `Foo`; `#/$defs/Foo/properties/bar` → `Foo["bar"]` (non-null), for refs that
 * point inside a definition's properties.
 */
function refToTypeExpression(
  ref: string,
  defsPrefix: string,
  definitions: Record<string, unknown>,
): string | undefined {
  if (!ref.startsWith(defsPrefix)) return undefined;
  const tokens = ref
    .slice(defsPrefix.length)
    .split('/')
    .map((t) => decodeFragmentToken(t));
  const [name, ...rest] = tokens;
  if (name === undefined || !Object.hasOwn(definitions, name)) return undefined;
  let expression = name;
  for (let i = 0; i < rest.length; i += 2) {
    const [keyword, property] = [rest[i], rest[i + 1]];
    if (keyword !== 'properties' || property === undefined) return undefined;
    expression = `NonNullable<${expression}[${propertyKey(property, true)}]>`;
  }
  return expression;
}
