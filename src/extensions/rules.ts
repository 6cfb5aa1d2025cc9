/**
 * Name rules for vendor extensions. Pure: no I/O. Every violation is an InputError(file, pointer,
 * reason) with a stable reason (tests assert the exact text).
 *
 * Syntax (documented decision):
 * - prefix: one label (`acme`) or dot-separated labels (`com.acme`); a label starts with a letter,
 *   ends with a letter or digit, and has only letters, digits and hyphens: `LABEL_RE`.
 * - name (after the first `/`): segments separated by `.` or `/`; a segment is letters, digits, `_`
 *   and `-`, starting with a letter, digit or `_`; no empty segment (no leading, trailing or doubled
 *   separator): `NAME_RE`. So `acme/jobs.start`, `acme/jobs/start`, `com.acme/v2_jobs-list` are fine.
 * - method = `<prefix>/<name>`, split at the first `/`; the extension id has the same shape.
 *
 * Reserved: a prefix whose second label is `modelcontextprotocol` or `mcp` (`io.modelcontextprotocol`,
 * `dev.mcp`), compared case-insensitively, belongs to official MCP extensions (`"official": true`), and
 * `"official": true` requires such a prefix. An extension id may not start with one of MCP's namespace
 * words (`MCP_NAMESPACES`, a fixed list, so the answer never depends on which schemas are at hand).
 *
 * Methods (see checkMethods): under the extension's own prefix, or — official extensions only — in a
 * namespace the TARGET version does not define, or in a sub-namespace of one it does that the file
 * declares it owns (`"namespaces"`, namespaces.ts) and the target leaves empty. Collisions are checked against the target schema's own
 * methods only, so the same files give the same answer in every environment.
 *
 * Definitions are merged into the model's definitions unprefixed, so their names must be TS type
 * names and must not collide with the MCP definitions of the target version nor with another
 * extension's definitions (vendor-prefixed PascalCase, e.g. `AcmeJob`, avoids both).
 *
 * `$ref` inside any schema of the file: `mcp:<Name>` (an MCP definition of the target version),
 * `#/definitions/<Name>` (this file) or `<file>#/definitions/<Name>` (another extension file, relative
 * to this one, which the loader then loads too); anything else is rejected.
 */
import { InputError } from '../errors.js';
import { isObject, type JsonSchema } from '../load/schema-types.js';
import type { ExtensionSpec } from './types.js';
import { pointer, unescapePointerToken } from '../load/pointer.js';
import { generatedNameProblem, isIdentifierText } from '../load/type-names.js';
import { forEachSubschema } from '../load/schema-keywords.js';
import { checkShapes } from '../load/schema-shapes.js';
import { FILE_REF, LOCAL_REF, resolveSibling } from './refs.js';
import { checkNamespaces, checkOwnedNamespace, mcpNamespaceOf, namespacesOf, namespaceOf } from './namespaces.js';
import { checkVersionRules, type VersionRuleContext } from './version-rules.js';

export { FILE_REF, resolveSibling } from './refs.js';
export { MCP_NAMESPACES, mcpNamespaceOf, namespaceOf, namespacesOf } from './namespaces.js';

export interface ExtensionCheckContext extends VersionRuleContext {
  /**
   * The methods of the target schema (the one being generated), never a union over versions, so the
   * answer depends only on the inputs. Without it, method names are not checked (loading checks what
   * holds for every target; merging into one target checks the methods).
   */
  knownMcpMethods?: Set<string>;
  /** MCP definition names of the target version; without it, `mcp:` refs and definition collisions are not checked. */
  mcpDefinitionNames?: Set<string>;
  /** The target version: when set, specs whose `targets` exclude it are skipped, and messages name it. */
  version?: string;
  /** Known spec versions: when set, every entry of `targets` must be one of them. */
  knownVersions?: Set<string>;
}

/** Second labels of prefixes reserved for official MCP extensions. */
export const RESERVED_SECOND_LABELS: readonly string[] = ['modelcontextprotocol', 'mcp'];

export const LABEL_RE = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
export const NAME_RE = /^[A-Za-z0-9_][A-Za-z0-9_-]*(?:[./][A-Za-z0-9_][A-Za-z0-9_-]*)*$/;

/** True when `prefix` is one label or dot-separated labels as described above. */
export function isValidPrefix(prefix: string): boolean {
  return prefix.length > 0 && prefix.split('.').every((label) => LABEL_RE.test(label));
}

/** Split `<prefix>/<name>` at the first `/`; null when there is no `/`. */
export function splitName(value: string): { prefix: string; name: string } | null {
  const slash = value.indexOf('/');
  return slash === -1 ? null : { prefix: value.slice(0, slash), name: value.slice(slash + 1) };
}

/** True for prefixes reserved for official MCP extensions (`io.modelcontextprotocol`, `dev.mcp`, ...). */
export function isReservedPrefix(prefix: string): boolean {
  const labels = prefix.toLowerCase().split('.');
  const second = labels[1];
  return second !== undefined && RESERVED_SECOND_LABELS.includes(second);
}

const LABEL_RULE =
  'each dot-separated label must start with a letter, end with a letter or digit, and contain only letters, digits and hyphens';
const NAME_RULE = 'it must be segments of letters, digits, "_" and "-" (not starting with "-") separated by "." or "/"';

function checkNameSyntax(file: string, ptr: string, what: string, value: string): { prefix: string; name: string } {
  const parts = splitName(value);
  if (!parts) throw new InputError(file, ptr, `${what} "${value}" must have the form "<prefix>/<name>"`);
  if (!isValidPrefix(parts.prefix)) {
    throw new InputError(file, ptr, `${what} "${value}" has an invalid prefix "${parts.prefix}": ${LABEL_RULE}`);
  }
  if (!NAME_RE.test(parts.name)) {
    throw new InputError(file, ptr, `${what} "${value}" has an invalid name "${parts.name}": ${NAME_RULE}`);
  }
  return parts;
}

function overlaps(a: ExtensionSpec, b: ExtensionSpec): boolean {
  const [left, right] = [a.targets, b.targets];
  if (left === null || right === null) return true;
  return left.some((v) => right.includes(v));
}

function checkId(spec: ExtensionSpec): void {
  const ptr = pointer('extension');
  const { prefix } = checkNameSyntax(spec.file, ptr, 'extension id', spec.id);
  if (mcpNamespaceOf(spec.id) !== null) {
    throw new InputError(spec.file, ptr, `extension id "${spec.id}" uses the MCP namespace "${prefix}"`);
  }
  if (isReservedPrefix(prefix) && !spec.official) {
    throw new InputError(
      spec.file,
      ptr,
      `extension id "${spec.id}" uses the prefix "${prefix}", which is reserved for official MCP extensions`,
      'official MCP extensions set "official": true; vendors use their own prefix, e.g. "com.example/name"',
    );
  }
  if (spec.official && !isReservedPrefix(prefix)) {
    throw new InputError(
      spec.file,
      pointer('official'),
      `"official": true requires a reserved MCP prefix (second label "modelcontextprotocol" or "mcp"), not "${prefix}"`,
    );
  }
}

function checkTargets(spec: ExtensionSpec, context: ExtensionCheckContext): void {
  const known = context.knownVersions;
  if (!known || spec.targets === null) return;
  spec.targets.forEach((version, i) => {
    if (!known.has(version)) {
      throw new InputError(spec.file, pointer('targets', i), `unknown MCP version "${version}"`);
    }
  });
}

function targetName(context: ExtensionCheckContext): string {
  return context.version ? `MCP ${context.version}` : 'the target schema';
}

/**
 * Method names (our policy; SEP-2133 constrains extension identifiers only): a method lives under the
 * extension's own prefix, or, for official extensions, in a namespace the target version does not
 * define (the tasks extension's `tasks/…` and `notifications/tasks` on 2026-07-28). Nothing may take a
 * method or a namespace of the target version.
 */
function checkMethods(spec: ExtensionSpec, context: ExtensionCheckContext): void {
  const known = context.knownMcpMethods;
  // Checked once per target, so the first message is the same whichever check runs first.
  if (!known) return;
  const namespaces = namespacesOf(known);
  for (const m of spec.methods) {
    if (known.has(m.method)) {
      throw new InputError(
        spec.file,
        m.pointer,
        `method "${m.method}" collides with the MCP method of the same name in ${targetName(context)}`,
      );
    }
    const { prefix } = checkNameSyntax(spec.file, m.pointer, 'method', m.method);
    // A dotted prefix is a vendor's (MCP namespaces are single words): never open to another extension.
    if (prefix !== spec.prefix && (!spec.official || prefix.includes('.'))) {
      throw new InputError(
        spec.file,
        m.pointer,
        `method "${m.method}" has the prefix "${prefix}" but the extension "${spec.id}" has the prefix "${spec.prefix}"`,
      );
    }
    const namespace = namespaceOf(m.method);
    if (namespaces.has(namespace)) checkOwnedNamespace(spec, m, namespace, known, targetName(context));
  }
}

function checkDefinitionNames(spec: ExtensionSpec, context: ExtensionCheckContext): void {
  for (const name of Object.keys(spec.definitions)) {
    const ptr = pointer('definitions', name);
    const problem = generatedNameProblem(name);
    if (problem !== undefined) throw new InputError(spec.file, ptr, problem);
    if (context.mcpDefinitionNames?.has(name)) {
      throw new InputError(
        spec.file,
        ptr,
        `definition "${name}" collides with the MCP definition of the same name${context.version ? ` in ${context.version}` : ''}`,
        `rename it (e.g. with the vendor name in front), or use {"$ref": "mcp:${name}"} to reuse MCP's`,
      );
    }
  }
}

/** Calls `visit` for every `$ref` string in a schema (schema keywords only, not inside const/enum/default/examples). */
function walkRefs(schema: unknown, ptr: string, visit: (ref: string, ptr: string) => void): void {
  if (!isObject(schema)) return;
  if (typeof schema.$ref === 'string') visit(schema.$ref, `${ptr}/$ref`);
  forEachSubschema(schema, (sub, tokens) => walkRefs(sub, ptr + pointer(...tokens), visit), { definitions: true });
}

/** Every schema of a spec with its pointer, in file order of sections (methods, definitions, settings). */
function schemasOf(spec: ExtensionSpec): [JsonSchema, string][] {
  const out: [JsonSchema, string][] = [];
  for (const m of spec.methods) {
    if (m.params) out.push([m.params, `${m.pointer}/params`]);
    if (m.result) out.push([m.result, `${m.pointer}/result`]);
  }
  for (const [name, schema] of Object.entries(spec.definitions)) out.push([schema, pointer('definitions', name)]);
  if (spec.settings) out.push([spec.settings, pointer('settings')]);
  for (const a of spec.augment.results) out.push([{ $ref: a.ref }, a.pointer]);
  for (const a of [...spec.augment.properties, ...spec.augment.meta]) out.push([a.schema, a.pointer]);
  return out;
}

const MCP_REF = /^mcp:(.*)$/;

/**
 * The files the `<file>#/definitions/<Name>` refs under a value name, as written, sorted. Iterative: a file
 * nested 20,000 levels deep is for the loader to refuse with its pointer, not a stack overflow here.
 */
export function crossFileRefsOf(value: unknown): string[] {
  const found = new Set<string>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) for (const item of node as unknown[]) stack.push(item);
    else if (isObject(node))
      for (const [key, child] of Object.entries(node)) {
        const [, file] = key === '$ref' && typeof child === 'string' ? (FILE_REF.exec(child) ?? []) : [];
        if (file !== undefined) found.add(file);
        else stack.push(child);
      }
  }
  return [...found].sort();
}

function checkRefs(spec: ExtensionSpec, context: ExtensionCheckContext, files: Map<string, ExtensionSpec>): void {
  for (const [schema, at] of schemasOf(spec)) {
    walkRefs(schema, at, (ref, ptr) => {
      const mcp = MCP_REF.exec(ref);
      if (mcp) {
        const [, name = ''] = mcp;
        if (!isIdentifierText(name)) {
          throw new InputError(spec.file, ptr, `"${ref}" is not a valid MCP reference: use "mcp:<DefinitionName>"`);
        }
        if (context.mcpDefinitionNames && !context.mcpDefinitionNames.has(name)) {
          throw new InputError(
            spec.file,
            ptr,
            `"${ref}" refers to "${name}", which is not an MCP definition${context.version ? ` in ${context.version}` : ' of the target version'}`,
          );
        }
        return;
      }
      const local = LOCAL_REF.exec(ref);
      if (local) {
        const name = unescapePointerToken(local[1] ?? '');
        if (!Object.prototype.hasOwnProperty.call(spec.definitions, name)) {
          throw new InputError(spec.file, ptr, `"${ref}" does not resolve: no definition "${name}" in this file`);
        }
        return;
      }
      const other = FILE_REF.exec(ref);
      if (other) {
        const [, relative = '', token = ''] = other;
        const file = resolveSibling(spec.file, relative);
        const name = unescapePointerToken(token);
        const target = files.get(file);
        if (!target) {
          throw new InputError(
            spec.file,
            ptr,
            `"${ref}" refers to ${file}, which is not an extension enabled for ${context.version ? `MCP ${context.version}` : 'this target'}`,
          );
        }
        if (!Object.prototype.hasOwnProperty.call(target.definitions, name)) {
          throw new InputError(spec.file, ptr, `"${ref}" does not resolve: no definition "${name}" in ${file}`);
        }
        return;
      }
      throw new InputError(
        spec.file,
        ptr,
        `unsupported $ref "${ref}": use "mcp:<DefinitionName>", "#/definitions/<Name>" or "<file>#/definitions/<Name>"`,
      );
    });
  }
}

/** Keywords through which a schema IS its subschema (a type alias or union member, not a property). */
const ALIAS_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf'];
const ALIAS_KEYWORDS = ['not', 'if', 'then', 'else'];

/** The definitions a schema stands for directly: `$ref`s at its top level or inside allOf/anyOf/oneOf/… */
function aliasRefs(schema: unknown, ptr: string, out: [ref: string, ptr: string][] = []): [string, string][] {
  const stack: [unknown, string][] = [[schema, ptr]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [node, at] = entry;
    if (!isObject(node)) continue;
    if (typeof node.$ref === 'string') out.push([node.$ref, `${at}/$ref`]);
    for (const keyword of ALIAS_ARRAY_KEYWORDS) {
      const list = node[keyword];
      if (Array.isArray(list)) list.forEach((item, i) => stack.push([item, at + pointer(keyword, i)]));
    }
    for (const keyword of ALIAS_KEYWORDS)
      if (isObject(node[keyword])) stack.push([node[keyword], at + pointer(keyword)]);
  }
  return out;
}

/**
 * A definition that is, through `$ref`s alone, itself (`A = {$ref: A}`, `A = B, B = A`, `A = anyOf[A, …]`)
 * describes no value and sends every emitter into endless recursion. Recursion through a property or
 * an array item (a tree) is fine and not reported.
 */
function checkAliasCycles(spec: ExtensionSpec, files: Map<string, ExtensionSpec>): void {
  type Node = { spec: ExtensionSpec; name: string };
  const key = (n: Node) => `${n.spec.file}#${n.name}`;
  const target = (from: ExtensionSpec, ref: string): Node | null => {
    const local = LOCAL_REF.exec(ref);
    if (local) return { spec: from, name: unescapePointerToken(local[1] ?? '') };
    const [, relative, token = ''] = FILE_REF.exec(ref) ?? [];
    const file = relative === undefined ? undefined : files.get(resolveSibling(from.file, relative));
    return file ? { spec: file, name: unescapePointerToken(token) } : null;
  };
  const done = new Set<string>();
  for (const start of Object.keys(spec.definitions)) {
    // Depth-first over alias edges, iteratively; `path` is the chain from `start`.
    const path: { node: Node; edges: [string, string][]; next: number }[] = [];
    const onPath = new Set<string>();
    const push = (node: Node) => {
      const schema = Object.hasOwn(node.spec.definitions, node.name) ? node.spec.definitions[node.name] : undefined;
      path.push({ node, edges: aliasRefs(schema, pointer('definitions', node.name)), next: 0 });
      onPath.add(key(node));
    };
    push({ spec, name: start });
    for (let top = path.at(-1); top !== undefined; top = path.at(-1)) {
      const edge = top.edges[top.next++];
      if (edge === undefined) {
        done.add(key(top.node));
        onPath.delete(key(top.node));
        path.pop();
        continue;
      }
      const [ref, at] = edge;
      const next = target(top.node.spec, ref);
      if (!next || done.has(key(next))) continue;
      if (onPath.has(key(next))) {
        const from = path.findIndex((p) => key(p.node) === key(next));
        const names = [...path.slice(from).map((p) => p.node.name), next.name];
        throw new InputError(
          top.node.spec.file,
          at,
          `"$ref" cycle ${names.join(' → ')}: a definition cannot be only itself (recursion must go through a property or an array item)`,
        );
      }
      push(next);
    }
  }
}

/**
 * Check the name rules of a set of extensions (in the order given: for duplicates, the later file is
 * the one reported). Throws the first violation as InputError(file, pointer, reason).
 */
export function checkExtensions(specs: ExtensionSpec[], context: ExtensionCheckContext): void {
  const { version } = context;
  const active = version === undefined ? specs : specs.filter((s) => s.targets === null || s.targets.includes(version));
  const seenIds: ExtensionSpec[] = [];
  const methodOwners = new Map<string, ExtensionSpec[]>();
  const definitionOwners = new Map<string, ExtensionSpec[]>();
  const files = new Map(active.map((spec) => [spec.file, spec]));
  for (const spec of active) {
    checkId(spec);
    checkNamespaces(spec);
    checkTargets(spec, context);
    checkMethods(spec, context);
    checkDefinitionNames(spec, context);
    for (const [schema, at] of schemasOf(spec)) checkShapes(schema, at, spec.file);
    checkRefs(spec, context, files);
    checkAliasCycles(spec, files);
    checkVersionRules(spec, context, files);

    const sameId = seenIds.find((other) => other.id === spec.id && overlaps(other, spec));
    if (sameId) {
      throw new InputError(
        spec.file,
        pointer('extension'),
        `extension "${spec.id}" is already declared in ${sameId.file}`,
      );
    }
    seenIds.push(spec);
    for (const m of spec.methods) {
      const owner = (methodOwners.get(m.method) ?? []).find((other) => overlaps(other, spec));
      if (owner) {
        throw new InputError(
          spec.file,
          m.pointer,
          `method "${m.method}" is already declared by extension "${owner.id}" in ${owner.file}`,
        );
      }
      methodOwners.set(m.method, [...(methodOwners.get(m.method) ?? []), spec]);
    }
    for (const name of Object.keys(spec.definitions)) {
      const owner = (definitionOwners.get(name) ?? []).find((other) => overlaps(other, spec));
      if (owner) {
        throw new InputError(
          spec.file,
          pointer('definitions', name),
          `definition "${name}" is already declared by extension "${owner.id}" in ${owner.file}`,
        );
      }
      definitionOwners.set(name, [...(definitionOwners.get(name) ?? []), spec]);
    }
  }
}
