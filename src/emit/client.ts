/**
 * client.ts: `McpClient`, one typed stub per request the client may send, grouped by the method's path
 * (`client.tools.call`, `client.resources.templates.list`, `client.ping`, `client.acme.jobs.start`),
 * on top of the hand-written runtime/client-base.ts. Built with ts-morph from structures.
 */
import { Scope, StructureKind, type ClassDeclarationStructure, type StatementStructures } from 'ts-morph';
import { isObject } from '../load/schema.js';
import { resolvePointer } from '../load/pointer.js';
import type { MethodInfo, ProtocolModel } from '../model/types.js';
import { withDiscriminant } from './server.js';
import { channelClientClasses, channelsOf } from './channels.js';
import { baseClassMembers } from './base-members.js';
import { runtimeCheck, runtimeCheckImport, type RuntimeRef } from './runtime-ref.js';
import { TABLES, paramsType } from './tables.js';
import { docComment, isIdentifier, propertyKey, stringLiteral } from './ts-names.js';
import { printFile } from './ts-project.js';

/** Requests the client sends, as the caller sees them. */
function clientCalls(model: ProtocolModel): MethodInfo[] {
  const select = TABLES.find((t) => t.name === 'ClientRequests')!.select;
  return model.methods.filter(select);
}

/**
 * Whether the caller must pass params: 2026-07-28 on, `_meta` is required by the schema but filled in
 * by the client, so params whose only required field is `_meta` become optional for the caller.
 */
function callerParamsRequired(model: ProtocolModel, m: MethodInfo): boolean {
  if (!m.paramsRequired) return false;
  if (!model.features.perRequestMeta) return true;
  const schema = paramsSchema(model, m);
  const required = isObject(schema) && Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  return required.some((r) => r !== '_meta');
}

export function paramsSchema(model: ProtocolModel, m: MethodInfo): unknown {
  if (m.params === null) return undefined;
  if (m.params.kind === 'definition') return model.definitions[m.params.name];
  return resolvePointer(model.definitions, m.params.pointer.slice(`#/${model.defsKeyword}`.length));
}

/** The result the caller gets: input-required rounds are resolved by the client. */
function callerResult(model: ProtocolModel, m: MethodInfo): string {
  const results = (m.result ?? []).filter((r) => !(model.features.inputRequests && r === 'InputRequiredResult'));
  return results.map((r) => withDiscriminant(`T.${r}`, m.discriminants?.[r])).join(' | ') || 'T.Result';
}

/**
 * The params a caller passes, by name (so an editor shows `CallToolRequestParams`): 2026-07-28 on,
 * wrapped in CallerParams, which makes the `_meta` and retry fields the client fills in optional.
 */
function callerParams(model: ProtocolModel, m: MethodInfo): string {
  const params = paramsType(m, model);
  return model.features.perRequestMeta && m.params !== null ? `CallerParams<${params}>` : params;
}

function callsType(model: ProtocolModel): string {
  const rows = clientCalls(model).map((m) => {
    const params = callerParams(model, m);
    return `  ${propertyKey(m.method, true)}: { params: ${params}; paramsRequired: ${callerParamsRequired(model, m)}; result: ${callerResult(model, m)} };`;
  });
  return rows.length ? `{\n${rows.join('\n')}\n}` : 'Record<never, never>';
}

interface StubNode {
  leaf?: MethodInfo;
  children: Map<string, StubNode>;
}

/** `resources/templates/list` → resources.templates.list; `acme/jobs.start` → acme.jobs.start. */
function stubTree(methods: MethodInfo[], handshake: readonly string[]): StubNode {
  const root: StubNode = { children: new Map() };
  for (const m of methods) {
    // The handshake is connect()'s job: a stub would let callers run it twice.
    if (handshake.includes(m.method)) continue;
    let node = root;
    for (const segment of m.method.split(/[/.]/).filter(Boolean).map(memberName)) {
      if (!node.children.has(segment)) node.children.set(segment, { children: new Map() });
      node = node.children.get(segment)!;
    }
    node.leaf = m;
  }
  return root;
}

/** A method path segment as a member name: camelCase, and quoted later if still not an identifier. */
function memberName(segment: string): string {
  return segment.replace(/[-_]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function key(name: string): string {
  return isIdentifier(name) ? name : stringLiteral(name);
}

function stubFunction(model: ProtocolModel, m: MethodInfo): string {
  const optional = callerParamsRequired(model, m) ? '' : '?';
  return `(params${optional}: ${callerParams(model, m)}, options?: RequestOptions): Promise<${callerResult(model, m)}> => this.request(${stringLiteral(m.method)}, params, options)`;
}

function describe(model: ProtocolModel, m: MethodInfo): string | undefined {
  const d = model.definitions[m.definition]?.description;
  return typeof d === 'string' ? `\`${m.method}\`: ${d}` : `\`${m.method}\``;
}

/** An object literal of stubs for one group (nested groups as nested literals). */
function groupLiteral(model: ProtocolModel, node: StubNode, indent: string): string {
  const lines: string[] = [];
  for (const [name, child] of node.children) {
    const doc = child.leaf ? docComment(describe(model, child.leaf), `${indent}  `) : '';
    let value: string;
    if (child.children.size === 0) value = stubFunction(model, child.leaf!);
    else if (!child.leaf) value = groupLiteral(model, child, `${indent}  `);
    else value = `Object.assign(${stubFunction(model, child.leaf)}, ${groupLiteral(model, child, `${indent}  `)})`;
    lines.push(`${doc}${indent}  ${key(name)}: ${value},`);
  }
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** The options, with `capabilities` typed as this version's ClientCapabilities (extension settings included). */
function optionsType(model: ProtocolModel): string {
  return 'ClientCapabilities' in model.definitions
    ? 'McpClientOptions & { capabilities?: T.ClientCapabilities }'
    : 'McpClientOptions';
}

/** McpClient: one method per request, grouped by the method's path (`client.tools.call(...)`). */
function clientClass(model: ProtocolModel): ClassDeclarationStructure {
  const tree = stubTree(clientCalls(model), model.facts.handshakeRequests);
  const classStructure: ClassDeclarationStructure = {
    kind: StructureKind.Class,
    isExported: true,
    name: 'McpClient',
    extends: 'McpClientBase<ClientCalls, ClientNotifications, ServerRequests & InputRequests, ServerNotifications>',
    docs: [
      `A typed MCP client for spec ${model.version ?? '(unknown version)'}: one method per request, grouped by the method's path.\n` +
        'Call `connect()` first; handlers for what the server sends are registered with `setRequestHandler` / `setNotificationHandler`.',
    ],
    ctors: [
      {
        parameters: [
          { name: 'transport', type: 'Transport' },
          { name: 'options', type: optionsType(model) },
        ],
        statements: ['super(transport, PROTOCOL, options);'],
      },
    ],
    properties: [],
    methods: [],
  };
  for (const [rawName, node] of tree.children) {
    const name = baseClassMembers('client-base.ts', 'McpClientBase').has(rawName) ? `${rawName}_` : rawName;
    if (node.children.size === 0 && node.leaf) {
      const m = node.leaf;
      const optional = !callerParamsRequired(model, m);
      classStructure.methods!.push({
        name: key(name),
        docs: [describe(model, m)!.replace(/\*\//g, '*\\/')],
        parameters: [
          { name: 'params', type: callerParams(model, m), hasQuestionToken: optional },
          { name: 'options', type: 'RequestOptions', hasQuestionToken: true },
        ],
        returnType: `Promise<${callerResult(model, m)}>`,
        statements: [`return this.request(${stringLiteral(m.method)}, params, options);`],
      });
    } else {
      classStructure.properties!.push({
        name: key(name),
        scope: Scope.Public,
        isReadonly: true,
        initializer: node.leaf
          ? `Object.assign(${stubFunction(model, node.leaf)}, ${groupLiteral(model, node, '  ')})`
          : groupLiteral(model, node, '  '),
      });
    }
  }
  return classStructure;
}

/** The imports of client.ts: only what it uses (an unused import fails noUnusedLocals). */
function clientImports(model: ProtocolModel, importExt: string, runtime: RuntimeRef): (StatementStructures | string)[] {
  return [
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namespaceImport: 'T',
      moduleSpecifier: `./types${importExt}`,
    },
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namedImports: [
        ...(channelsOf(model).length > 0 ? ['ClientRequests'] : []),
        'ClientNotifications',
        'InputRequests',
        'ServerNotifications',
        'ServerRequests',
      ],
      moduleSpecifier: `./maps${importExt}`,
    },
    { kind: StructureKind.ImportDeclaration, namedImports: ['PROTOCOL'], moduleSpecifier: `./maps${importExt}` },
    {
      kind: StructureKind.ImportDeclaration,
      // CallerParams only where per-request `_meta` exists: an unused import would fail noUnusedLocals.
      namedImports: [
        'McpClientBase',
        ...(channelsOf(model).length > 0 ? ['ChannelClient', 'type PeerOptions'] : []),
        ...(model.features.perRequestMeta ? ['type CallerParams'] : []),
        'type McpClientOptions',
        'type RequestOptions',
        'type Transport',
        ...runtimeCheckImport(runtime),
      ],
      moduleSpecifier: runtime.core,
    },
    ...runtimeCheck(runtime, 'client.ts'),
  ];
}

export function emitClient(model: ProtocolModel, importExt: string, runtime: RuntimeRef): string {
  const statements: (StatementStructures | string)[] = [
    ...clientImports(model, importExt, runtime),
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: 'ClientCalls',
      docs: [
        'Requests as the client calls them: params the client fills in itself (per-request `_meta`, input responses) are optional, and results are final.',
      ],
      type: callsType(model),
    },
    clientClass(model),
    {
      kind: StructureKind.Function,
      isExported: true,
      name: 'createClient',
      docs: ['Create a client on a transport (stdio, Streamable HTTP, in-memory, or any SDK-compatible Transport).'],
      parameters: [
        { name: 'transport', type: 'Transport' },
        { name: 'options', type: optionsType(model) },
      ],
      returnType: 'McpClient',
      statements: ['return new McpClient(transport, options);'],
    },
    ...channelClientClasses(model),
  ];
  return printFile('client.ts', statements);
}
