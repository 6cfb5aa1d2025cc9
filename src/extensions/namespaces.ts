/**
 * MCP's own method namespaces, and which of them an extension may use: a method of the target version's
 * namespaces only in a sub-namespace an official extension declares it owns (`"namespaces"`, e.g.
 * SEP-2640's `resources/directory/`), where the target defines no method of its own.
 */
import { InputError } from '../errors.js';
import { pointer } from '../load/pointer.js';
import type { ExtensionSpec } from './types.js';

/** MCP's own method namespaces (`x/` prefixes) and bare method names, closed to vendor extensions. */
export const MCP_NAMESPACES: readonly string[] = [
  'tools/',
  'resources/',
  'prompts/',
  'notifications/',
  'sampling/',
  'roots/',
  'logging/',
  'completion/',
  'elicitation/',
  'tasks/',
  'server/',
  'subscriptions/',
  'initialize',
  'ping',
];

/** The MCP namespace (`tools/`, `ping`, ...) a method falls in, or null. */
export function mcpNamespaceOf(method: string): string | null {
  const lower = method.toLowerCase();
  for (const ns of MCP_NAMESPACES) {
    if (ns.endsWith('/') ? lower.startsWith(ns) : lower === ns || lower.startsWith(ns + '/')) return ns;
  }
  return null;
}

/**
 * The namespace a method lives in: its first segment (`tasks/get` → `tasks/`), or for notifications the
 * first two (`notifications/tasks/status` → `notifications/tasks/`), since every version defines some
 * `notifications/…` and an extension may still own a sub-namespace of it. A bare name is its own
 * namespace (`ping`). Lower-cased: MCP never distinguishes namespaces by case.
 */
export function namespaceOf(method: string): string {
  const segments = method.toLowerCase().split('/');
  if (segments.length === 1) return method.toLowerCase();
  const depth = segments[0] === 'notifications' ? 2 : 1;
  return segments.slice(0, depth).join('/') + '/';
}

/** The namespaces the methods of one target define (see namespaceOf). */
export function namespacesOf(methods: Iterable<string>): Set<string> {
  const namespaces = new Set<string>();
  for (const m of methods) namespaces.add(namespaceOf(m));
  return namespaces;
}

/**
 * A method in a namespace the target defines: only in a sub-namespace the (official) file declares it owns
 * (`"namespaces": ["resources/directory/"]`), and only while the target has no method of its own there.
 */
export function checkOwnedNamespace(
  spec: ExtensionSpec,
  m: ExtensionSpec['methods'][number],
  namespace: string,
  known: ReadonlySet<string>,
  where: string,
): void {
  const lower = m.method.toLowerCase();
  const owned = spec.namespaces.find((ns) => lower.startsWith(ns.toLowerCase()));
  if (owned === undefined) {
    throw new InputError(
      spec.file,
      m.pointer,
      `method "${m.method}" is in the namespace "${namespace}", which ${where} defines`,
      spec.official ? 'an official extension may declare a sub-namespace it owns in "namespaces"' : undefined,
    );
  }
  const taken = [...known].find((k) => k.toLowerCase().startsWith(owned.toLowerCase()));
  if (taken !== undefined) {
    throw new InputError(
      spec.file,
      m.pointer,
      `method "${m.method}" is in "${owned}", where ${where} defines "${taken}" itself`,
    );
  }
}

/** `namespaces` is for official extensions, and names sub-namespaces of MCP's own. */
export function checkNamespaces(spec: ExtensionSpec): void {
  if (spec.namespaces.length > 0 && !spec.official) {
    throw new InputError(
      spec.file,
      pointer('namespaces'),
      '"namespaces" is for official MCP extensions ("official": true); a vendor names its methods under its own prefix',
    );
  }
  spec.namespaces.forEach((ns, i) => {
    if (mcpNamespaceOf(ns) === null) {
      throw new InputError(
        spec.file,
        pointer('namespaces', i),
        `"${ns}" is not inside one of MCP's namespaces: a method there needs no declaration`,
      );
    }
  });
}
