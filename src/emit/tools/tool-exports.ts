/**
 * The names tools.ts exports besides the surface's types, for index.ts (the registry reads them) and for
 * naming the surface's types around them (generate.ts). No ts-morph here: the registry is loaded on
 * `--check` too.
 */
import type { EmitContext } from '../shared/context.js';
import { readable } from '../shared/tool-surface.js';

/** The names tools.ts exports besides the surface's own types (index.ts re-exports them). */
export function toolsExports(ctx: Pick<EmitContext, 'tools' | 'artifacts'>): { types: string[]; values: string[] } {
  const surface = ctx.tools;
  if (surface === undefined) return { types: [], values: [] };
  const client = ctx.artifacts.includes('client');
  const server = ctx.artifacts.includes('server');
  const prompts = (names: string[]) => (surface.prompts ? names : []);
  const own = surface.tools
    .flatMap((t) => [t.input, ...(t.output ? [t.output] : [])])
    .concat([...(surface.prompts ?? []), ...(surface.resourceTemplates ?? [])].map((e) => e.input))
    .flatMap((n) => [n.name, ...n.defs.map((d) => d.named.name)]);
  return {
    types: [
      ...own,
      'ResourceTemplateVariables',
      ...(client ? ['ToolCallResult', ...prompts(['PromptCallResult']), 'TypedToolResult', 'ToolCalls'] : []),
      ...(client ? prompts(['PromptCalls']) : []),
      ...(client && readable(surface) ? ['ResourceReadResult', 'ResourceReads'] : []),
      ...(server && readable(surface) ? ['ResourceReadHandlerResult', 'ResourceHandlers'] : []),
      ...(client ? ['SdkToolCalls', ...prompts(['SdkPromptCalls']), 'SdkClient', 'SdkTools'] : []),
      ...(server ? ['ToolHandlerResult', ...prompts(['PromptHandlerResult']), 'TypedToolReturn', 'ToolHandlers'] : []),
      ...(server ? [...prompts(['PromptHandlers']), 'ToolsImplementation', 'ToolsServerHandlers'] : []),
    ],
    values: [...(client ? ['ToolsClient', 'createToolsClient', 'sdkTools'] : []), ...(server ? ['toolsServer'] : [])],
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
  'SdkToolCalls',
  'SdkPromptCalls',
  'SdkClient',
  'SdkTools',
  'sdkTools',
];
