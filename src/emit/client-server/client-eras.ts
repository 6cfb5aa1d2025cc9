/**
 * A client of the metadata-header era (2026-07-28 on) that fell back to a legacy server speaks that
 * server's version, which still has calls the modern one removed (`ping`, `logging/setLevel`,
 * `resources/subscribe` and `unsubscribe`). The runtime sends them; this gives them types, a type per era:
 * `connected(client)` returns `ModernMcpClient | LegacyMcpClient`, narrowed by `era`, and only the legacy
 * one has those calls. Their shapes are the legacy schemas' (the modern schema no longer defines them).
 */
import type { ProtocolModel } from '../../model/types.js';
import type { LegacyCall } from './legacy-calls.js';
import type { Statement } from '../shared/ts-project.js';
import { functionDecl, typeAlias } from '../shared/ts-structures.js';
import { arrow, call, objectLiteral, objectType, str, type Param, type TypeMember } from '../shared/ts-text.js';

const paramsOf = (model: ProtocolModel, c: LegacyCall): Param[] => [
  { name: 'params', type: c.params(model), optional: !c.paramsRequired },
  { name: 'options', type: 'RequestOptions', optional: true },
];
const RESULT = 'Promise<T.Result>';

/** `LegacyCalls`, `ModernMcpClient`, `LegacyMcpClient`, `ConnectedMcpClient`. */
export function eraTypes(model: ProtocolModel, calls: readonly LegacyCall[]): Statement[] {
  if (calls.length === 0) return [];
  const groups = new Map<string, TypeMember[]>();
  const members: TypeMember[] = [];
  for (const c of calls) {
    const type = `(${paramsOf(model, c)
      .map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type}`)
      .join(', ')}) => ${RESULT}`;
    const [first, second] = c.path;
    if (second === undefined) members.push({ name: first, type, doc: c.doc });
    else groups.set(first, [...(groups.get(first) ?? []), { name: second, type, doc: c.doc }]);
  }
  for (const [name, group] of groups) members.push({ name, type: objectType(group, true) });
  return [
    typeAlias(
      'LegacyCalls',
      objectType(members, true),
      'The calls a legacy server still has that this version removed: typed on `LegacyMcpClient` only.',
    ),
    typeAlias('ModernMcpClient', "McpClient & { readonly era: 'modern' }", 'A client connected to a modern server.'),
    typeAlias(
      'LegacyMcpClient',
      "McpClient & LegacyCalls & { readonly era: 'legacy' }",
      "A client that fell back to a legacy server: it speaks that server's version, with its calls.",
    ),
    typeAlias(
      'ConnectedMcpClient',
      'ModernMcpClient | LegacyMcpClient',
      "What `connected(client)` returns: narrow it by `era` (`if (c.era === 'legacy') await c.ping();`).",
    ),
  ];
}

/**
 * `connected(client)`: the same client, typed by the era connect() found; a legacy one gets the legacy calls'
 * stubs (groups the class has, such as `resources`, gain members). A function beside the class, not a method:
 * a bundle that never calls it leaves it out (a browser client pays nothing for it).
 */
export function connectedFunction(
  model: ProtocolModel,
  calls: readonly LegacyCall[],
  classGroups: ReadonlySet<string>,
): Statement {
  const stub = (c: LegacyCall) => arrow(paramsOf(model, c), RESULT, call('send', str(c.method), 'params', 'options'));
  const groups = new Map<string, { name: string; value: string }[]>();
  const props: { name: string; value: string }[] = [];
  for (const c of calls) {
    const [first, second] = c.path;
    if (second === undefined) props.push({ name: first, value: stub(c) });
    else groups.set(first, [...(groups.get(first) ?? []), { name: second, value: stub(c) }]);
  }
  for (const [name, group] of groups) {
    const literal = objectLiteral(group, true);
    props.push({ name, value: classGroups.has(name) ? call('Object.assign', `client.${name}`, literal) : literal });
  }
  return functionDecl({
    name: 'connected',
    doc: "After `connect()`: the client typed by the server's era. A legacy server (the client fell back) adds the calls its version still has (`ping()`, `logging.setLevel()`, `resources.subscribe()`); narrow by `era`.",
    params: [{ name: 'client', type: 'McpClient' }],
    returns: 'ConnectedMcpClient',
    body: [
      // A modern client is `modern` from construction until connect() falls back (the runtime sets `era`).
      "if (client.era !== 'legacy') return Object.assign(client, { era: 'modern' as const });",
      // The legacy version has these methods: the generic request sends them (the modern tables do not list them).
      'const send = client.request.bind(client) as (method: string, params: unknown, options?: RequestOptions) => Promise<T.Result>;',
      `const calls: LegacyCalls = ${objectLiteral(props, true)};`,
      "return Object.assign(client, { era: 'legacy' as const }, calls);",
    ],
  });
}
