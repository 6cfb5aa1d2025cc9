/**
 * json-schema-to-typescript's `compile()` for one normalised definition, minus the steps that input
 * never needs: the options are merged once, not per definition, and when the schema holds no `$ref`
 * and no `$id` (normalize.ts turned every reference into a type name) it is neither deep-cloned nor
 * handed to the $ref parser, which together cost about as much as the rest of the compile. The types
 * still come from the library's own linker, validator, normaliser, parser, optimiser and generator,
 * imported from its modules (the version is pinned exactly; the golden and layout tests hold the
 * output). Anything else goes through `compile()` itself, unchanged.
 */
import { compile, DEFAULT_OPTIONS, type Options } from 'json-schema-to-typescript';
import { link } from 'json-schema-to-typescript/dist/src/linker.js';
import { validate } from 'json-schema-to-typescript/dist/src/validator.js';
import { normalize, normalizeNullableRefs } from 'json-schema-to-typescript/dist/src/normalizer.js';
import { nameAnonymousRecursiveTypes, parse } from 'json-schema-to-typescript/dist/src/parser.js';
import { optimize } from 'json-schema-to-typescript/dist/src/optimizer.js';
import { generate } from 'json-schema-to-typescript/dist/src/generator.js';
import type { JSONSchema } from 'json-schema-to-typescript';

/** One compiler per option set: `compile(schema, name)` resolves to the declaration's text. */
export function jsttCompiler(options: Partial<Options>): (schema: object, name: string) => Promise<string> {
  const merged = mergeOptions(options);
  return async (schema, name) => {
    const text = JSON.stringify(schema);
    if (/"\$(?:ref|id)"/.test(text)) return compile(schema, name, options);
    // A copy as compile() makes one (JSON is all a normalised schema holds; own `__proto__` keys survive).
    const copy = JSON.parse(text) as JSONSchema;
    normalizeNullableRefs(copy);
    const linked = link(copy);
    // Invalid input: let compile() report it exactly as it does.
    if (validate(linked, name).length) return compile(schema, name, options);
    const dereferencedPaths = new WeakMap();
    const normalized = normalize(linked, dereferencedPaths, name, merged);
    const processed = new Map();
    const usedNames = new Set<string>();
    const parsed = parse(normalized, merged, undefined, processed, usedNames);
    nameAnonymousRecursiveTypes(parsed, processed, dereferencedPaths, usedNames);
    return generate(optimize(parsed, merged), merged);
  };
}

/** compile()'s own option handling: the defaults under the given options, `cwd` ending in `/`. */
function mergeOptions(options: Partial<Options>): Options {
  const merged: Options = { ...DEFAULT_OPTIONS, ...options, style: { ...DEFAULT_OPTIONS.style, ...options.style } };
  if (!merged.cwd.endsWith('/')) merged.cwd += '/';
  return merged;
}
