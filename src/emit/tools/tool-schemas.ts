/**
 * tool-schemas.js (+ .d.ts), with `--tools`: each tool's arguments and structured result, and each prompt's
 * arguments, as a Standard Schema that also carries its JSON Schema (Standard JSON Schema, standardschema.dev):
 * `~standard.validate` is the tool validator's (tool-validators.js), `~standard.jsonSchema.input/output({ target })`
 * gives the schema as the server listed it, in 2020-12 (`draft-2020-12`, what the SDK v2 asks for) or draft-07
 * (`draft-07`, what the AI SDK asks for), both made at generation time (dialects.ts). What the AI SDK's
 * `mcpClient.tools({ schemas: toolSchemas })` and the SDK v2's `registerTool` take.
 *
 * A module of its own, which nothing else generated imports: a bundle that does not use it carries no schema
 * text. Exports are named like the types and validators (`ForecastArguments`), plus `toolSchemas` and
 * `promptSchemas` by name as the server spells them.
 */
import { isObject, type JsonSchema } from '../../load/schema-types.js';
import type { GeneratedFile } from '../shared/context.js';
import type { SurfaceEntry, ToolSurface } from '../shared/tool-surface.js';
import type { Statement, TsFiles } from '../shared/ts-project.js';
import { jsModuleSpecifier, stringLiteral } from '../shared/ts-names.js';
import { declareConst, importDecl, interfaceDecl, typeAlias } from '../shared/ts-structures.js';
import { objectType, ref } from '../shared/ts-text.js';
import { as07, as2020, declaresDraft07 } from './dialects.js';
import { validatedSchemas } from './tool-validators.js';

/** The schema in each target a consumer may ask for: the listed one, and the other dialect. */
export function jsonSchemaTargets(schema: JsonSchema): { 'draft-2020-12': JsonSchema; 'draft-07': JsonSchema } {
  const { $schema: _dialect, ...listed } = schema;
  const draft07 = declaresDraft07(schema);
  return { 'draft-2020-12': draft07 ? as2020(listed) : listed, 'draft-07': draft07 ? listed : as07(listed) };
}

/** `j$`: a Standard Schema with JSON Schema from a validator and its schema in both targets. */
const HELPER = `function j$(validator, draft202012, draft07) {
  const targets = {"draft-2020-12": draft202012, "draft-07": draft07};
  const convert = (options) => {
    const target = options?.target;
    if (typeof target !== "string" || !Object.hasOwn(targets, target))
      throw new Error("mcp-typegen: no JSON Schema for target " + String(target) + " (draft-2020-12 and draft-07 are generated)");
    return JSON.parse(targets[target]);
  };
  const standard = validator["~standard"];
  return {"~standard": {version: 1, vendor: standard.vendor, validate: standard.validate, jsonSchema: {input: convert, output: convert}}};
}`;

/** `Object.freeze(Object.fromEntries([...]))`: own members whatever the names (`__proto__` too). */
const byName = (rows: [string, string][]) =>
  `/* @__PURE__ */ Object.freeze(Object.fromEntries([\n${rows.map(([k, v]) => `  [${stringLiteral(k)}, ${v}],`).join('\n')}\n]))`;

const toolRow = (t: SurfaceEntry): string =>
  `{inputSchema: ${t.input.name}${t.output ? `, outputSchema: ${t.output.name}` : ''}}`;

function emitJs(surface: ToolSurface, importExt: string): string {
  const lines = validatedSchemas(surface).map((named) => {
    const targets = jsonSchemaTargets(isObject(named.schema) ? named.schema : {});
    const text = (schema: JsonSchema) => stringLiteral(JSON.stringify(schema));
    return `export const ${named.name} = /* @__PURE__ */ j$(V.${named.name}, ${text(targets['draft-2020-12'])}, ${text(targets['draft-07'])});`;
  });
  return [
    '// @ts-self-types="./tool-schemas.d.ts"',
    `import * as V from ${stringLiteral(jsModuleSpecifier('tool-validators', importExt))};`,
    HELPER,
    ...lines,
    `export const toolSchemas = ${byName(surface.tools.map((t) => [t.key, toolRow(t)]))};`,
    `export const promptSchemas = ${byName((surface.prompts ?? []).map((p) => [p.key, p.input.name]))};`,
    '',
  ].join('\n');
}

function declarations(surface: ToolSurface, typesModule: string, validatorsModule: string): Statement[] {
  const options = objectType([
    { name: 'target', type: 'string', readonly: true },
    { name: 'libraryOptions', type: 'Record<string, unknown> | undefined', optional: true, readonly: true },
  ]);
  const convert = `(options: ${options}) => Record<string, unknown>`;
  const table = (rows: { name: string; type: string }[]) =>
    rows.length === 0 ? 'Readonly<Record<never, never>>' : objectType(rows.map((r) => ({ ...r, readonly: true })), true);
  return [
    importDecl(true, { namespace: 'T' }, typesModule),
    importDecl(true, ['StandardSchemaV1Props'], validatorsModule),
    interfaceDecl({
      name: 'StandardJSONSchemaV1Converter',
      doc: "A Standard JSON Schema converter (standardschema.dev): the schema in the dialect asked for, `draft-2020-12` or `draft-07` (any other target throws).",
      members: [
        { name: 'input', type: convert, readonly: true },
        { name: 'output', type: convert, readonly: true },
      ],
    }),
    interfaceDecl({
      name: 'ToolSchema',
      typeParameters: ['Type'],
      doc: "A Standard Schema of `Type` that carries its JSON Schema: the tool's validator, and the schema as the server listed it.",
      members: [
        {
          name: '~standard',
          type: `${ref('StandardSchemaV1Props', 'Type', 'Type')} & { readonly jsonSchema: StandardJSONSchemaV1Converter }`,
          readonly: true,
        },
      ],
    }),
    ...validatedSchemas(surface).map((n) => declareConst(n.name, ref('ToolSchema', `T.${n.name}`))),
    typeAlias(
      'ToolSchemas',
      table(
        surface.tools.map((t) => ({
          name: t.key,
          type: objectType(
            [
              { name: 'inputSchema', type: `typeof ${t.input.name}`, readonly: true },
              ...(t.output ? [{ name: 'outputSchema', type: `typeof ${t.output.name}`, readonly: true }] : []),
            ],
            true,
          ),
        })),
      ),
      "Each tool's schemas by name: `mcpClient.tools({ schemas: toolSchemas })` (@ai-sdk/mcp).",
    ),
    declareConst('toolSchemas', 'ToolSchemas', "Each tool's arguments and structured result, by the tool's name."),
    typeAlias(
      'PromptSchemas',
      table((surface.prompts ?? []).map((p) => ({ name: p.key, type: `typeof ${p.input.name}` }))),
      "Each prompt's arguments by name.",
    ),
    declareConst('promptSchemas', 'PromptSchemas', "Each prompt's arguments, by the prompt's name."),
  ];
}

/** tool-schemas.js and tool-schemas.d.ts. */
export function toolSchemaFiles(
  surface: ToolSurface,
  ctx: { ts: TsFiles; importExt: string; singleFile?: boolean },
): GeneratedFile[] {
  const types = `./${ctx.singleFile === true ? 'index' : 'tools'}${ctx.importExt}`;
  return [
    { path: 'tool-schemas.js', contents: emitJs(surface, ctx.importExt) },
    { path: 'tool-schemas.d.ts', contents: ctx.ts.print(declarations(surface, types, jsModuleSpecifier('tool-validators', ctx.importExt))) },
  ];
}
