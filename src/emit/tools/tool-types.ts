/**
 * The types of a tool surface (tool-surface.ts): one declaration per named schema, by json-schema-to-typescript
 * (`compileDeclaration`, as types.ts does), after the same normalisation (normalize.ts) and repairs as the
 * schema's definitions get. The same repaired schemas are what tool-validators.js compiles, so a value the
 * types accept validates.
 *
 * A tool's schema refers to its own `$defs` (`#/$defs/Item`), which are declared under their own names, or to
 * itself (`#`); any other pointer into it (`#/properties/a`, as zod-to-json-schema writes a reused schema) is
 * inlined first.
 *
 * They are the generated tool-types.ts, which imports nothing: tools.ts re-exports them; sdk-tools.ts and the
 * tool validators' and schemas' declarations import them without the typed client's modules.
 */
import { InputError } from '../../errors.js';
import { decodeFragmentToken, escapePointerToken, resolvePointer } from '../../load/pointer.js';
import { isObject, type JsonSchema } from '../../load/schema-types.js';
import { normalizeDefinition, repairDefinitions, type RefNamer } from '../types/normalize.js';
import type { NamedSchema, SurfaceEntry, ToolSurface } from '../shared/tool-surface.js';
import { compileDeclaration } from '../types/types.js';
import type { Statement } from '../shared/ts-project.js';
import { typeAlias } from '../shared/ts-structures.js';
import { objectType } from '../shared/ts-text.js';

interface SurfaceSchema {
  named: NamedSchema;
  /** The schema whose `$defs` it is (or itself). */
  owner: NamedSchema;
  doc?: string;
  /** Typed without its additionalProperties. */
  closed?: boolean;
}

/** Every named schema of the surface with the documentation its declaration gets, in a fixed order. */
export function surfaceSchemas(surface: ToolSurface): SurfaceSchema[] {
  const out: SurfaceSchema[] = [];
  const add = (named: NamedSchema, doc: string, closed = false) => {
    out.push({ named, owner: named, doc, closed });
    for (const def of named.defs) out.push({ named: def.named, owner: named });
  };
  const described = (what: string, entry: SurfaceEntry) =>
    entry.description === undefined ? what : `${what}: ${entry.description}`;
  for (const tool of surface.tools) {
    add(tool.input, described(`The arguments of tool \`${tool.key}\``, tool));
    if (tool.output) add(tool.output, `The structured result (\`structuredContent\`) of tool \`${tool.key}\`.`);
  }
  // A prompt takes any string argument, but its type lists only the named ones: a misspelled name is an error.
  for (const prompt of surface.prompts ?? [])
    add(prompt.input, described(`The arguments of prompt \`${prompt.key}\``, prompt), true);
  for (const template of surface.resourceTemplates ?? [])
    add(template.input, `The variables of resource template \`${template.key}\` (RFC 6570).`);
  return out;
}

/** The surface's schemas repaired as the schema's definitions are (normalize.ts), by name. */
export function repairedSchemas(surface: ToolSurface): Record<string, unknown> {
  const definitions: Record<string, unknown> = {};
  for (const { named } of surfaceSchemas(surface)) definitions[named.name] = named.schema;
  return repairDefinitions({ definitions, defsKeyword: '$defs', methods: [] });
}

/** The declarations of tool-types.ts, unformatted. */
export async function surfaceDeclarations(surface: ToolSurface): Promise<string[]> {
  const repaired = repairedSchemas(surface);
  const declarations: string[] = [];
  for (const { named, owner, doc, closed } of surfaceSchemas(surface)) {
    const root = repaired[owner.name];
    let schema = inlinePointerRefs(repaired[named.name], root, surface.file, named.pointer);
    if (closed === true && isObject(schema)) schema = { ...schema, additionalProperties: false };
    const refToType = refNamer(owner);
    let normalized = normalizeDefinition(schema, surface.file, named.pointer, refToType);
    if (typeof normalized === 'boolean') normalized = normalized ? {} : { not: {} };
    if (doc !== undefined && isObject(normalized)) {
      const own = typeof normalized.description === 'string' ? `\n\n${normalized.description}` : '';
      normalized = { ...normalized, description: `${doc}${own}` };
    }
    declarations.push(await compileDeclaration(normalized as object, named.name, surface.file, named.pointer));
  }
  return declarations;
}

/** tool-types.ts: the surface's declarations and `ResourceTemplateVariables`. */
export async function toolTypesStatements(surface: ToolSurface): Promise<Statement[]> {
  return [...(await surfaceDeclarations(surface)), templateVariables(surface)];
}

/** The URI variables of each resource template, by template. */
function templateVariables(surface: ToolSurface): Statement {
  const rows = (surface.resourceTemplates ?? []).map((t) => ({
    name: t.key,
    type: t.input.name,
    ...(t.description === undefined ? {} : { doc: t.description }),
  }));
  return typeAlias(
    'ResourceTemplateVariables',
    rows.length > 0 ? objectType(rows, true) : 'Record<never, never>',
    'The URI variables (RFC 6570) of each resource template the server lists, by template.',
  );
}

/** `#` → the owner's type; `#/$defs/Item` (or `#/definitions/Item`) → that definition's type. */
function refNamer(owner: NamedSchema): RefNamer {
  return (ref) => {
    if (ref === '#') return owner.name;
    const [, keyword, token] = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref) ?? [];
    const key = token === undefined ? undefined : decodeFragmentToken(token);
    return owner.defs.find((d) => d.keyword === keyword && d.key === key)?.named.name;
  };
}

/** How deep refs to refs may be inlined before it is taken for a cycle. */
const INLINE_DEPTH = 32;

/**
 * The schema with every `$ref` that is neither `#` nor a direct `$defs`/`definitions` entry replaced by what it
 * points at (its sibling keywords kept). A cycle through such refs cannot be inlined: refused at its pointer.
 */
function inlinePointerRefs(node: unknown, root: unknown, file: string, at: string, depth = 0): unknown {
  if (Array.isArray(node)) return node.map((item, i) => inlinePointerRefs(item, root, file, `${at}/${i}`, depth));
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === 'string' && ref !== '#' && !/^#\/(\$defs|definitions)\/[^/]+$/.test(ref)) {
    const target = resolvePointer(root, ref.slice(1));
    if (target === undefined) throw new InputError(file, `${at}/$ref`, `dangling $ref "${ref}"`);
    if (depth >= INLINE_DEPTH)
      throw new InputError(file, `${at}/$ref`, `$ref "${ref}" leads back to itself outside $defs (move it to $defs)`);
    const { $ref: _ref, ...siblings } = node;
    const inlined = inlinePointerRefs(target, root, file, at, depth + 1);
    return isObject(inlined) ? { ...inlined, ...siblings } : inlined;
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    const inlined = inlinePointerRefs(value, root, file, `${at}/${escapePointerToken(key)}`, depth);
    Object.defineProperty(out, key, { value: inlined, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
