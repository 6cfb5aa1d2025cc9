/**
 * sdk-tools.ts (with `--tools` and the client): `sdkTools(client)`, the snapshot's tools and prompts over the
 * official SDK's `Client` (v1 or v2), `sdkTools(client).tool.forecast({ city })`: arguments checked before
 * sending, a tool's `structuredContent` after, both by tool-validators.js; `drift.check()` compares the
 * server's tools with the snapshot.
 *
 * A module of its own that imports neither the generated client nor tools.ts nor types.ts: a program on the
 * SDK pays for the surface's types (tool-types.ts) and the validators' declarations, not for the typed
 * client's modules it never uses (bench `sdk-tools-tsc-counts`). The SDK's `Client` is
 * matched by its methods' names (`Function`): compared with a signature, its generic, overloaded callTool costs
 * tsc ~9,000 instantiations per program.
 */
import type { EmitContext } from '../shared/context.js';
import type { SurfaceEntry, ToolSurface } from '../shared/tool-surface.js';
import type { Statement } from '../shared/ts-project.js';
import { jsModuleSpecifier } from '../shared/ts-names.js';
import { constDecl, functionDecl, importDecl, typeAlias } from '../shared/ts-structures.js';
import { fnType, jsonLiteral, objectType, ref, type TypeMember } from '../shared/ts-text.js';
import { checksLiteral, listedEntries, perEntry, serverName, withStructuredContent } from './tools.js';

/**
 * The results as the facade's caller reads them, by their members: content blocks by their `type`. Not
 * types.ts's CallToolResult: a program that imports types.ts checks all of it (~430 types of tsc's count, more
 * than the facade and its calls cost together, bench `sdk-tools-tsc-counts`). The SDK's own `callTool` types
 * the full result.
 */
const BLOCK = '{ type: string; [key: string]: unknown }';
const TOOL_RESULT = `{ content: ${BLOCK}[]; structuredContent?: unknown; isError?: boolean; _meta?: Record<string, unknown> }`;
const PROMPT_RESULT = `{ description?: string; messages: { role: string; content: ${BLOCK} }[]; _meta?: Record<string, unknown> }`;

/** The surface's type names sdk-tools.ts uses: each tool's and prompt's arguments, each tool's result. */
function usedTypes(surface: ToolSurface): string[] {
  const names = [
    ...surface.tools.flatMap((t) => [t.input.name, ...(t.output ? [t.output.name] : [])]),
    ...(surface.prompts ?? []).map((p) => p.input.name),
  ];
  return [...new Set(names)];
}

export function sdkToolsStatements(surface: ToolSurface, ctx: EmitContext): Statement[] {
  const hasPrompts = surface.prompts !== undefined;
  const listed = surface.toolsListed === true;
  const module = (name: string) => `./${ctx.singleFile === true ? 'index' : name}${ctx.importExt}`;
  const runtime = [
    'toolCallers',
    ...(hasPrompts ? ['promptCallers'] : []),
    ...(listed ? ['DriftWatch', 'type ListedSurface'] : []),
    'type SurfaceChecks',
  ];
  return [
    ...(usedTypes(surface).length > 0 ? [importDecl(true, usedTypes(surface), module('tool-types'))] : []),
    importDecl(false, { namespace: 'V' }, jsModuleSpecifier('tool-validators', ctx.importExt)),
    importDecl(false, runtime, ctx.runtime.core),
    constDecl('CHECKS', checksLiteral(surface), { type: 'SurfaceChecks', exported: false }),
    ...(listed
      ? [constDecl('LISTED', jsonLiteral({ tools: listedEntries(surface).tools }), { type: 'ListedSurface', exported: false })]
      : []),
    typeAlias('SdkToolCallResult', TOOL_RESULT, 'What a tool call resolves to (the members the facade types).'),
    ...(hasPrompts
      ? [typeAlias('SdkPromptCallResult', PROMPT_RESULT, 'What a prompt call resolves to (the members the facade types).')]
      : []),
    withStructuredContent(
      'SdkTypedToolResult',
      'SdkToolCallResult',
      "A tools/call result whose `structuredContent` is the tool's (checked against its outputSchema); an error result may lack it.",
    ),
    ...facade(surface, hasPrompts, listed),
  ];
}

/** SdkToolCalls, SdkPromptCalls, SdkClient, SdkTools and sdkTools(). */
function facade(surface: ToolSurface, hasPrompts: boolean, listed: boolean): Statement[] {
  // Its `callTool` and `getPrompt` take the request options in different places in v1 and v2, so the facade's
  // calls take none (a call that needs a signal or a timeout goes through the SDK's own method).
  const toolResult = (t: SurfaceEntry) => (t.output ? ref('SdkTypedToolResult', t.output.name) : 'SdkToolCallResult');
  const noOptions = (entry: SurfaceEntry, result: string) =>
    fnType([{ name: 'args', type: entry.input.name, optional: !entry.inputRequired }], ref('Promise', result));
  const tools = surface.tools.map((t) => ({ name: t.key, doc: t.description, type: noOptions(t, toolResult(t)) }));
  const prompts = (surface.prompts ?? []).map((p) => ({
    name: p.key,
    doc: p.description,
    type: noOptions(p, 'SdkPromptCallResult'),
  }));
  const drift = ref('DriftWatch', 'keyof SdkToolCalls & string');
  const members: TypeMember[] = [
    { name: 'tool', type: 'SdkToolCalls', readonly: true },
    ...(hasPrompts ? [{ name: 'prompt', type: 'SdkPromptCalls', readonly: true }] : []),
    ...(listed
      ? [
          {
            name: 'drift',
            type: ref('Pick', drift, "'check'"),
            readonly: true,
            doc: "`check()`: the server's tools compared with the snapshot (call it from the SDK client's tools/list_changed handler).",
          },
        ]
      : []),
  ];
  const methods = ['callTool', ...(hasPrompts ? ['getPrompt'] : []), ...(listed ? ['listTools'] : [])];
  const routes = [
    "method === 'tools/call' ? client.callTool(params)",
    ...(hasPrompts ? ["method === 'prompts/get' ? client.getPrompt(params)"] : []),
    ...(listed ? ["method === 'tools/list' ? client.listTools(params)"] : []),
  ];
  const send = `(method, params) => ${routes.join(' : ')} : Promise.reject(new Error(method))`;
  const parts = [
    'tool: toolCallers<SdkToolCalls>(send, CHECKS.tools)',
    ...(hasPrompts ? ['prompt: promptCallers<SdkPromptCalls>(send, CHECKS.prompts)'] : []),
    ...(listed ? [`drift: new ${drift}(LISTED.tools ?? [], send)`] : []),
  ];
  return [
    perEntry('SdkToolCalls', tools, "One call per tool over the SDK's Client, by name."),
    ...(hasPrompts ? [perEntry('SdkPromptCalls', prompts, "One call per prompt over the SDK's Client, by name.")] : []),
    typeAlias(
      'SdkClient',
      objectType(methods.map((name) => ({ name, type: 'Function', readonly: true }))),
      "What sdkTools() uses of the official SDK's `Client` (v1 `@modelcontextprotocol/sdk` or v2 `@modelcontextprotocol/client`): its methods, by name (their signatures differ by major; the facade's calls are the typed ones).",
    ),
    typeAlias('SdkTools', objectType(members, true), "The typed calls over the SDK's Client."),
    functionDecl({
      name: 'sdkTools',
      doc: `${serverName(surface)}'s tools (and prompts) over the official SDK's connected \`Client\`, v1 or v2: \`sdkTools(client).tool.<name>(args)\` checks the arguments before sending (-32602, nothing sent) and a tool's \`structuredContent\` after.`,
      params: [{ name: 'client', type: 'SdkClient' }],
      returns: 'SdkTools',
      body: [
        `const send: Parameters<typeof toolCallers>[0] = ${send};`,
        `return Object.freeze({ ${parts.join(', ')} });`,
      ],
    }),
  ];
}
