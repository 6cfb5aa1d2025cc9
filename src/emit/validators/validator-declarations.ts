/**
 * validators.d.ts: what validators.js exports, as declarations only, so a program that imports the generated
 * code type-checks a few hundred short lines instead of parsing ajv's JavaScript (issue 37, item 4).
 *
 * Every exported validator is typed with the generated TypeScript type of its definition: calling it narrows
 * the value, and its `~standard` member is a Standard Schema v1 (standardschema.dev) of that type, so any
 * Standard Schema consumer (the official SDK v2's `setRequestHandler(method, { params, result }, …)`, test
 * matchers, form libraries) takes it and infers the type. The spec's interface is declared here, types only:
 * the output depends on nothing at run time.
 */
import { fnType, objectType, ref, union } from '../shared/ts-text.js';
import type { Statement } from '../shared/ts-project.js';
import { declareConst, importDecl, interfaceDecl, typeAlias } from '../shared/ts-structures.js';

const ISSUE_PATH = 'readonly (PropertyKey | { readonly key: PropertyKey })[]';

/** The Standard Schema v1 interface, flattened (the spec nests it in a namespace; the shapes are the same). */
function standardSchemaInterfaces(): Statement[] {
  return [
    interfaceDecl({
      name: 'StandardSchemaV1',
      typeParameters: ['Input = unknown', 'Output = Input'],
      doc: 'A Standard Schema v1 (standardschema.dev), declared as types only.',
      members: [{ name: '~standard', type: ref('StandardSchemaV1Props', 'Input', 'Output'), readonly: true }],
    }),
    interfaceDecl({
      name: 'StandardSchemaV1Props',
      typeParameters: ['Input = unknown', 'Output = Input'],
      members: [
        { name: 'version', type: '1', readonly: true },
        { name: 'vendor', type: 'string', readonly: true },
        {
          name: 'validate',
          readonly: true,
          type: fnType(
            [
              { name: 'value', type: 'unknown' },
              {
                name: 'options',
                optional: true,
                type: `${objectType([{ name: 'libraryOptions', type: 'Record<string, unknown> | undefined', optional: true, readonly: true }])} | undefined`,
              },
            ],
            ref('StandardSchemaV1Result', 'Output'),
          ),
          doc: 'Synchronous: `{ value }` when the value is valid, else `{ issues }`, each with the path of keys to the value it is about.',
        },
        {
          name: 'types',
          optional: true,
          readonly: true,
          type: `${objectType([
            { name: 'input', type: 'Input', readonly: true },
            { name: 'output', type: 'Output', readonly: true },
          ])} | undefined`,
        },
      ],
    }),
    typeAlias(
      'StandardSchemaV1Result<Output>',
      union([
        objectType([
          { name: 'value', type: 'Output', readonly: true },
          { name: 'issues', type: 'undefined', optional: true, readonly: true },
        ]),
        objectType([{ name: 'issues', type: 'readonly StandardSchemaV1Issue[]', readonly: true }]),
      ]),
    ),
    interfaceDecl({
      name: 'StandardSchemaV1Issue',
      members: [
        { name: 'message', type: 'string', readonly: true },
        { name: 'path', type: `${ISSUE_PATH} | undefined`, optional: true, readonly: true },
      ],
    }),
  ];
}

/** The validator types: the plain ajv function the runtime calls, and the typed Standard Schema each export is. */
function validatorInterfaces(): Statement[] {
  return [
    interfaceDecl({
      name: 'CompiledValidator',
      doc: 'A compiled ajv validator: call it, and read `errors` when it returns false.',
      calls: [{ params: [{ name: 'data', type: 'unknown' }], returns: 'boolean' }],
      members: [
        {
          name: 'errors',
          optional: true,
          type: `null | ${objectType([
            { name: 'instancePath', type: 'string' },
            { name: 'keyword', type: 'string' },
            { name: 'params', type: 'Record<string, unknown>' },
            { name: 'message', type: 'string' },
          ])}[]`,
        },
      ],
    }),
    interfaceDecl({
      name: 'Validator',
      typeParameters: ['Type'],
      extends: ['CompiledValidator', ref('StandardSchemaV1', 'Type')],
      doc: "A definition's validator: true narrows the value to the definition's type; `~standard` is a Standard Schema v1 of it.",
      calls: [{ params: [{ name: 'data', type: 'unknown' }], returns: 'data is Type' }],
    }),
  ];
}

/**
 * validators.d.ts's statements: `exports` is every exported validator in validators.js and its type (relative to
 * `T`, the namespace import of `typesModule`).
 */
export function validatorDeclarations(
  exports: readonly { name: string; type: string }[],
  typesModule: string,
  { tables = true }: { tables?: boolean } = {},
): Statement[] {
  const declared = [
    importDecl(true, { namespace: 'T' }, typesModule),
    ...standardSchemaInterfaces(),
    ...validatorInterfaces(),
    ...exports.map((e) => declareConst(e.name, ref('Validator', e.type))),
  ];
  // The lookup tables by method are validators.js's only (a tool surface's module has none).
  if (!tables) return declared;
  return [
    ...declared,
    declareConst('paramsValidators', 'Readonly<Record<string, CompiledValidator>>', 'Params validators by method.'),
    declareConst(
      'resultValidators',
      'Readonly<Record<string, CompiledValidator>>',
      'Result validators by definition name (for development-time result checks).',
    ),
    declareConst(
      'resultsByMethod',
      'Readonly<Record<string, readonly string[]>>',
      'Method → the result definitions it may answer with (what a client checks results against).',
    ),
  ];
}
