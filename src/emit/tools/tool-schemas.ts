/**
 * tool-schemas.js (+ .d.ts), with `--tools`: each tool's arguments and structured result, and each prompt's
 * arguments, as a Standard Schema that also carries its JSON Schema (Standard JSON Schema, standardschema.dev):
 * `~standard.validate` is the tool validator's (tool-validators.js), `~standard.jsonSchema.input/output({ target })`
 * gives the schema as the server listed it, in 2020-12 (`draft-2020-12`, what the SDK v2 asks for) or draft-07
 * (`draft-07`, what the AI SDK asks for), both made at generation time (dialects.ts). What the AI SDK's
 * `mcpClient.tools({ schemas: toolSchemas })` and the SDK v2's `registerTool` take.
 *
 * Also `registerSdkTools(server, handlers)`: every tool of the snapshot registered on the official SDK v2's
 * `McpServer` with these schemas and the listed title, description, annotations and icons; a handler per tool,
 * typed by the snapshot (one missing does not compile); its `structuredContent` checked against the tool's
 * outputSchema before it is sent.
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

/** `registerSdkTools`: the SDK v2 McpServer's registerTool per tool, the handler's structured result checked. */
// A constant, as every export of a module compiled at generation time (jsModules: 'ts' types each by its declaration).
const REGISTER = `export const registerSdkTools = (server, handlers) => {
  for (const [name, config] of Object.entries(SDK_TOOLS)) {
    const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
    if (typeof handler !== "function") throw new TypeError("registerSdkTools: no handler for tool " + name);
    const { inputSchema, outputSchema } = toolSchemas[name];
    const checked = async (args, ctx) => {
      const result = await handler(args, ctx);
      if (outputSchema !== undefined && result?.isError !== true) {
        const { issues } = outputSchema["~standard"].validate(result?.structuredContent);
        if (issues !== undefined) {
          const where = (issue) => "/" + issue.path.join("/") + " " + issue.message;
          throw new Error("tool " + name + ": structuredContent " + issues.map(where).join(", ") + " (not sent)");
        }
      }
      return result;
    };
    server.registerTool(name, { ...config, inputSchema, ...(outputSchema === undefined ? {} : { outputSchema }) }, checked);
  }
};`;

/** What registerTool takes of a listed tool besides its schemas. */
function registration(listed: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['title', 'description', 'annotations', 'icons', '_meta'])
    if (listed[key] !== undefined) out[key] = listed[key];
  return out;
}

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
    `const SDK_TOOLS = ${byName(surface.tools.map((t) => [t.key, JSON.stringify(registration(t.listed))]))};`,
    REGISTER,
    '',
  ].join('\n');
}

function declarations(surface: ToolSurface, typesModule: string, validatorsModule: string): Statement[] {
  const options = objectType([
    { name: 'target', type: 'string', readonly: true },
    { name: 'libraryOptions', type: 'Record<string, unknown> | undefined', optional: true, readonly: true },
  ]);
  const convert = `(options: ${options}) => Record<string, unknown>`;
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
    ...registerDeclarations(surface),
  ];
}

/** An object type of readonly members, one per row. */
const table = (rows: { name: string; type: string }[]) =>
  rows.length === 0 ? 'Readonly<Record<never, never>>' : objectType(rows.map((r) => ({ ...r, readonly: true })), true);

/** SdkToolReturn, SdkToolHandlers, SdkMcpServer and registerSdkTools's declaration. */
function registerDeclarations(surface: ToolSurface): Statement[] {
  const returns = (type: string) => `${type} | Promise<${type}>`;
  const handler = (t: SurfaceEntry) =>
    `(args: T.${t.input.name}, ctx: Ctx) => ${returns(t.output ? `SdkToolReturn<T.${t.output.name}>` : 'SdkToolResult')}`;
  const content = '{ readonly content: readonly unknown[]; readonly [key: string]: unknown }';
  return [
    typeAlias('SdkToolResult', `${content} & { readonly isError?: boolean }`, "A tool's result (CallToolResult)."),
    typeAlias(
      'SdkToolReturn<S>',
      `${content} & ({ readonly isError?: false; readonly structuredContent: S } | { readonly isError: true; readonly structuredContent?: S })`,
      "A tool's result with its `structuredContent` typed by the tool's outputSchema (an error result may lack it).",
    ),
    typeAlias(
      'SdkToolHandlers<Ctx = unknown>',
      table(surface.tools.map((t) => ({ name: t.key, type: handler(t) }))),
      "A handler per tool of the snapshot, by name; `Ctx` is the SDK's handler context (`ServerContext`).",
    ),
    interfaceDecl({
      name: 'SdkMcpServer',
      doc: 'What registerSdkTools() uses of the official SDK v2 `McpServer` (`@modelcontextprotocol/server`).',
      members: [{ name: 'registerTool', type: '(name: string, config: never, callback: never) => unknown' }],
    }),
    declareConst(
      'registerSdkTools',
      '<Ctx = unknown>(server: SdkMcpServer, handlers: SdkToolHandlers<Ctx>) => void',
      "Registers every tool of the snapshot on the SDK v2 `McpServer` with its generated schemas; a handler's `structuredContent` is checked against the tool's outputSchema before it is sent (an error if not).",
    ),
  ];
}

/** tool-schemas.js and tool-schemas.d.ts. */
export function toolSchemaFiles(
  surface: ToolSurface,
  ctx: { ts: TsFiles; importExt: string; singleFile?: boolean },
): GeneratedFile[] {
  const types = `./${ctx.singleFile === true ? 'index' : 'tool-types'}${ctx.importExt}`;
  return [
    { path: 'tool-schemas.js', contents: emitJs(surface, ctx.importExt) },
    { path: 'tool-schemas.d.ts', contents: ctx.ts.print(declarations(surface, types, jsModuleSpecifier('tool-validators', ctx.importExt))) },
  ];
}
