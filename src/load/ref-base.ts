/**
 * mcp-typegen reads every `$ref` as a JSON pointer into the schema file (checkRefs in schema.ts), and so
 * do the types and the validators. An `$id` inside the file starts a schema resource of its own: a `$ref`
 * within it resolves against that `$id`, so `#/$defs/B` there names `$defs/B` inside the resource, not the
 * file's. Reading it as the file's would be another schema than the one written, so it is refused, with
 * the pointer of the schema whose `$ref` it is. (ajv, left to resolve it, recursed until its stack
 * overflowed: it resolves the `$id` to the schema, and the schema, a bare `$ref`, to that `$ref`.)
 *
 * Draft-07 ignores every keyword beside a `$ref`, `$id` included: there such an `$id` moves nothing, and
 * the validators drop it (validators.ts) as the types do (normalize.ts).
 */
import { InputError } from '../errors.js';
import { pointer } from './pointer.js';
import { forEachSubschema } from './schema-keywords.js';
import type { JsonSchema } from './schema-types.js';

interface Resource {
  id: string;
  at: string;
}

export function checkRefBases(root: JsonSchema, file: string, dialect: 'draft-07' | '2020-12'): void {
  const walk = (schema: Record<string, unknown>, at: string, resource: Resource | undefined): void => {
    const id = schema.$id;
    // `#name` (a draft-07 anchor) and '' name the same document: the base stays the file.
    const startsResource =
      typeof id === 'string' && id !== '' && !id.startsWith('#') && !(dialect === 'draft-07' && '$ref' in schema);
    const base = startsResource ? { id, at } : resource;
    if (base !== undefined && typeof schema.$ref === 'string') {
      const where = base.at === at ? 'beside it' : `at #${base.at}`;
      throw new InputError(
        file,
        at,
        `its "$ref" ("${schema.$ref}") resolves against the "$id" ${where} ("${base.id}"), not against this file`,
        'remove that "$id": mcp-typegen reads every $ref as a JSON pointer into the schema file',
      );
    }
    forEachSubschema(schema, (sub, tokens) => walk(sub, at + pointer(...tokens), base), { definitions: true });
  };
  // The root's own `$id` is the file's base: `#/…` still points into the file.
  forEachSubschema(root, (sub, tokens) => walk(sub, pointer(...tokens), undefined), { definitions: true });
}
