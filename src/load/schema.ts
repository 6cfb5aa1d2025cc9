/**
 * Loading: find the schema file, read it, check it is an MCP schema whose local `$ref`s all resolve.
 * Returns plain data; nothing here prints or writes.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { InputError, escapePointerToken } from '../errors.js';
import { parseJson } from './json.js';
import { knownVersionNames, versionBySha } from './manifest.js';
import { projectRoot } from './package-root.js';
import type { JsonSchema } from './schema-types.js';

export interface SchemaInput {
  /** A schema file the user names. */
  schema?: string;
  /** A known spec version, resolved in the schema root. */
  spec?: string;
  /** The schema root for `spec`; else env MCP_SCHEMA_DIR, else `../shared/mcp-schema` from the project root. */
  schemaDir?: string;
  /** Text already in memory (e.g. a `git:` object); `schema` is then only its display name. */
  text?: string;
  cwd?: string;
}

export interface LoadedSchema {
  /** The path or display name of the source. */
  file: string;
  text: string;
  sha256: string;
  json: JsonSchema;
  dialect: 'draft-07' | '2020-12';
  defsKeyword: 'definitions' | '$defs';
  definitions: Record<string, JsonSchema>;
  /** The known version whose published hash matches, else the `--spec` asked for, else null. */
  version: string | null;
  /** True when the file's hash is one of the manifest's. */
  known: boolean;
  warnings: string[];
}

/** Where `--spec` versions live: flag, then MCP_SCHEMA_DIR, then ../shared/mcp-schema from the project root. */
export function schemaRoot(input: Pick<SchemaInput, 'schemaDir' | 'cwd'>): string {
  const cwd = input.cwd ?? process.cwd();
  if (input.schemaDir) return resolve(cwd, input.schemaDir);
  const fromEnv = process.env.MCP_SCHEMA_DIR;
  if (fromEnv) return resolve(cwd, fromEnv);
  return resolve(projectRoot(cwd), '..', 'shared', 'mcp-schema');
}

/** The file a `SchemaInput` names. */
export function resolveSchemaPath(input: SchemaInput): string {
  const cwd = input.cwd ?? process.cwd();
  if (input.schema) return isAbsolute(input.schema) ? input.schema : resolve(cwd, input.schema);
  if (!input.spec)
    throw new InputError('(arguments)', undefined, 'no schema given', 'pass --schema <file> or --spec <version>');
  const root = schemaRoot(input);
  const file = join(root, input.spec, 'schema.json');
  if (!/^[\w.-]+$/.test(input.spec) || !existsSync(file)) {
    throw new InputError(
      file,
      undefined,
      `unknown spec version "${input.spec}"`,
      `known versions: ${knownVersionNames().join(', ')}; schema root: ${root} (set --schema-dir or MCP_SCHEMA_DIR)`,
    );
  }
  return file;
}

export async function loadSchema(input: SchemaInput): Promise<LoadedSchema> {
  const file = input.text !== undefined ? (input.schema ?? '(memory)') : resolveSchemaPath(input);
  let text = input.text;
  if (text === undefined) {
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new InputError(
        file,
        undefined,
        code === 'ENOENT' ? 'file not found' : `cannot read file (${code ?? String(error)})`,
      );
    }
  }
  return parseSchemaText(text, file, input.spec ?? null);
}

/** Check and index schema text already read. */
export function parseSchemaText(text: string, file: string, requestedVersion: string | null): LoadedSchema {
  const json = parseJson(text, file);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new InputError(file, '', 'not an MCP schema: the document is not a JSON object');
  }
  const root = json as JsonSchema;
  const defsKeyword = isObject(root.$defs) ? '$defs' : isObject(root.definitions) ? 'definitions' : undefined;
  if (!defsKeyword) {
    throw new InputError(file, '', 'not an MCP schema: it has neither `definitions` nor `$defs`');
  }
  const definitions = root[defsKeyword] as Record<string, JsonSchema>;
  for (const required of ['ClientRequest', 'ServerNotification']) {
    if (!isObject(definitions[required])) {
      throw new InputError(file, `/${defsKeyword}`, `not an MCP schema: it has no \`${required}\` definition`);
    }
  }
  for (const [name, def] of Object.entries(definitions)) {
    if (!isObject(def) && typeof def !== 'boolean') {
      throw new InputError(file, `/${defsKeyword}/${escapePointerToken(name)}`, 'a definition must be a schema object');
    }
  }
  checkRefs(root, file);
  const sha256 = createHash('sha256').update(text).digest('hex');
  const known = versionBySha(sha256);
  const declared = typeof root.$schema === 'string' ? root.$schema : '';
  const dialect = declared.includes('2020-12') || (!declared && defsKeyword === '$defs') ? '2020-12' : 'draft-07';
  const warnings: string[] = [];
  if (!known) {
    warnings.push(
      `${file}: not a known MCP schema (sha256 ${sha256.slice(0, 12)}… is not in schema/mcp-versions.json); generating from it anyway`,
    );
  } else if (requestedVersion && requestedVersion !== known.version) {
    warnings.push(`${file}: content is the published ${known.version} schema, not ${requestedVersion}`);
  }
  return {
    file,
    text,
    sha256,
    json: root,
    dialect,
    defsKeyword,
    definitions,
    version: known?.version ?? requestedVersion,
    known: Boolean(known),
    warnings,
  };
}

/** Every `$ref` must be local and resolve; a dangling one is reported with the pointer of the `$ref`. */
function checkRefs(root: JsonSchema, file: string): void {
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${path}/${i}`));
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const here = `${path}/${escapePointerToken(key)}`;
      if (key === '$ref' && typeof value === 'string') {
        if (!value.startsWith('#')) {
          throw new InputError(
            file,
            here,
            `unsupported non-local $ref "${value}" (only refs inside the schema are read)`,
          );
        }
        if (resolvePointer(root, value.slice(1)) === undefined) {
          throw new InputError(file, here, `dangling $ref "${value}": nothing at that pointer`);
        }
      } else {
        walk(value, here);
      }
    }
  };
  walk(root, '');
}

/** Resolve an RFC 6901 pointer (URI-fragment decoded) in a document; undefined when it leads nowhere. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      if (!/^\d+$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (isObject(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return undefined;
    }
    if (node === undefined) return undefined;
  }
  return node;
}

export function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
