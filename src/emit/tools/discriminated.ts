/**
 * A `oneOf` whose branches are told apart by one property (each branch requires it and gives it its own
 * string `const`, or an `enum` of strings no other branch has) gets ajv's `discriminator` keyword: the
 * validator then checks the branch the value's tag picks, and its errors are that branch's, not every
 * branch's with the first one's on top (`/units must be string` from the branch the caller never meant).
 * The keyword changes which errors are reported, never what is valid: the branches' tags exclude each other,
 * so exactly one branch can match, as `oneOf` requires. Branches behind a `$ref` are left alone.
 */
import { setOwn } from '../../load/own-property.js';
import { isObject, type JsonSchema } from '../../load/schema-types.js';
import { compareStrings } from '../../load/order.js';

/** The schema with `discriminator` beside every discriminated `oneOf`; the input is not changed. */
export function withDiscriminators(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withDiscriminators);
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node))
    setOwn(out, key, key === 'const' || key === 'enum' ? value : withDiscriminators(value));
  const tag = Array.isArray(out.oneOf) && out.discriminator === undefined ? tagOf(out, out.oneOf) : undefined;
  if (tag !== undefined) out.discriminator = { propertyName: tag };
  return out;
}

/** The property every branch requires and tags with values of its own, if there is one (the first by name). */
function tagOf(parent: JsonSchema, branches: unknown[]): string | undefined {
  if (branches.length < 2 || !branches.every(isObject)) return undefined;
  const first = branches[0] as JsonSchema;
  const candidates = isObject(first.properties) ? Object.keys(first.properties).sort(compareStrings) : [];
  return candidates.find((name) => {
    const seen = new Set<string>();
    return (branches as JsonSchema[]).every((branch) => {
      const property = isObject(branch.properties) ? Object.getOwnPropertyDescriptor(branch.properties, name)?.value : undefined;
      const values = tagValues(property);
      const required = [parent, branch].some((s) => Array.isArray(s.required) && s.required.includes(name));
      if (values === undefined || !required || values.some((v) => seen.has(v))) return false;
      for (const v of values) seen.add(v);
      return true;
    });
  });
}

/** A tag's values: a string `const`, or an `enum` of strings. */
function tagValues(property: unknown): string[] | undefined {
  if (!isObject(property)) return undefined;
  if (typeof property.const === 'string') return [property.const];
  if (Array.isArray(property.enum) && property.enum.length > 0 && property.enum.every((v) => typeof v === 'string'))
    return property.enum as string[];
  return undefined;
}
