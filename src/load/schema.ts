/**
 * Loading: find the schema file, read it, check it is an MCP schema whose local `$ref`s all resolve.
 * Returns plain data; nothing here prints or writes.
 */
import { resolve } from 'node:path';
import { InputError } from '../errors.js';
import { definitionPointer, escapePointerToken, isDecodableFragment, resolvePointer } from './pointer.js';
import { checkSchemaUrl, download, looksLikeUrl, type FetchPolicy } from './download.js';
import { sha256 } from './hash.js';
import { parseJson } from './json.js';
import { versionBySha } from './manifest.js';
import { locateSpec, specSchema } from './spec-source.js';
import { isObject, type JsonSchema } from './schema-types.js';
import { readUserFile } from './read-file.js';
import { checkRefBases } from './ref-base.js';
import { checkRefLoops } from './ref-loops.js';

export interface SchemaInput extends FetchPolicy {
  /** A schema file the user names, or an `https://` URL (`http://` for loopback hosts only). */
  schema?: string;
  /** A known spec version: from the schema root, the user cache, or downloaded (see spec-source.ts). */
  spec?: string;
  /** The schema root for `spec`; else env MCP_SCHEMA_DIR, else the user cache and downloads. */
  schemaDir?: string;
  /** Integrity pin: the schema's bytes must hash to this sha256 (hex). */
  sha256?: string;
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

/**
 * The local file a `SchemaInput` reads, when there is one without downloading (watch mode watches it);
 * undefined for a URL or a version not yet cached.
 */
export function resolveSchemaPath(input: SchemaInput): string | undefined {
  const cwd = input.cwd ?? process.cwd();
  if (input.schema) return looksLikeUrl(input.schema) ? undefined : resolve(cwd, input.schema);
  if (!input.spec) throw noSchema();
  const location = locateSpec(input.spec, { ...input, cwd });
  return location.kind === 'download' ? undefined : location.file;
}

function noSchema(): InputError {
  return new InputError('(arguments)', undefined, 'no schema given', 'pass --schema <file> or --spec <version>');
}

export async function loadSchema(input: SchemaInput): Promise<LoadedSchema> {
  const cwd = input.cwd ?? process.cwd();
  let file: string;
  let text = input.text;
  if (text !== undefined) file = input.schema ?? '(memory)';
  else if (input.schema && looksLikeUrl(input.schema)) {
    file = input.schema;
    const url = checkSchemaUrl(input.schema).href;
    text = (
      await download(
        {
          url,
          sha256: input.sha256,
          advice: 'check the URL and the network (HTTPS_PROXY), or download it and pass --schema <file>',
          pinAdvice:
            'the URL serves other bytes than were pinned: if they are expected, pin the hash above; else pin a URL that does not move (a commit, not a branch)',
        },
        input,
      )
    ).toString('utf8');
  } else if (input.schema) {
    file = resolve(cwd, input.schema);
    text = await readSchemaFile(file);
  } else if (input.spec) {
    ({ file, text } = await specSchema(input.spec, { ...input, cwd }));
  } else throw noSchema();
  if (input.sha256 && sha256(text) !== input.sha256.toLowerCase()) {
    throw new InputError(
      file,
      undefined,
      `sha256 mismatch: the schema hashes to ${sha256(text)}, the pin (--schema-sha256 / "sha256") says ${input.sha256}`,
      'the file is not what was pinned: if its new bytes are expected, pin the hash above; else restore the file',
    );
  }
  return parseSchemaText(text, file, input.spec ?? null);
}

/** A `method` property at the top of a definition, also inside its allOf/anyOf/oneOf. */
function declaresMethod(def: unknown, depth = 0): boolean {
  if (!isObject(def) || depth > 8) return false;
  if (isObject(def.properties) && isObject(def.properties.method)) return true;
  const parts = [def.allOf, def.anyOf, def.oneOf].flatMap((p) => (Array.isArray(p) ? p : []));
  return parts.some((p) => declaresMethod(p, depth + 1));
}

function readSchemaFile(file: string): Promise<string> {
  return readUserFile(file);
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
  // Structure, not names: the model finds its unions (ClientRequest, …) from the messages they hold.
  if (!Object.values(definitions).some((def) => declaresMethod(def))) {
    throw new InputError(
      file,
      `/${defsKeyword}`,
      'not an MCP schema: no definition is a message (an object with a `method`), so there is no ClientRequest to read',
    );
  }
  for (const [name, def] of Object.entries(definitions)) {
    if (!isObject(def) && typeof def !== 'boolean') {
      throw new InputError(file, definitionPointer(defsKeyword, name), 'a definition must be a schema object');
    }
  }
  const digest = sha256(text);
  const known = versionBySha(digest);
  // A published schema's bytes are checked once, by the tests (test/diff/unions.test.ts); others every time.
  if (!known) {
    checkRefs(root, file);
    checkRefLoops(root, file);
  }
  const declared = typeof root.$schema === 'string' ? root.$schema : '';
  const dialect = declared.includes('2020-12') || (!declared && defsKeyword === '$defs') ? '2020-12' : 'draft-07';
  if (!known) checkRefBases(root, file, dialect);
  const warnings: string[] = [];
  if (!known) {
    warnings.push(
      `${file}: not a known MCP schema (sha256 ${digest.slice(0, 12)}… is not in schema/mcp-versions.json); generating from it anyway`,
    );
  } else if (requestedVersion && requestedVersion !== known.version) {
    warnings.push(`${file}: content is the published ${known.version} schema, not ${requestedVersion}`);
  }
  return {
    file,
    text,
    sha256: digest,
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
export function checkRefs(root: JsonSchema, file: string): void {
  // The pointer of a node is built only for an error: the walk visits every node of the schema.
  const path: string[] = [];
  const here = () => path.map((k) => `/${escapePointerToken(k)}`).join('');
  const resolved = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item !== 'object' || item === null) continue;
        path.push(String(i));
        walk(item);
        path.pop();
      }
      return;
    }
    if (!isObject(node)) return;
    for (const key in node) {
      const value = node[key];
      if (key === '$ref' && typeof value === 'string') {
        if (resolved.has(value)) continue;
        path.push(key);
        if (!value.startsWith('#')) {
          throw new InputError(
            file,
            here(),
            `unsupported non-local $ref "${value}" (only refs inside the schema are read)`,
          );
        }
        if (!isDecodableFragment(value.slice(1))) {
          throw new InputError(
            file,
            here(),
            `$ref "${value}" has a malformed percent-escape: "%" must be followed by two hex digits that form UTF-8 (%25 for a literal "%")`,
          );
        }
        if (resolvePointer(root, value.slice(1)) === undefined) {
          throw new InputError(file, here(), `dangling $ref "${value}": nothing at that pointer`);
        }
        path.pop();
        resolved.add(value);
      } else if (typeof value === 'object' && value !== null) {
        path.push(key);
        walk(value);
        path.pop();
      }
    }
  };
  walk(root);
}

export { isObject };
