/**
 * A snapshot (`--tools`) read for generation: every tool, prompt and resource template with the schema of
 * what it takes (and a tool's structured result), each given its TypeScript name by `typeName`, the one naming
 * function for them. tools.ts declares these types, tool-validators.js compiles the same schemas under the
 * same names, and the client and handlers are keyed by the names as the server spells them.
 */
import { InputError } from '../../errors.js';
import { compareStrings } from '../../load/order.js';
import { escapePointerToken, pointer } from '../../load/pointer.js';
import { isObject, type JsonSchema } from '../../load/schema-types.js';
import { objectSchema, promptArguments, templateVariables } from '../../load/snapshot-arguments.js';
import type { Snapshot } from '../../load/snapshot-file.js';
import { generatedNameProblem, pascalCase } from '../../load/type-names.js';

/** One schema of the surface and the name its type and validator get. */
export interface NamedSchema {
  name: string;
  schema: JsonSchema;
  /** Where it is in the snapshot file (its errors point there). */
  pointer: string;
  /** Its own `$defs` / `definitions`, each named too (`#/$defs/Item` → `EchoArgumentsItem`). */
  defs: { key: string; keyword: string; named: NamedSchema }[];
}

export interface SurfaceEntry {
  /** The name (or URI template) as the server spells it: the key of the client's and handlers' members. */
  key: string;
  /** The entry as the server listed it (what the handlers' list answers). */
  listed: { [key: string]: unknown };
  description: string | undefined;
  /** The arguments (a template's URI variables). */
  input: NamedSchema;
  /** Does the caller have to pass arguments (some is required)? */
  inputRequired: boolean;
  /** A tool's structured result, when it declares an outputSchema. */
  output?: NamedSchema;
}

export interface ToolSurface {
  file: string;
  server: Snapshot['server'];
  tools: SurfaceEntry[];
  /** Absent when the server offers no prompts (so the handlers do not claim them); likewise templates. */
  prompts?: SurfaceEntry[];
  resourceTemplates?: SurfaceEntry[];
  /** Does the schema's version have tools/list (the handlers then answer it)? */
  toolsListed: boolean;
  /** Does it have resources/read (the templates then get a typed read and handlers)? */
  templatesRead?: boolean;
  /** Entries whose natural name was taken, and the name they got instead. */
  warnings: string[];
}

/** The suffix each kind of type gets after the PascalCase entry name, and the stem when the name has no letters. */
const KINDS = {
  toolArguments: { suffix: 'Arguments', stem: 'Tool' },
  toolOutput: { suffix: 'StructuredContent', stem: 'Tool' },
  promptArguments: { suffix: 'PromptArguments', stem: 'Prompt' },
  templateVariables: { suffix: 'UriVariables', stem: 'Template' },
} as const;

/**
 * The one naming function of the surface's types: the entry's name in PascalCase (load/type-names.ts, the
 * project's naming rule) plus the kind's suffix; a name that starts with a digit (no identifier does) gets the
 * kind's stem first (`1st-tool` → `Tool1StToolArguments`), a name with no letters or digits the stem alone. A
 * name already taken (by another entry, a definition of the schema or an export of the generated code) gets the
 * first free number after it (`EchoArguments2`). Callers name entries in sorted order, so the same snapshot
 * always gives the same names.
 */
export function typeNamer(taken: Set<string>, warnings: string[]) {
  return (entry: string, kind: keyof typeof KINDS | { suffix: string; stem: string }, what: string): string => {
    const { suffix, stem } = typeof kind === 'string' ? KINDS[kind] : kind;
    const leadingDigit = /^[^A-Za-z]*[0-9]/.test(entry);
    const wanted = `${pascalCase(leadingDigit ? `${stem} ${entry}` : entry) || stem}${suffix}`;
    let name = wanted;
    for (let n = 2; generatedNameProblem(name, taken) !== undefined; n++) name = `${wanted}${n}`;
    if (name !== wanted) warnings.push(`${what}: its type is named ${name} (${wanted} is taken)`);
    taken.add(name);
    return name;
  };
}

/** The surface of a snapshot; `taken` holds the names the generated code already uses. */
export function toolSurface(snapshot: Snapshot, file: string, taken: ReadonlySet<string>): ToolSurface {
  const warnings: string[] = [];
  const name = typeNamer(new Set(taken), warnings);
  const sorted = (list: Record<string, { [key: string]: unknown }> | undefined) =>
    Object.entries(list ?? {}).sort(([a], [b]) => compareStrings(a, b));
  const named = (schema: JsonSchema, at: string, typeName: string): NamedSchema => {
    refuseOutsideRefs(schema, file, at);
    return { name: typeName, schema, pointer: at, defs: nestedDefs(schema, at, typeName, name) };
  };

  const tools = sorted(snapshot.tools).map(([key, tool]): SurfaceEntry => {
    const at = pointer('tools', key);
    const input = named(objectSchema(tool.inputSchema), `${at}/inputSchema`, name(key, 'toolArguments', `tool ${key}`));
    const output = isObject(tool.outputSchema)
      ? named(tool.outputSchema, `${at}/outputSchema`, name(key, 'toolOutput', `tool ${key}`))
      : undefined;
    return { ...entryOf(key, tool, input), ...(output ? { output } : {}) };
  });
  const prompts = snapshot.prompts
    ? sorted(snapshot.prompts).map(([key, prompt]) =>
        entryOf(
          key,
          prompt,
          named(
            promptArguments(prompt.arguments),
            pointer('prompts', key),
            name(key, 'promptArguments', `prompt ${key}`),
          ),
        ),
      )
    : undefined;
  const resourceTemplates = snapshot.resourceTemplates
    ? sorted(snapshot.resourceTemplates).map(([key, template]) => {
        const base = typeof template.name === 'string' ? template.name : key;
        const variables = templateVariables(key);
        const at = pointer('resourceTemplates', key);
        return entryOf(
          key,
          template,
          named(variables, at, name(base, 'templateVariables', `resource template ${key}`)),
        );
      })
    : undefined;
  return {
    file,
    server: snapshot.server,
    tools,
    ...(prompts ? { prompts } : {}),
    ...(resourceTemplates ? { resourceTemplates } : {}),
    toolsListed: true,
    warnings,
  };
}

/** Templates get a typed read and handlers where the schema has resources/read. */
export const readable = (surface: ToolSurface): boolean =>
  surface.templatesRead === true && (surface.resourceTemplates ?? []).length > 0;

/**
 * The surface as far as the schema's version can serve it: tools need tools/call (refused without it: nothing
 * could be called), and are listed where there is tools/list; prompts need prompts/list and prompts/get,
 * templates resources/templates/list, or are left out with a warning.
 */
export function servedSurface(surface: ToolSurface, requests: readonly string[]): ToolSurface {
  if (!requests.includes('tools/call'))
    throw new InputError(surface.file, '/tools', 'the schema has no tools/call request to call tools with');
  const out: ToolSurface = {
    ...surface,
    toolsListed: requests.includes('tools/list'),
    templatesRead: requests.includes('resources/read'),
    warnings: [...surface.warnings],
  };
  const drop = (list: 'prompts' | 'resourceTemplates', needs: string[]) => {
    const lacking = needs.filter((m) => !requests.includes(m));
    if (out[list] === undefined || lacking.length === 0) return;
    delete out[list];
    out.warnings.push(`${surface.file}: ${list} left out (the schema has no ${lacking.join(' or ')} request)`);
  };
  drop('prompts', ['prompts/list', 'prompts/get']);
  drop('resourceTemplates', ['resources/templates/list']);
  return out;
}

function entryOf(key: string, listed: { [key: string]: unknown }, input: NamedSchema): SurfaceEntry {
  const required = input.schema.required;
  return {
    key,
    listed,
    description: typeof listed.description === 'string' ? listed.description : undefined,
    input,
    inputRequired: Array.isArray(required) && required.length > 0,
  };
}

/** The schema's own `$defs` and `definitions`, each a named type of its own (its refs are to `#/<keyword>/<key>`). */
function nestedDefs(
  schema: JsonSchema,
  at: string,
  owner: string,
  name: ReturnType<typeof typeNamer>,
): NamedSchema['defs'] {
  const out: NamedSchema['defs'] = [];
  for (const keyword of ['$defs', 'definitions']) {
    const defs = schema[keyword];
    if (!isObject(defs)) continue;
    for (const [key, sub] of Object.entries(defs).sort(([a], [b]) => compareStrings(a, b))) {
      const here = `${at}/${keyword}/${escapePointerToken(key)}`;
      const typeName = name(`${owner} ${key}`, { suffix: '', stem: owner }, here);
      const subSchema = isObject(sub) ? sub : sub === false ? { not: {} } : {};
      out.push({ key, keyword, named: { name: typeName, schema: subSchema, pointer: here, defs: [] } });
    }
  }
  return out;
}

/** A `$ref` that leaves the schema (another document, a URL) has nothing to resolve against here. */
function refuseOutsideRefs(node: unknown, file: string, at: string): void {
  if (Array.isArray(node)) return node.forEach((item, i) => refuseOutsideRefs(item, file, `${at}/${i}`));
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    const here = `${at}/${escapePointerToken(key)}`;
    if (key === '$ref' && (typeof value !== 'string' || !value.startsWith('#')))
      throw new InputError(file, here, `a $ref outside the schema cannot be resolved: ${JSON.stringify(value)}`);
    refuseOutsideRefs(value, file, here);
  }
}
