/**
 * Names for params written inline in a message definition (before 2025-11-25 every method's params
 * are: `CallToolRequest.properties.params`). types.ts declares an alias `<Definition>Params` for each,
 * the name later versions give the same params, so maps, client and server signatures (and an editor's
 * hover) say `CallToolRequestParams` instead of `NonNullable<CallToolRequest["params"]>`; paramsType is
 * the params type those modules and the validators' declarations write.
 */
import { isObject } from '../../load/schema.js';
import type { MethodInfo, ProtocolModel } from '../../model/types.js';
import { ref } from '../shared/ts-text.js';
import { compareStrings } from '../../load/order.js';

/** Names the other generated modules export: an alias must not shadow one in index.ts. */
const RESERVED = new Set(['ClientCalls', 'McpServerHandlers', 'ServerContext']);

/** The alias for a method's inline params, or undefined when they are named already or the name is taken. */
export function inlineParamsAlias(m: MethodInfo, definitions: Readonly<Record<string, unknown>>): string | undefined {
  // Only params directly under the message definition (`#/$defs/<Definition>/properties/params`).
  if (m.params?.kind !== 'inline' || !m.params.direct) return undefined;
  const message = definitions[m.definition];
  const params = isObject(message) && isObject(message.properties) ? message.properties.params : undefined;
  if (!isObject(params)) return undefined;
  const name = `${m.definition}Params`;
  if (!/^[A-Za-z_$][\w$]*$/.test(name) || Object.hasOwn(definitions, name) || RESERVED.has(name)) return undefined;
  return name;
}

/** Every alias types.ts declares: name → the message definition whose params it names. */
export function inlineParamsAliases(
  methods: readonly MethodInfo[],
  definitions: Readonly<Record<string, unknown>>,
): Map<string, MethodInfo> {
  const aliases = new Map<string, MethodInfo>();
  for (const m of methods) {
    const name = inlineParamsAlias(m, definitions);
    if (name !== undefined && !aliases.has(name)) aliases.set(name, m);
  }
  return new Map([...aliases].sort(([a], [b]) => compareStrings(a, b)));
}

/**
 * The TypeScript type of a method's params, in a module that imports types.ts as the namespace `T`: by name
 * (inline params by the alias types.ts declares for them, above).
 */
export function paramsType(m: MethodInfo, model: Pick<ProtocolModel, 'definitions' | 'defsKeyword'>): string {
  if (m.params === null) return 'undefined';
  if (m.params.kind === 'definition') return `T.${m.params.name}`;
  const alias = inlineParamsAlias(m, model.definitions);
  return alias === undefined ? ref('NonNullable', `T.${m.definition}['params']`) : `T.${alias}`;
}
