/**
 * Capabilities a peer advertises: what it derives from its handlers and from the extensions it was
 * generated with, merged with what the user passes (never replaced by it).
 *
 * Hand-written runtime copied into generated output.
 */
import { isPlainObject } from '../core/jsonrpc.js';
import type { ProtocolDescription, ServerProtocolDescription } from './protocol.js';
import type { CompiledValidator } from './validation.js';

type JsonObject = { [key: string]: unknown };

/**
 * `derived` with `given` laid over it one level deep: a capability both name is merged member by member
 * (the user's `extensions: { "com.acme/x": { … } }` adds to the derived extensions, and its settings win
 * for that id); any other value the user gives replaces the derived one.
 */
export function mergeCapabilities(derived: JsonObject, given: object | undefined): JsonObject {
  const merged: JsonObject = { ...derived };
  for (const [name, value] of Object.entries(given ?? {})) {
    const base = merged[name];
    merged[name] = isPlainObject(base) && isPlainObject(value) ? { ...base, ...value } : value;
  }
  return merged;
}

/** Whether this version can carry the `extensions` capability (its schema's map, or one extensions add). */
export function hasExtensionsCapability(protocol: ProtocolDescription): boolean {
  return protocol.features.capabilityExtensions || protocol.facts.extensions !== undefined;
}

/** `caps` with `extensions: { <id>: {} }` for each id (none: unchanged). */
export function withExtensionIds(caps: JsonObject, ids: Iterable<string>): JsonObject {
  const entries = [...ids].map((id) => [id, {}] as const);
  return entries.length === 0 ? caps : { ...caps, extensions: Object.fromEntries(entries) };
}

/** The capabilities `version` has (a 2024-11-05 client is not told of `completions`, say). */
export function capabilitiesAt(
  protocol: ServerProtocolDescription,
  version: string,
  capabilities: JsonObject,
): JsonObject {
  const having = protocol.facts.capabilityVersions;
  return Object.fromEntries(
    Object.entries(capabilities).filter(([name]) => !Object.hasOwn(having, name) || having[name]?.includes(version)),
  );
}

/**
 * The client capabilities of one 2026-07-28 request, from its own `_meta` (`ctx.meta`) only: a request that
 * declares none has none, whatever earlier requests declared.
 */
export function requestCapabilities(
  protocol: ProtocolDescription,
  meta: JsonObject | undefined,
): JsonObject | undefined {
  const key = protocol.facts.metaKeys['clientCapabilities'];
  const capabilities = key === undefined ? undefined : meta?.[key];
  return isPlainObject(capabilities) ? capabilities : undefined;
}

/**
 * How a peer's own settings for an extension are checked: its compiled settings validator, or (output
 * generated without validators) the names its settings schema requires.
 */
export type SettingsCheck = CompiledValidator | readonly string[];

/**
 * Throws when a peer would advertise settings for an extension that its settings schema refuses (a peer
 * generated from the same file would refuse the connection with -32602): at construction, naming what to
 * set. `checks` holds the extensions generated in; one the capabilities do not advertise is not checked.
 */
export function checkExtensionSettings(
  capabilities: JsonObject,
  checks: Readonly<Record<string, SettingsCheck>>,
  peer: 'client' | 'server',
): void {
  const advertised = isPlainObject(capabilities['extensions']) ? capabilities['extensions'] : {};
  for (const [id, check] of Object.entries(checks)) {
    if (!Object.hasOwn(advertised, id)) continue;
    const problem = settingsProblem(advertised[id], check);
    if (problem === undefined) continue;
    const where = `capabilities.extensions[${JSON.stringify(id)}]${problem.path}`;
    throw new TypeError(
      `This ${peer} advertises the ${id} extension with settings its schema refuses: ${where} ${problem.text}; ${problem.fix ?? 'set'} ${where} in the ${peer}'s options`,
    );
  }
}

/** Where an extension's settings fail their check (a dotted path below them) and how, or undefined. */
function settingsProblem(
  settings: unknown,
  check: SettingsCheck,
): { path: string; text: string; fix?: string } | undefined {
  if (!isPlainObject(settings)) return { path: '', text: 'must be an object' };
  if (typeof check !== 'function') {
    const missing = check.find((name) => !Object.hasOwn(settings, name));
    return missing === undefined ? undefined : { path: `.${missing}`, text: 'is required' };
  }
  if (check(settings)) return undefined;
  const first = check.errors?.[0];
  const path = (first?.instancePath ?? '')
    .split('/')
    .slice(1)
    .map((token) => `.${token.replace(/~1/g, '/').replace(/~0/g, '~')}`)
    .join('');
  const name = first?.params['missingProperty'];
  if (typeof name === 'string') return { path: `${path}.${name}`, text: 'is required' };
  const extra = first?.params['additionalProperty'];
  if (typeof extra === 'string') return { path: `${path}.${extra}`, text: 'is not one of its settings', fix: 'remove' };
  return { path, text: first?.message ?? 'is invalid' };
}

/**
 * `caps` with, for each extension it advertises, the settings that offer the methods `handled` includes
 * (`resources/directory/read` handled: skills' `directoryRead: true`). The user's capabilities are laid over.
 */
export function withOfferedSettings(
  protocol: ProtocolDescription,
  caps: JsonObject,
  handled: readonly string[],
): JsonObject {
  const extensions = caps['extensions'];
  const rules = protocol.facts.extensionRules;
  if (!isPlainObject(extensions) || rules === undefined) return caps;
  const offered: JsonObject = { ...extensions };
  for (const [id, { settings }] of Object.entries(rules)) {
    if (!Object.hasOwn(offered, id)) continue;
    for (const [method, setting] of Object.entries(settings)) {
      if (handled.includes(method)) offered[id] = { ...(offered[id] as JsonObject), [setting]: true };
    }
  }
  return { ...caps, extensions: offered };
}

/**
 * Throws when a server advertises an extension (by a handler for one of its methods, or by its capabilities)
 * without a handler for each method the extension makes mandatory: at construction, naming the missing ones.
 */
export function checkMandatoryMethods(
  protocol: ProtocolDescription,
  capabilities: JsonObject,
  handled: readonly string[],
): void {
  const advertised = isPlainObject(capabilities['extensions']) ? capabilities['extensions'] : {};
  for (const [id, rules] of Object.entries(protocol.facts.extensionRules ?? {})) {
    const missing = rules.mandatory.filter((method) => !handled.includes(method));
    if (!Object.hasOwn(advertised, id) || missing.length === 0) continue;
    throw new TypeError(
      `createServer: a server advertising the ${id} extension must handle ${rules.mandatory.join(' and ')}; ` +
        `${missing.join(', ')} has no handler (give one, or drop the extension's other handlers)`,
    );
  }
}

/**
 * Why a client must not send `method` to this server: the method is offered only under a setting of an
 * extension, and the server's settings for it (`capabilities.extensions[id]`) do not say `true`.
 */
export function unofferedMethod(
  protocol: ProtocolDescription,
  serverCapabilities: JsonObject | undefined,
  method: string,
): string | undefined {
  for (const [id, rules] of Object.entries(protocol.facts.extensionRules ?? {})) {
    const setting = Object.hasOwn(rules.settings, method) ? rules.settings[method] : undefined;
    if (setting === undefined) continue;
    const extensions = serverCapabilities?.['extensions'];
    const settings = isPlainObject(extensions) ? extensions[id] : undefined;
    if (isPlainObject(settings) && settings[setting] === true) return undefined;
    return `${method}: the server does not offer it (its ${id} settings do not say ${setting}: true)`;
  }
  return undefined;
}
