/**
 * The names tools.ts exports besides the surface's types, for index.ts (the registry reads them) and for
 * naming the surface's types around them (generate.ts). No ts-morph here: the registry is loaded on
 * `--check` too.
 */
import type { EmitContext } from '../shared/context.js';
import { readable, type ToolSurface } from '../shared/tool-surface.js';

/** The names tools.ts exports besides the surface's own types (index.ts re-exports them). */
export function toolsExports(ctx: Pick<EmitContext, 'tools' | 'artifacts'>): { types: string[]; values: string[] } {
  const surface = ctx.tools;
  if (surface === undefined) return { types: [], values: [] };
  const client = ctx.artifacts.includes('client');
  const server = ctx.artifacts.includes('server');
  const prompts = (names: string[]) => (surface.prompts ? names : []);
  return {
    types: [
      ...surfaceTypeNames(surface),
      ...(client ? ['ToolCallResult', ...prompts(['PromptCallResult']), 'TypedToolResult', 'ToolCalls'] : []),
      ...(client ? prompts(['PromptCalls']) : []),
      ...(client && readable(surface) ? ['ResourceReadResult', 'ResourceReads'] : []),
      ...(server && readable(surface) ? ['ResourceReadHandlerResult', 'ResourceHandlers'] : []),
      ...(server ? ['ToolHandlerResult', ...prompts(['PromptHandlerResult']), 'TypedToolReturn', 'ToolHandlers'] : []),
      ...(server ? [...prompts(['PromptHandlers']), 'ToolsImplementation', 'ToolsServerHandlers'] : []),
    ],
    values: [...(client ? ['ToolsClient', 'createToolsClient'] : []), ...(server ? ['toolsServer'] : [])],
  };
}

/** The surface's own types (tool-types.ts declares them, tools.ts re-exports them). */
export function surfaceTypeNames(surface: ToolSurface): string[] {
  const own = surface.tools
    .flatMap((t) => [t.input, ...(t.output ? [t.output] : [])])
    .concat([...(surface.prompts ?? []), ...(surface.resourceTemplates ?? [])].map((e) => e.input))
    .flatMap((n) => [n.name, ...n.defs.map((d) => d.named.name)]);
  return [...own, 'ResourceTemplateVariables'];
}

/** What sdk-tools.ts exports (emitted with the client): index.ts re-exports it. */
export function sdkToolsExports(ctx: Pick<EmitContext, 'tools' | 'artifacts'>): { types: string[]; values: string[] } {
  if (ctx.tools === undefined || !ctx.artifacts.includes('client')) return { types: [], values: [] };
  const prompts = ctx.tools.prompts !== undefined;
  return {
    types: [
      'SdkToolCallResult',
      ...(prompts ? ['SdkPromptCallResult'] : []),
      'SdkTypedToolResult',
      'SdkToolCalls',
      ...(prompts ? ['SdkPromptCalls'] : []),
      'SdkClient',
      'SdkTools',
    ],
    values: ['sdkTools'],
  };
}

/** The names no surface type may take: tools.ts's own exports (the surface's types are named around them). */
export const TOOLS_FIXED_EXPORTS: readonly string[] = [
  'ResourceTemplateVariables',
  'ToolCallResult',
  'PromptCallResult',
  'ToolHandlerResult',
  'PromptHandlerResult',
  'TypedToolResult',
  'ToolCalls',
  'PromptCalls',
  'TypedToolReturn',
  'ToolHandlers',
  'PromptHandlers',
  'ToolsImplementation',
  'ToolsServerHandlers',
  'ToolsClient',
  'createToolsClient',
  'toolsServer',
  'ResourceReadResult',
  'ResourceReads',
  'ResourceReadHandlerResult',
  'ResourceHandlers',
  'SdkToolCallResult',
  'SdkPromptCallResult',
  'SdkTypedToolResult',
  'SdkToolCalls',
  'SdkPromptCalls',
  'SdkClient',
  'SdkTools',
  'sdkTools',
];
