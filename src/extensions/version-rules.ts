/**
 * Rules that depend on what the target version can carry, checked per target (see ExtensionCheckContext):
 * who may send a request (`"direction": "input"` needs input requests; a server→client request needs a
 * target that has them), and that params are objects (the runtime, like JSON-RPC by name, sends and
 * reads params as objects only). Each violation is an InputError(file, pointer, reason).
 */
import { InputError } from '../errors.js';
import { unescapePointerToken } from '../load/pointer.js';
import { isObject, type JsonSchema } from '../load/schema-types.js';
import { FILE_REF, LOCAL_REF, resolveSibling } from './refs.js';
import type { ExtensionMethod, ExtensionSpec } from './types.js';

export interface VersionRuleContext {
  /** The target version, for messages. */
  version?: string | undefined;
  /** Whether the target has embedded input requests (InputRequiredResult); unknown when not set. */
  inputRequests?: boolean | undefined;
  /** Whether the target defines CacheableResult (the cache hints a `cacheable` result gets); unknown when not set. */
  cacheableResults?: boolean | undefined;
  /**
   * Whether the target has server→client requests of its own (2026-07-28 has none: a stateless server
   * has no stream to send one on); unknown when not set.
   */
  serverRequests?: boolean | undefined;
}

function targetName(context: VersionRuleContext): string {
  return context.version ? `MCP ${context.version}` : 'the target schema';
}

/** Every per-version rule for one extension, in the order its methods are listed. */
export function checkVersionRules(
  spec: ExtensionSpec,
  context: VersionRuleContext,
  files: ReadonlyMap<string, ExtensionSpec>,
): void {
  for (const m of spec.methods) {
    checkInputDirection(spec, m, context);
    checkServerRequest(spec, m, context);
    checkObjectParams(spec, m, files);
    checkResultType(spec, m, context);
    checkCacheHints(spec, m, context);
  }
}

/**
 * A `cacheable` method's result gets the protocol's cache hints (CacheableResult's `cacheScope` and `ttlMs`,
 * 2026-07-28 on), which the runtime fills in when a handler leaves them out: a result that declares either of
 * them itself would have its own meaning overridden silently.
 */
function checkCacheHints(spec: ExtensionSpec, m: ExtensionMethod, context: VersionRuleContext): void {
  if (!m.cacheable || context.cacheableResults !== true) return;
  if (!isObject(m.result) || !isObject(m.result.properties)) return;
  for (const hint of ['cacheScope', 'ttlMs']) {
    if (!Object.hasOwn(m.result.properties, hint)) continue;
    throw new InputError(
      spec.file,
      `${m.pointer}/result/properties/${hint}`,
      `the result of ${m.method} declares ${hint}: in ${targetName(context)} a "cacheable" result's cacheScope and ttlMs are the protocol's (CacheableResult), which the runtime fills in`,
      'remove the property (the result gets the protocol\'s), or remove "cacheable" to keep your own',
    );
  }
}

/**
 * Where results carry the protocol's `resultType` (versions with input requests: "complete", "input_required",
 * "task"), a result cannot declare it as anything but a string: the runtime sets it, and would override the
 * extension's type silently.
 */
function checkResultType(spec: ExtensionSpec, m: ExtensionMethod, context: VersionRuleContext): void {
  if (context.inputRequests !== true || !isObject(m.result) || !isObject(m.result.properties)) return;
  const declared = m.result.properties['resultType'];
  const types = isObject(declared) ? typesOf(declared) : null;
  if (types === null || types.includes('string')) return;
  throw new InputError(
    spec.file,
    `${m.pointer}/result/properties/resultType`,
    `the result of ${m.method} declares resultType as ${types.map((t) => JSON.stringify(t)).join(' or ')}: in ${targetName(context)} resultType is the protocol's string ("complete", "input_required", "task")`,
    'rename the property; the runtime sets resultType itself',
  );
}

/** `"direction": "input"` is an embedded input request: requests only, and only where the target has them. */
function checkInputDirection(spec: ExtensionSpec, m: ExtensionMethod, context: VersionRuleContext): void {
  if (!m.directions.includes('input')) return;
  if (m.kind !== 'request') {
    throw new InputError(spec.file, `${m.pointer}/direction`, 'direction "input" is for requests only');
  }
  if (context.inputRequests === false) {
    throw new InputError(
      spec.file,
      `${m.pointer}/direction`,
      `direction "input" needs input requests (InputRequiredResult), which ${targetName(context)} does not have`,
    );
  }
}

/**
 * A server→client request where the target has none: it would compile, work over stdio, and fail over
 * Streamable HTTP. An extension with a channel of its own is exempt: its methods flow over that channel.
 */
function checkServerRequest(spec: ExtensionSpec, m: ExtensionMethod, context: VersionRuleContext): void {
  if (m.kind !== 'request' || context.serverRequests !== false || spec.channel !== null) return;
  if (!m.directions.includes('server->client')) return;
  // A "both" request is one the client sends too: that half is what this version keeps.
  const hint = m.directions.includes('client->server')
    ? 'declare it "direction": "client->server" (the client sends it, the server answers), or leave this version out of "targets"'
    : 'declare it "direction": "input" (the server asks for it inside an InputRequiredResult), or leave this version out of "targets"';
  throw new InputError(
    spec.file,
    `${m.pointer}/direction`,
    `${targetName(context)} has no server->client requests (a server answers requests, it sends none)`,
    hint,
  );
}

/** The first `anyOf`/`oneOf` branch that declares a type other than an object (`"array"`), or undefined. */
function otherThanObject(schema: JsonSchema): string | undefined {
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    for (const [i, b] of branches.entries()) {
      const types = isObject(b) ? typesOf(b) : null;
      const other = types?.find((t) => t !== 'object');
      if (other !== undefined) return `${JSON.stringify(other)} (${keyword}[${i}])`;
    }
  }
  return undefined;
}

/** The JSON types a `type` keyword allows, or null when it does not say. */
function typesOf(schema: JsonSchema): string[] | null {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : null;
}

/**
 * Params declared as an array, a string or any other non-object type (directly or through the file's
 * own `$ref`s) cannot be sent: the runtime refuses non-object params, as MCP's own messages never have them.
 */
function checkObjectParams(spec: ExtensionSpec, m: ExtensionMethod, files: ReadonlyMap<string, ExtensionSpec>): void {
  let current: { spec: ExtensionSpec; schema: unknown; via: string | null } = { spec, schema: m.params, via: null };
  const seen = new Set<unknown>();
  while (isObject(current.schema) && !seen.has(current.schema)) {
    seen.add(current.schema);
    const types = typesOf(current.schema);
    const branch = otherThanObject(current.schema);
    if (types !== null && types.includes('object') && types.length > 1) {
      throw new InputError(
        spec.file,
        `${m.pointer}/params`,
        `the params of ${m.method} may be ${types.map((t) => JSON.stringify(t)).join(' or ')}${current.via ? ` (through ${current.via})` : ''}: params are an object, never anything else`,
        'drop the other types: absent params are declared by leaving "params" out of "required", not with "null"',
      );
    }
    if (branch !== undefined) {
      throw new InputError(
        spec.file,
        `${m.pointer}/params`,
        `the params of ${m.method} may be ${branch}${current.via ? ` (through ${current.via})` : ''}: params are an object, never anything else`,
        'keep only object branches, or put the other shapes in a property',
      );
    }
    if (types !== null && !types.includes('object')) {
      throw new InputError(
        spec.file,
        `${m.pointer}/params`,
        `the params of ${m.method} are ${types.map((t) => JSON.stringify(t)).join(' or ')}${current.via ? ` (through ${current.via})` : ''}, not an object`,
        'params are always an object: put the value in a property, e.g. {"type": "object", "properties": {"items": …}}',
      );
    }
    const ref = typeof current.schema.$ref === 'string' ? current.schema.$ref : undefined;
    const local = ref === undefined ? null : LOCAL_REF.exec(ref);
    const other = ref === undefined ? null : FILE_REF.exec(ref);
    const owner = local
      ? current.spec
      : other
        ? files.get(resolveSibling(current.spec.file, other[1] ?? ''))
        : undefined;
    const name = unescapePointerToken((local ?? other)?.[local ? 1 : 2] ?? '');
    if (owner === undefined || ref === undefined || !Object.hasOwn(owner.definitions, name)) return;
    current = { spec: owner, schema: owner.definitions[name], via: ref };
  }
}
