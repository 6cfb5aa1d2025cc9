/**
 * A `$ref` chain that comes back to where it started without meeting a schema (`A` is `{"$ref": B}` and
 * `B` is `{"$ref": A}`, or `A` refers to itself) says nothing about any value: the types would be aliases
 * of each other, which TypeScript refuses, and ajv, following the chain to find a schema, recursed until
 * its stack overflowed. Refused with the pointer of the schema whose `$ref` leads into it, and the loop.
 */
import { InputError } from '../errors.js';
import { pointer, resolvePointer } from './pointer.js';
import { forEachSubschema } from './schema-keywords.js';
import { isObject, type JsonSchema } from './schema-types.js';

/** Keywords that say nothing about a value: a schema of these and a `$ref` is only its target. */
const NOT_VALIDATING = new Set([
  '$ref',
  '$id',
  '$anchor',
  '$schema',
  '$comment',
  'title',
  'description',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

const bareRef = (schema: unknown): string | undefined =>
  isObject(schema) && typeof schema.$ref === 'string' && Object.keys(schema).every((k) => NOT_VALIDATING.has(k))
    ? schema.$ref
    : undefined;

export function checkRefLoops(root: JsonSchema, file: string): void {
  // Refs already followed to a schema (or to a loop reported from there).
  const done = new Set<string>();
  const follow = (first: string, at: string): void => {
    const chain: string[] = [];
    for (let ref: string | undefined = first; ref !== undefined && !done.has(ref);) {
      if (chain.includes(ref)) {
        const loop = [...chain.slice(chain.indexOf(ref)), ref].map((r) => `"${r}"`).join(' → ');
        throw new InputError(file, at, `its "$ref" leads into a loop of $refs that never reaches a schema: ${loop}`);
      }
      chain.push(ref);
      ref = bareRef(resolvePointer(root, ref.slice(1)));
    }
    for (const ref of chain) done.add(ref);
  };
  const walk = (schema: Record<string, unknown>, at: string): void => {
    const ref = bareRef(schema);
    if (ref !== undefined) follow(ref, at);
    forEachSubschema(schema, (sub, tokens) => walk(sub, at + pointer(...tokens)), { definitions: true });
  };
  walk(root, '');
}
