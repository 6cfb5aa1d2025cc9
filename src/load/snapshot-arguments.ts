/**
 * The JSON Schema of what each entry of a snapshot takes: a tool its inputSchema (or any object), a prompt its
 * arguments as an object of strings, a resource template its URI variables. Shared by the snapshot diff
 * (which compares them) and generation (which types and validates them).
 */
import { compareStrings } from './order.js';
import { setOwn } from './own-property.js';
import { isObject, type JsonSchema } from './schema-types.js';

/** A tool's schema, or (absent, or not an object) any object: what tools/call takes and returns without one. */
export function objectSchema(schema: unknown): JsonSchema {
  return isObject(schema) ? schema : { type: 'object' };
}

/** A prompt's arguments as the object prompts/get takes: each a string, required when it says so. */
export function promptArguments(list: unknown): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const arg of Array.isArray(list) ? list : []) {
    if (!isObject(arg) || typeof arg.name !== 'string') continue;
    setOwn(properties, arg.name, {
      type: 'string',
      ...(typeof arg.description === 'string' ? { description: arg.description } : {}),
    });
    if (arg.required === true) required.push(arg.name);
  }
  return {
    type: 'object',
    properties,
    required: required.sort(compareStrings),
    additionalProperties: { type: 'string' },
  };
}

/**
 * A URI template's variables (RFC 6570) as an object of strings: those of a query expansion (`{?q}`,
 * `{&q}`) optional, the others required (the URI has no place without them).
 */
export function templateVariables(template: string): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  for (const [, operator = '', names = ''] of template.matchAll(/\{([+#./;?&]?)([^}]*)\}/g)) {
    for (const raw of names.split(',')) {
      const name = raw.replace(/\*$|:\d+$/, '').trim();
      if (name === '') continue;
      setOwn(properties, name, { type: 'string' });
      if (operator !== '?' && operator !== '&') required.add(name);
    }
  }
  return { type: 'object', properties, required: [...required].sort(compareStrings) };
}

/** A schema moved under a definition: its own `#...` refs (to its `$defs`, or itself) re-rooted there. */
export function rebase(schema: unknown, root: string): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node))
      setOwn(
        out,
        key,
        key === '$ref' && typeof value === 'string' && value.startsWith('#') ? root + value.slice(1) : walk(value),
      );
    return out;
  };
  return walk(schema) as JsonSchema;
}
