/**
 * Compact error objects in ajv's standalone code.
 *
 * ajv writes every error as a full object literal — instance path, schema path, keyword, params and the
 * message text — at every place a check can fail: more than a quarter of validators.js. What the server
 * answers with (-32602) reads the instance path, keyword, params and message of the first error; the
 * schema path points into a schema that is not shipped, so it is dropped. The message follows from the
 * keyword and params, so a small helper builds it when an error happens instead of every literal carrying
 * its text: `{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"},message:"must be
 * string"}` becomes `t$(instancePath,"string")` (`e$(instancePath, keyword, params)` in general),
 * producing the same object minus the schema path. Keywords without a message rule here keep their
 * literal (minus the schema path). The arguments of calls between validators lose parentData and
 * parentDataProperty, which only data-changing ajv options read.
 */

/**
 * ajv's English messages (ajv/dist/vocabularies/*, `error.message`) as functions of the params: a test
 * compares them with ajv's own errors keyword by keyword.
 */
const MESSAGES: Record<string, string> = {
  type: '(p) => "must be " + p.type',
  required: `(p) => "must have required property '" + p.missingProperty + "'"`,
  const: '() => "must be equal to constant"',
  enum: '() => "must be equal to one of the allowed values"',
  anyOf: '() => "must match a schema in anyOf"',
  oneOf: '() => "must match exactly one schema in oneOf"',
  not: '() => "must NOT be valid"',
  'false schema': '() => "boolean schema is false"',
  additionalProperties: '() => "must NOT have additional properties"',
  minimum: '(p) => "must be " + p.comparison + " " + p.limit',
  maximum: '(p) => "must be " + p.comparison + " " + p.limit',
  exclusiveMinimum: '(p) => "must be " + p.comparison + " " + p.limit',
  exclusiveMaximum: '(p) => "must be " + p.comparison + " " + p.limit',
  multipleOf: '(p) => "must be multiple of " + p.multipleOf',
  minLength: '(p) => "must NOT have fewer than " + p.limit + " characters"',
  maxLength: '(p) => "must NOT have more than " + p.limit + " characters"',
  minItems: '(p) => "must NOT have fewer than " + p.limit + " items"',
  maxItems: '(p) => "must NOT have more than " + p.limit + " items"',
  minProperties: '(p) => "must NOT have fewer than " + p.limit + " properties"',
  maxProperties: '(p) => "must NOT have more than " + p.limit + " properties"',
  pattern: '(p) => "must match pattern \\"" + p.pattern + "\\""',
  uniqueItems: '(p) => "must NOT have duplicate items (items ## " + p.j + " and " + p.i + " are identical)"',
};

const FIELDS = ['instancePath', 'schemaPath', 'keyword', 'params', 'message'];
/** The argument object of a call from one validator to another (with and without dynamic anchors). */
const CALL_FIELDS = new Set([
  'instancePath,parentData,parentDataProperty,rootData',
  'instancePath,parentData,parentDataProperty,rootData,dynamicAnchors',
]);
/** Every validator's parameters; a string literal cannot contain this (its quotes would be escaped). */
const SIGNATURE = '{instancePath="", parentData, parentDataProperty, rootData=data';
const SHORT_SIGNATURE = '{instancePath="", rootData=data';

/** The code with its string literals emptied. */
function withoutStrings(code: string): string {
  return code.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
}

/** compactErrors without the parentData rewrite, for code that reads parentData after all. */
function compactErrorsOnly(code: string): { code: string; helper: string } {
  return compactErrors(code, false);
}

/** The code with compact errors, and the helper they call (empty when none does). */
export function compactErrors(code: string, dropParentData = true): { code: string; helper: string } {
  const used = new Set<string>();
  const parts: string[] = [];
  let copied = 0;
  // One pass over the code, skipping string literals: a schema's own text (a const, a pattern) may
  // contain "{instancePath" and is never touched.
  const next = /["']|\{instancePath/g;
  for (let found = next.exec(code); found; found = next.exec(code)) {
    const at = found.index;
    if (found[0] !== '{instancePath') {
      next.lastIndex = stringEnd(code, at) + 1;
      continue;
    }
    const literal = objectLiteral(code, at);
    if (!literal) continue;
    const keys = literal.fields.map(([key]) => key).join();
    if (dropParentData && CALL_FIELDS.has(keys)) {
      // A call to another validator: parentData and parentDataProperty serve only ajv options that
      // change data (defaults, coercion, removeAdditional), none of which the generator uses.
      parts.push(code.slice(copied, at), withoutParentData(literal.fields));
      copied = literal.end;
      next.lastIndex = literal.end;
      continue;
    }
    if (keys !== FIELDS.join()) continue;
    parts.push(code.slice(copied, at), compactError(literal.fields, used));
    copied = literal.end;
    next.lastIndex = literal.end;
  }
  parts.push(code.slice(copied));
  const compacted = dropParentData ? parts.join('').split(SIGNATURE).join(SHORT_SIGNATURE) : parts.join('');
  // Only if nothing else reads them: else the calls keep them as ajv wrote them.
  if (dropParentData && /\bparentData/.test(withoutStrings(compacted))) return compactErrorsOnly(code);
  if (used.size === 0) return { code: compacted, helper: '' };
  return { code: compacted, helper: helperCode(used) };
}

/**
 * The fields of the object literal that starts at `start` (`{`), as [key, value source] pairs, and the
 * index after its closing brace; a shorthand field's value is its name. Null when it is not a plain
 * literal of `key: expression` fields. String literals are skipped whole, so quotes and braces inside
 * them do not count.
 */
function objectLiteral(code: string, start: number): { fields: [string, string][]; end: number } | null {
  const fields: [string, string][] = [];
  let i = start + 1;
  for (;;) {
    const key = /^[A-Za-z_$][\w$]*/.exec(code.slice(i, i + 64))?.[0];
    if (!key) return null;
    i += key.length;
    if (code[i] === ',' || code[i] === '}') {
      fields.push([key, key]);
    } else if (code[i] === ':') {
      const from = ++i;
      i = expressionEnd(code, i);
      if (i < 0) return null;
      fields.push([key, code.slice(from, i)]);
    } else {
      return null;
    }
    if (code[i] === '}') return { fields, end: i + 1 };
    i++;
  }
}

/** Index of the `,` or `}` that ends the expression starting at `i`, at nesting depth 0; -1 if none. */
function expressionEnd(code: string, i: number): number {
  let depth = 0;
  for (; i < code.length; i++) {
    const c = code[i];
    if (c === '"' || c === "'") {
      i = stringEnd(code, i);
    } else if (c === '(' || c === '[' || c === '{') {
      depth++;
    } else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return c === '}' ? i : -1;
      depth--;
    } else if (c === ',' && depth === 0) {
      return i;
    }
  }
  return -1;
}

/** Index of the quote that closes the string literal opening at `i`. */
function stringEnd(code: string, i: number): number {
  const quote = code[i];
  for (i++; i < code.length && code[i] !== quote; i++) if (code[i] === '\\') i++;
  return i;
}

/** A call's argument object without parentData and parentDataProperty. */
function withoutParentData(fields: [string, string][]): string {
  const kept = fields.filter(([key]) => key !== 'parentData' && key !== 'parentDataProperty');
  return `{${kept.map(([key, value]) => (key === value ? key : `${key}:${value}`)).join(',')}}`;
}

/** One ajv error object as a call of the compact helpers; `used` collects the helpers called. */
function compactError(fields: [string, string][], used: Set<string>): string {
  // FIELDS matched above, so the five fields are there in this order.
  const [[, path], , [, keyword], [, params], [, message]] = fields as [
    [string, string],
    [string, string],
    [string, string],
    [string, string],
    [string, string],
  ];
  const name = JSON.parse(keyword) as unknown;
  const typeParam = /^\{type: ([^,]*)\}$/.exec(params)?.[1];
  const missing = /^\{missingProperty: ([\w$]+)\}$/.exec(params)?.[1];
  if (name === 'type' && typeParam !== undefined) {
    used.add('type');
    return `t$(${path},${typeParam})`;
  }
  if (name === 'required' && missing !== undefined) {
    used.add('required');
    return `r$(${path},${missing})`;
  }
  if (typeof name === 'string' && Object.hasOwn(MESSAGES, name)) {
    used.add(name);
    return `e$(${path},${keyword},${params})`;
  }
  return `{instancePath:${path},keyword:${keyword},params:${params},message:${message}}`;
}

/** The helpers the compact errors call, only those used. */
function helperCode(used: ReadonlySet<string>): string {
  const rules = [...used].sort().map((k) => `  ${JSON.stringify(k)}: ${MESSAGES[k]},`);
  return [
    'const m$ = {',
    ...rules,
    '};',
    'function e$(instancePath, keyword, params) {',
    '  return {instancePath, keyword, params, message: m$[keyword](params)};',
    '}',
    // The two commonest errors by far, shorter still.
    ...(used.has('type')
      ? ['function t$(instancePath, type) {', '  return e$(instancePath, "type", {type});', '}']
      : []),
    ...(used.has('required')
      ? [
          'function r$(instancePath, missingProperty) {',
          '  return e$(instancePath, "required", {missingProperty});',
          '}',
        ]
      : []),
  ].join('\n');
}
