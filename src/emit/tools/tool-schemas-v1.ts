/**
 * tool-schemas-v1.js (+ .d.ts), with `--tools` and the `sdk-v1` artifact: the snapshot's tools registered on the
 * official SDK v1's `McpServer` (`@modelcontextprotocol/sdk` ≥ 1.32), which takes zod schemas only.
 *
 * Each tool's arguments and structured result as a zod object (`zod/v4`, the entry zod 3.25+ and zod 4 publish)
 * that runs the generated validator (tool-validators.js, through tool-schemas.js's Standard Schema) and reports
 * every issue at its path: one validation of the JSON Schema, the same as on SDK v2 and this runtime. The SDK v1
 * lists a tool by converting its zod object to JSON Schema; the object's metadata is the schema as tool-schemas.js
 * gives it (`draft-2020-12`, what SDK v2 lists too), so the SDK lists the snapshot's schema rather than `{}`.
 *
 * `registerSdkToolsV1(server, handlers)`: a handler per tool, typed by the snapshot (one missing does not
 * compile). SDK v1 checks the arguments before the handler runs and the `structuredContent` after, both with
 * these schemas, and answers a failure with a tool error naming the paths.
 *
 * `promptSchemasV1`: each prompt's arguments as the raw shape of zod strings SDK v1's `registerPrompt` takes,
 * which it lists as the prompt's arguments (names, descriptions, which are required).
 *
 * A module of its own: only projects on SDK v1 import zod through it.
 */
import type { GeneratedFile } from '../shared/context.js';
import type { SurfaceEntry, ToolSurface } from '../shared/tool-surface.js';
import type { Statement, TsFiles } from '../shared/ts-project.js';
import { jsModuleSpecifier, stringLiteral } from '../shared/ts-names.js';
import { declareConst, importDecl, interfaceDecl, typeAlias } from '../shared/ts-structures.js';
import { objectType } from '../shared/ts-text.js';

/** What SDK v1's registerTool takes of a listed tool besides its schemas (v1 has no `icons`). */
const V1_CONFIG_KEYS = ['title', 'description', 'annotations', '_meta'] as const;

function registration(listed: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of V1_CONFIG_KEYS) if (listed[key] !== undefined) out[key] = listed[key];
  return out;
}

/**
 * `z$`: a zod object that runs a Standard Schema's validator, every issue at its path, and carries the schema
 * as its JSON Schema metadata. `$schema` and `additionalProperties` are unset in the metadata: zod would add its
 * own (a draft-07 dialect, `additionalProperties: {}`) to what the server listed.
 */
const HELPER = `function z$(standard) {
  const listed = standard["~standard"].jsonSchema.input({ target: "draft-2020-12" });
  const checked = z.looseObject({}).superRefine((value, ctx) => {
    const { issues } = standard["~standard"].validate(value);
    for (const issue of issues ?? []) {
      const path = (issue.path ?? []).map((p) => (typeof p === "object" ? p.key : p));
      ctx.addIssue({ code: "custom", message: issue.message, path, input: value });
    }
  });
  return checked.meta({ $schema: undefined, additionalProperties: undefined, ...listed });
}`;

/** `registerSdkToolsV1`: the SDK v1 McpServer's registerTool per tool, with the zod schemas above. */
const REGISTER = `export const registerSdkToolsV1 = (server, handlers) => {
  for (const [name, config] of Object.entries(SDK_TOOLS)) {
    const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
    if (typeof handler !== "function") throw new TypeError("registerSdkToolsV1: no handler for tool " + name);
    const { inputSchema, outputSchema } = toolSchemasV1[name];
    server.registerTool(name, { ...config, inputSchema, ...(outputSchema === undefined ? {} : { outputSchema }) }, handler);
  }
};`;

/** `Object.freeze(Object.fromEntries([...]))`: own members whatever the names (`__proto__` too). */
const byName = (rows: [string, string][]) =>
  `/* @__PURE__ */ Object.freeze(Object.fromEntries([\n${rows.map(([k, v]) => `  [${stringLiteral(k)}, ${v}],`).join('\n')}\n]))`;

/** A tool's zod objects, made from tool-schemas.js's Standard Schemas of it. */
const zodRow = (t: SurfaceEntry): string => {
  const of = (which: 'inputSchema' | 'outputSchema') => `z$(toolSchemas[${stringLiteral(t.key)}].${which})`;
  return `{inputSchema: ${of('inputSchema')}${t.output ? `, outputSchema: ${of('outputSchema')}` : ''}}`;
};

/** A prompt's listed arguments (`{ name, description?, required? }`), each a string. */
function promptArguments(p: SurfaceEntry): { name: string; description?: string; required: boolean }[] {
  const listed = Array.isArray(p.listed['arguments']) ? (p.listed['arguments'] as Record<string, unknown>[]) : [];
  return listed
    .filter((a) => typeof a['name'] === 'string')
    .map((a) => ({
      name: a['name'] as string,
      ...(typeof a['description'] === 'string' ? { description: a['description'] } : {}),
      required: a['required'] === true,
    }));
}

/** `{ city: z.string().describe("Where to") }`: the raw shape SDK v1's registerPrompt takes (own members). */
const promptShape = (p: SurfaceEntry): string => {
  const rows = promptArguments(p).map((a): [string, string] => {
    const described = a.description === undefined ? 'z.string()' : `z.string().describe(${stringLiteral(a.description)})`;
    return [a.name, a.required ? described : `${described}.optional()`];
  });
  return `Object.fromEntries([${rows.map(([k, v]) => `[${stringLiteral(k)}, ${v}]`).join(', ')}])`;
};

function emitJs(surface: ToolSurface, importExt: string): string {
  return [
    '// @ts-self-types="./tool-schemas-v1.d.ts"',
    "import * as z from 'zod/v4';",
    `import { toolSchemas } from ${stringLiteral(jsModuleSpecifier('tool-schemas', importExt))};`,
    HELPER,
    `export const toolSchemasV1 = ${byName(surface.tools.map((t) => [t.key, zodRow(t)]))};`,
    `export const promptSchemasV1 = ${byName((surface.prompts ?? []).map((p) => [p.key, promptShape(p)]))};`,
    `const SDK_TOOLS = ${byName(surface.tools.map((t) => [t.key, JSON.stringify(registration(t.listed))]))};`,
    REGISTER,
    '',
  ].join('\n');
}

/** An object type of readonly members, one per row. */
const table = (rows: { name: string; type: string }[]) =>
  rows.length === 0 ? 'Readonly<Record<never, never>>' : objectType(rows.map((r) => ({ ...r, readonly: true })), true);

function declarations(surface: ToolSurface, typesModule: string, schemasModule: string): Statement[] {
  return [
    // By name: the JavaScript's `z` namespace shares the module jsModules: 'ts' makes of both.
    importDecl(true, ['ZodOptional', 'ZodString', 'ZodType'], 'zod/v4'),
    importDecl(true, { namespace: 'T' }, typesModule),
    importDecl(true, ['SdkToolHandlers'], schemasModule),
    ...toolDeclarations(surface),
    ...promptDeclarations(surface),
    interfaceDecl({
      name: 'SdkV1McpServer',
      doc: 'What registerSdkToolsV1() uses of the official SDK v1 `McpServer` (`@modelcontextprotocol/sdk/server/mcp.js`).',
      members: [{ name: 'registerTool', type: '(name: string, config: never, callback: never) => unknown' }],
    }),
    declareConst(
      'registerSdkToolsV1',
      '<Ctx = unknown>(server: SdkV1McpServer, handlers: SdkToolHandlers<Ctx>) => void',
      "Registers every tool of the snapshot on the SDK v1 `McpServer` with zod schemas that run the generated validators; `Ctx` is the SDK's `RequestHandlerExtra`. SDK v1 checks the arguments before a handler runs and its `structuredContent` after.",
    ),
  ];
}

/** ToolSchemasV1 and toolSchemasV1. */
function toolDeclarations(surface: ToolSurface): Statement[] {
  const zod = (type: string) => `ZodType<T.${type}>`;
  return [
    typeAlias(
      'ToolSchemasV1',
      table(
        surface.tools.map((t) => ({
          name: t.key,
          type: objectType(
            [
              { name: 'inputSchema', type: zod(t.input.name), readonly: true },
              ...(t.output ? [{ name: 'outputSchema', type: zod(t.output.name), readonly: true }] : []),
            ],
            true,
          ),
        })),
      ),
      "Each tool's arguments and structured result as zod objects that run the generated validators, by the tool's name.",
    ),
    declareConst(
      'toolSchemasV1',
      'ToolSchemasV1',
      "Each tool's zod schemas for SDK v1's `registerTool` (`inputSchema`, `outputSchema`): listed as the snapshot's JSON Schema, checked by the generated validators.",
    ),
  ];
}

/** PromptSchemasV1 and promptSchemasV1. */
function promptDeclarations(surface: ToolSurface): Statement[] {
  return [
    typeAlias(
      'PromptSchemasV1',
      table(
        (surface.prompts ?? []).map((p) => ({
          name: p.key,
          type: objectType(
            promptArguments(p).map((a) => ({
              name: a.name,
              type: a.required ? 'ZodString' : 'ZodOptional<ZodString>',
              readonly: true,
            })),
            true,
          ),
        })),
      ),
      "Each prompt's arguments as the zod raw shape SDK v1's `registerPrompt` takes (`argsSchema`), by the prompt's name.",
    ),
    declareConst(
      'promptSchemasV1',
      'PromptSchemasV1',
      "Each prompt's arguments for SDK v1's `registerPrompt({ argsSchema })`: strings, the required ones required, with the listed descriptions.",
    ),
  ];
}

/** tool-schemas-v1.js and tool-schemas-v1.d.ts. */
export function toolSchemaV1Files(
  surface: ToolSurface,
  ctx: { ts: TsFiles; importExt: string; singleFile?: boolean },
): GeneratedFile[] {
  const types = `./${ctx.singleFile === true ? 'index' : 'tool-types'}${ctx.importExt}`;
  return [
    { path: 'tool-schemas-v1.js', contents: emitJs(surface, ctx.importExt) },
    {
      path: 'tool-schemas-v1.d.ts',
      contents: ctx.ts.print(declarations(surface, types, jsModuleSpecifier('tool-schemas', ctx.importExt))),
    },
  ];
}
