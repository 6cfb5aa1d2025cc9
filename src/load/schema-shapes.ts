/**
 * Keyword values the emitters read as a given shape, checked before generation so a wrong one is one
 * line with its pointer instead of a crash inside json-schema-to-typescript or ajv (`comment.split is
 * not a function`, `enum must have non-empty array`); and definitions that would alias themselves.
 */
import { InputError } from '../errors.js';
import { decodeFragmentToken, definitionPointer, pointer } from './pointer.js';
import { forEachSubschema } from './schema-keywords.js';
import { isObject } from './schema-types.js';

type Shape = (value: unknown) => boolean;

const isString: Shape = (v) => typeof v === 'string';
const isSchema: Shape = (v) => isObject(v) || typeof v === 'boolean';
const isSchemaList: Shape = (v) => Array.isArray(v) && v.length > 0 && v.every(isSchema);
const isSchemas: Shape = (v) => Array.isArray(v) && v.every(isSchema);
const isStringList: Shape = (v) => Array.isArray(v) && v.every(isString);
const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const isTypeName: Shape = (v) => typeof v === 'string' && TYPE_NAMES.has(v);

/** What each checked keyword must hold, in words for the error. */
const SHAPES: Record<string, { shape: Shape; words: string }> = {
  description: { shape: isString, words: 'a string' },
  title: { shape: isString, words: 'a string' },
  $comment: { shape: isString, words: 'a string' },
  $ref: { shape: isString, words: 'a string' },
  enum: { shape: (v) => Array.isArray(v) && v.length > 0, words: 'a non-empty array' },
  required: { shape: isStringList, words: 'an array of strings' },
  type: {
    shape: (v) => isTypeName(v) || (Array.isArray(v) && v.length > 0 && v.every(isTypeName)),
    words: 'a JSON type name or a non-empty list of them',
  },
  items: { shape: (v) => isSchema(v) || isSchemaList(v), words: 'a schema or a non-empty list of schemas' },
  prefixItems: { shape: isSchemaList, words: 'a non-empty list of schemas' },
  // Empty is allowed: MCP-shaped schemas spell "no notifications" `{ "anyOf": [] }`.
  allOf: { shape: isSchemas, words: 'a list of schemas' },
  anyOf: { shape: isSchemas, words: 'a list of schemas' },
  oneOf: { shape: isSchemas, words: 'a list of schemas' },
  properties: { shape: (v) => isObject(v) && Object.values(v).every(isSchema), words: 'an object of schemas' },
  additionalProperties: { shape: isSchema, words: 'a schema' },
  not: { shape: isSchema, words: 'a schema' },
};

/** Refuses the first keyword of any definition whose value has the wrong shape, and self-aliasing definitions. */
export function checkSchemaShapes(
  definitions: Record<string, unknown>,
  file: string,
  defsKeyword: 'definitions' | '$defs',
): void {
  for (const [name, definition] of Object.entries(definitions))
    checkShapes(definition, definitionPointer(defsKeyword, name), file);
  refuseAliasCycles(definitions, file, defsKeyword);
}

/** Refuses the first keyword under `node` (at pointer `at` of `file`) whose value has the wrong shape. */
export function checkShapes(node: unknown, at: string, file: string): void {
  if (!isObject(node)) return;
  for (const [keyword, value] of Object.entries(node)) {
    if (!Object.hasOwn(SHAPES, keyword)) continue;
    const rule = SHAPES[keyword];
    if (rule !== undefined && !rule.shape(value))
      throw new InputError(file, `${at}${pointer(keyword)}`, `"${keyword}" must be ${rule.words}`);
  }
  forEachSubschema(node, (sub, tokens) => checkShapes(sub, `${at}${pointer(...tokens)}`, file));
}

/**
 * A definition that reaches itself through `$ref`, `allOf`, `anyOf` or `oneOf` alone becomes a type alias
 * naming itself (`type A = A | string`: TS2456). Through a property or array item it is fine.
 */
function refuseAliasCycles(definitions: Record<string, unknown>, file: string, defsKeyword: string): void {
  const prefix = `#/${defsKeyword}/`;
  const edges = new Map<string, { target: string; at: string }[]>();
  for (const [name, definition] of Object.entries(definitions)) {
    const out: { target: string; at: string }[] = [];
    collectAliasRefs(definition, definitionPointer(defsKeyword, name), prefix, out);
    edges.set(
      name,
      out.filter((e) => Object.hasOwn(definitions, e.target)),
    );
  }
  const done = new Set<string>();
  for (const start of edges.keys()) {
    const onPath = new Set<string>();
    const visit = (name: string): void => {
      if (done.has(name)) return;
      onPath.add(name);
      for (const edge of edges.get(name) ?? []) {
        if (onPath.has(edge.target))
          throw new InputError(
            file,
            edge.at,
            `definition "${name}" is its own alias through this $ref (only $ref/allOf/anyOf/oneOf between them): no type can name itself so`,
          );
        visit(edge.target);
      }
      onPath.delete(name);
      done.add(name);
    };
    visit(start);
  }
}

function collectAliasRefs(node: unknown, at: string, prefix: string, out: { target: string; at: string }[]): void {
  if (!isObject(node)) return;
  if (typeof node.$ref === 'string' && node.$ref.startsWith(prefix)) {
    const rest = node.$ref.slice(prefix.length);
    if (!rest.includes('/')) out.push({ target: decodeFragmentToken(rest), at: `${at}/$ref` });
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[keyword];
    if (Array.isArray(list))
      list.forEach((sub, i) => collectAliasRefs(sub, `${at}${pointer(keyword, i)}`, prefix, out));
  }
}
