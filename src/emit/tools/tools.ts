/**
 * tools.ts (with `--tools <snapshot>`): the typed surface of one server. Its types are tool-types.ts's
 * (re-exported here), the validators' table (tool-validators.js compiles them), and, as ts-morph statement
 * structures:
 *
 * - with the client: `ToolsClient`, an McpClient with `tool.<name>(args)` and `prompt.<name>(args)`, keyed by
 *   the names as the server spells them (`client.tool['get-sum']({ a, b })`);
 * - with the server: `toolsServer({ tools, prompts })`, the handlers of the lists and calls answered from the
 *   snapshot, to spread into `createServer`; every listed tool and prompt needs its handler.
 *
 * The same calls over the official SDK's `Client` are sdk-tools.ts's (`sdkTools`), a module that imports none
 * of these. The runtime half is templates/typed-surface.ts.
 */
import type { EmitContext } from '../shared/context.js';
import { frozenRecord } from '../client-server/server.js';
import { surfaceTypeNames } from './tool-exports.js';
import { readable, type SurfaceEntry, type ToolSurface } from '../shared/tool-surface.js';
import type { Statement } from '../shared/ts-project.js';
import { jsModuleSpecifier } from '../shared/ts-names.js';
import { classDecl, constDecl, exportDecl, functionDecl, importDecl, typeAlias } from '../shared/ts-structures.js';
import { fnType, jsonLiteral, objectLiteral, objectType, ref, str, union, type TypeMember } from '../shared/ts-text.js';

/** The surface's types the client's and server's statements name. */
function usedTypes(surface: ToolSurface): string[] {
  const entries = [...surface.tools, ...(surface.prompts ?? []), ...(readable(surface) ? (surface.resourceTemplates ?? []) : [])];
  const names = entries.flatMap((e) => [e.input.name, ...(e.output ? [e.output.name] : [])]);
  return [...new Set(names)];
}

export function toolsStatements(surface: ToolSurface, ctx: EmitContext): Statement[] {
  const client = ctx.artifacts.includes('client');
  const server = ctx.artifacts.includes('server');
  // Types only without a peer: nothing would read the validators' table (or import the runtime).
  const peer = client || server;
  const types = `./tool-types${ctx.importExt}`;
  const used = peer ? usedTypes(surface) : [];
  return [
    ...(peer ? imports(surface, ctx, client, server) : []),
    ...(used.length > 0 ? [importDecl(true, used, types)] : []),
    exportDecl(true, surfaceTypeNames(surface), types),
    ...(peer ? [constDecl('CHECKS', checksLiteral(surface), { type: 'SurfaceChecks', exported: false })] : []),
    ...(peer ? [constDecl('LISTED', jsonLiteral(listedEntries(surface)), { type: 'ListedSurface', exported: false })] : []),
    ...(peer && readable(surface)
      ? [constDecl('TEMPLATES', templateNames(surface), { type: 'TemplateVariableNames', exported: false })]
      : []),
    ...(client ? clientStatements(surface) : []),
    ...(server ? serverStatements(surface) : []),
  ];
}

function imports(surface: ToolSurface, ctx: EmitContext, client: boolean, server: boolean): Statement[] {
  const prompts = surface.prompts !== undefined && surface.prompts.length > 0;
  const ext = ctx.importExt;
  return [
    ...(client ? [importDecl(false, ['McpClient', 'type ClientCalls'], `./client${ext}`)] : []),
    ...(server ? [importDecl(true, ['McpServerHandlers', 'ServerContext'], `./server${ext}`)] : []),
    importDecl(false, { namespace: 'V' }, jsModuleSpecifier('tool-validators', ext)),
    importDecl(
      false,
      [
        ...(client
          ? [
              'toolCallers',
              ...(prompts ? ['promptCallers'] : []),
              ...(surface.toolsListed ? ['DriftWatch'] : []),
              ...(readable(surface) ? ['templateReaders'] : []),
              'type RequestOptions',
              'type Transport',
            ]
          : []),
        ...(server ? ['surfaceHandlers'] : []),
        'type ListedSurface',
        ...(readable(surface) ? ['type TemplateVariableNames'] : []),
        'type SurfaceChecks',
      ],
      ctx.runtime.core,
    ),
  ];
}

/** The validators of each tool and prompt, by name (null-prototype: a tool named `__proto__` is a name). */
export function checksLiteral(surface: ToolSurface): string {
  const tools = surface.tools.map((t) => ({
    name: t.key,
    value: objectLiteral([
      { name: 'arguments', value: `V.${t.input.name}` },
      ...(t.output ? [{ name: 'structuredContent', value: `V.${t.output.name}` }] : []),
    ]),
  }));
  const prompts = (surface.prompts ?? []).map((p) => ({ name: p.key, value: `V.${p.input.name}` }));
  return objectLiteral([
    { name: 'tools', value: frozenRecord(tools) },
    { name: 'prompts', value: frozenRecord(prompts) },
  ]);
}

/** Each template's variable names, by template (the runtime reads a URI back by them). */
function templateNames(surface: ToolSurface): string {
  const rows = (surface.resourceTemplates ?? []).map((t) => {
    const schema = t.input.schema as { properties?: Record<string, unknown> };
    return { name: t.key, value: JSON.stringify(Object.keys(schema.properties ?? {})) };
  });
  return frozenRecord(rows);
}

const member = (m: TypeMember): TypeMember => (m.doc === undefined ? { name: m.name, type: m.type } : m);

/** `(args: A, options?) => R`: the arguments may be left out when none is required. */
const callType = (entry: SurfaceEntry, result: string, last: { name: string; type: string; optional?: boolean }) =>
  fnType([{ name: 'args', type: entry.input.name, optional: !entry.inputRequired }, last], result);

const returns = (type: string) => union([type, ref('Promise', type)]);

/** An object type of one member per entry (`Record<never, never>` for none), as a type alias. */
export function perEntry(name: string, entries: readonly TypeMember[], doc: string): Statement {
  return typeAlias(name, entries.length > 0 ? objectType(entries.map(member), true) : 'Record<never, never>', doc);
}

/** Statements about prompts, only when the surface has them (their types name prompts/get). */
const ifPrompts = (surface: ToolSurface, statements: () => Statement[]): Statement[] =>
  surface.prompts ? statements() : [];

/** `Name<S>`: the result `base` with `structuredContent` typed `S` (required unless it is an error result). */
export function withStructuredContent(name: string, base: string, doc: string): Statement {
  const type = [
    `${base} extends infer R`,
    "  ? R extends unknown ? Omit<R, 'structuredContent' | 'isError'> &",
    '      ({ isError?: false; structuredContent: S } | { isError: true; structuredContent?: S })',
    '    : never',
    '  : never',
  ].join('\n');
  return typeAlias(`${name}<S>`, type, doc);
}

function clientStatements(surface: ToolSurface): Statement[] {
  const options = { name: 'options', type: 'RequestOptions', optional: true };
  const toolResult = (t: SurfaceEntry) => (t.output ? ref('TypedToolResult', t.output.name) : 'ToolCallResult');
  const tools = surface.tools.map((t) => ({
    name: t.key,
    doc: t.description,
    type: callType(t, ref('Promise', toolResult(t)), options),
  }));
  const prompts = (surface.prompts ?? []).map((p) => ({
    name: p.key,
    doc: p.description,
    type: callType(p, ref('Promise', 'PromptCallResult'), options),
  }));
  return [
    typeAlias('ToolCallResult', "ClientCalls['tools/call']['result']", 'What a tool call resolves to.'),
    ...ifPrompts(surface, () => [
      typeAlias('PromptCallResult', "ClientCalls['prompts/get']['result']", 'What a prompt call resolves to.'),
    ]),
    withStructuredContent(
      'TypedToolResult',
      'ToolCallResult',
      "A tools/call result whose `structuredContent` is the tool's (checked against its outputSchema); an error result may lack it.",
    ),
    perEntry('ToolCalls', tools, 'One call per tool, by name.'),
    ...(readable(surface) ? resourceReadTypes(surface) : []),
    ...ifPrompts(surface, () => [perEntry('PromptCalls', prompts, 'One call per prompt, by name.')]),
    ...toolsClient(surface, prompts.length > 0),
  ];
}

/** ResourceReadResult and ResourceReads: a typed read per resource template. */
function resourceReadTypes(surface: ToolSurface): Statement[] {
  const options = { name: 'options', type: 'RequestOptions', optional: true };
  const reads = (surface.resourceTemplates ?? []).map((t) => ({
    name: t.key,
    doc: t.description,
    type: fnType(
      [{ name: 'variables', type: t.input.name, optional: !t.inputRequired }, options],
      ref('Promise', 'ResourceReadResult'),
    ),
  }));
  return [
    typeAlias('ResourceReadResult', "ClientCalls['resources/read']['result']", 'What a resource read resolves to.'),
    perEntry(
      'ResourceReads',
      reads,
      'One read per resource template, by template: its variables expanded into the URI (RFC 6570), then resources/read.',
    ),
  ];
}

/** ResourceReadHandlerResult and ResourceHandlers: a handler per resource template. */
function resourceHandlerTypes(surface: ToolSurface): Statement[] {
  const ctx = { name: 'ctx', type: 'ServerContext' };
  const handlers = (surface.resourceTemplates ?? []).map((t) => ({
    name: t.key,
    doc: t.description,
    type: fnType([{ name: 'variables', type: t.input.name }, ctx], returns('ResourceReadHandlerResult')),
  }));
  return [
    typeAlias(
      'ResourceReadHandlerResult',
      "Awaited<ReturnType<McpServerHandlers['resources/read']>>",
      'What a resource template handler returns.',
    ),
    perEntry(
      'ResourceHandlers',
      handlers,
      "A handler per resource template, by template: given to toolsServer, it answers resources/read with the URI's variables.",
    ),
  ];
}

/** `drift`: the snapshot's tools compared with the server's, typed by the tools' names. */
function driftProperty(send: string, subscribe?: string): { name: string; type: string; value: string } {
  const type = ref('DriftWatch', 'keyof ToolCalls & string');
  const args = ['LISTED.tools ?? []', send, ...(subscribe === undefined ? [] : [subscribe])];
  return { name: 'drift', type, value: `new ${type}(${args.join(', ')})` };
}

/** ToolsClient and createToolsClient. */
function toolsClient(surface: ToolSurface, hasPrompts: boolean): Statement[] {
  const send = '(method, params, options) => this.call(method, params, options)';
  const params = [
    { name: 'transport', type: 'Transport' },
    { name: 'options', type: 'ConstructorParameters<typeof McpClient>[1]' },
  ];
  const prompt = { name: 'prompt', type: 'PromptCalls', value: `promptCallers<PromptCalls>(${send}, CHECKS.prompts)` };
  return [
    classDecl({
      name: 'ToolsClient',
      extends: 'McpClient',
      doc: `${serverName(surface)}'s client: \`tool.<name>(args)\` and \`prompt.<name>(args)\` check the arguments before sending and a tool's \`structuredContent\` after; \`drift.check()\` and \`drift.on(listener)\` report how the server's tools differ from the snapshot (on demand, and on each \`notifications/tools/list_changed\`).`,
      properties: [
        { name: 'tool', type: 'ToolCalls', value: `toolCallers<ToolCalls>(${send}, CHECKS.tools)` },
        ...(hasPrompts ? [prompt] : []),
        ...(readable(surface)
          ? [{ name: 'resource', type: 'ResourceReads', value: `templateReaders<ResourceReads>(${send}, TEMPLATES)` }]
          : []),
        ...(surface.toolsListed ? [driftProperty(send, "(handler) => this.setNotificationHandler('notifications/tools/list_changed', handler)")] : []),
      ],
      ctor: { params, body: ['super(transport, options);'] },
      methods: [],
    }),
    functionDecl({
      name: 'createToolsClient',
      doc: `A client of ${serverName(surface)} on a transport.`,
      params,
      returns: 'ToolsClient',
      body: ['return new ToolsClient(transport, options);'],
    }),
  ];
}

function serverStatements(surface: ToolSurface): Statement[] {
  const ctx = { name: 'ctx', type: 'ServerContext' };
  const toolResult = (t: SurfaceEntry) => (t.output ? ref('TypedToolReturn', t.output.name) : 'ToolHandlerResult');
  const tools = surface.tools.map((t) => ({
    name: t.key,
    doc: t.description,
    type: callType({ ...t, inputRequired: true }, returns(toolResult(t)), ctx),
  }));
  const prompts = (surface.prompts ?? []).map((p) => ({
    name: p.key,
    doc: p.description,
    type: callType({ ...p, inputRequired: true }, returns('PromptHandlerResult'), ctx),
  }));
  return [
    typeAlias(
      'ToolHandlerResult',
      "Awaited<ReturnType<McpServerHandlers['tools/call']>>",
      "What a tool's handler returns (fields the runtime fills in optional).",
    ),
    ...ifPrompts(surface, () => [
      typeAlias(
        'PromptHandlerResult',
        "Awaited<ReturnType<McpServerHandlers['prompts/get']>>",
        "What a prompt's handler returns.",
      ),
    ]),
    withStructuredContent(
      'TypedToolReturn',
      'ToolHandlerResult',
      "What a tool's handler returns: its `structuredContent` typed by the tool's outputSchema (an error result may lack it).",
    ),
    perEntry(
      'ToolHandlers',
      tools,
      'A handler for every listed tool, by name: its arguments are checked before it runs.',
    ),
    ...ifPrompts(surface, () => [perEntry('PromptHandlers', prompts, 'A handler for every listed prompt, by name.')]),
    ...(readable(surface) ? resourceHandlerTypes(surface) : []),
    ...toolsServer(surface, prompts.length > 0),
  ];
}

/** ToolsImplementation, ToolsServerHandlers, the listed entries and toolsServer(). */
function toolsServer(surface: ToolSurface, hasPrompts: boolean): Statement[] {
  const lists = [
    ...(surface.toolsListed ? ['tools/list'] : []),
    'tools/call',
    ...(surface.prompts ? ['prompts/list', 'prompts/get'] : []),
    ...(surface.resourceTemplates ? ['resources/templates/list'] : []),
  ];
  const implementation: TypeMember[] = [
    { name: 'tools', type: 'ToolHandlers' },
    ...(surface.prompts ? [{ name: 'prompts', type: 'PromptHandlers', optional: !hasPrompts }] : []),
    ...(readable(surface) ? [{ name: 'resources', type: 'ResourceHandlers', optional: true }] : []),
  ];
  return [
    typeAlias(
      'ToolsImplementation',
      objectType(implementation, true),
      `What implements ${serverName(surface)}'s surface.`,
    ),
    typeAlias(
      'ToolsServerHandlers',
      readable(surface)
        ? `${ref('Pick', 'McpServerHandlers', union(lists.map((l) => str(l))))} & Partial<Pick<McpServerHandlers, 'resources/read'>>`
        : ref('Pick', 'McpServerHandlers', union(lists.map((l) => str(l)))),
      'The handlers toolsServer() gives, to spread into createServer().',
    ),
    functionDecl({
      name: 'toolsServer',
      doc: `The handlers of ${serverName(surface)}'s lists and calls, answered from its snapshot: \`createServer({ ...toolsServer({ tools }), ... })\`. An unknown tool is a protocol error (-32602); invalid arguments a tool error (\`isError\`) naming the JSON pointer.`,
      params: [{ name: 'implementation', type: 'ToolsImplementation' }],
      returns: 'ToolsServerHandlers',
      body: [
        `return surfaceHandlers<ToolsServerHandlers>(LISTED, CHECKS, implementation${readable(surface) ? ', TEMPLATES' : ''});`,
      ],
    }),
  ];
}

/** The entries as listed, in name order (what the handlers' lists answer). */
export function listedEntries(surface: ToolSurface): { tools?: unknown[]; prompts?: unknown[]; resourceTemplates?: unknown[] } {
  return {
    ...(surface.toolsListed ? { tools: surface.tools.map((t) => t.listed) } : {}),
    ...(surface.prompts ? { prompts: surface.prompts.map((p) => p.listed) } : {}),
    ...(surface.resourceTemplates ? { resourceTemplates: surface.resourceTemplates.map((t) => t.listed) } : {}),
  };
}

export function serverName(surface: ToolSurface): string {
  const name = typeof surface.server.name === 'string' ? surface.server.name : 'the server';
  return typeof surface.server.version === 'string' ? `${name} ${surface.server.version}` : name;
}
