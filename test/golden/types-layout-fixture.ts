/**
 * Definitions built to trip a hand-made layout: every quote and escape, comments that try to close
 * themselves, Markdown line breaks, unions and intersections far past 120 columns, nested object types,
 * tuples, index signatures, enums and keys that need quotes. MCP-shaped enough for the model.
 */
const words = (n: number, stem: string) => Array.from({ length: n }, (_, i) => `${stem}-${i}`);

const longName = 'AVeryLongPropertyNameThatEatsMostOfTheLineBeforeItsTypeEvenStarts';

export const ADVERSARIAL = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $defs: {
    ClientRequest: { anyOf: [{ $ref: '#/$defs/PingRequest' }] },
    ServerNotification: { anyOf: [{ $ref: '#/$defs/HelloNotification' }] },
    RequestId: { type: ['string', 'integer'] },
    EmptyResult: { type: 'object' },
    PingRequest: {
      type: 'object',
      properties: { method: { const: 'ping', type: 'string' } },
      required: ['method'],
    },
    HelloNotification: {
      type: 'object',
      description:
        'Ends early? */ no.\nTrailing spaces   \nA Markdown break  \nnext line\n\n  indented\n*starred\n/* opener',
      properties: {
        method: { const: 'notifications/hello', type: 'string' },
        params: {
          type: 'object',
          properties: { text: { type: 'string', description: 'tabs\tand\u00a0non-breaking spaces\u00a0' } },
          required: ['text'],
        },
      },
      required: ['method', 'params'],
    },
    Quotes: {
      enum: [
        "it's",
        'say "hi"',
        `both ' and "`,
        `more '' than "`,
        'more "" than \'',
        'back\\slash',
        'back\\\\double',
        'line\u2028separator',
        'para\u2029separator',
        'new\nline',
        'tab\tstop',
        'unicode é ü 中文 😀',
        '',
      ],
    },
    Numbers: { enum: [0, 1, -2, 1.5, -0.25, 1e21, 5e-7, 123456789] },
    Mixed: { enum: [1, 'one', true, null, false] },
    LongUnion: { enum: words(40, 'value') },
    LongRefs: {
      anyOf: [
        { $ref: '#/$defs/PingRequest' },
        { $ref: '#/$defs/HelloNotification' },
        { $ref: '#/$defs/Quotes' },
        { $ref: '#/$defs/Numbers' },
        { $ref: '#/$defs/Mixed' },
        { $ref: '#/$defs/LongUnion' },
        { $ref: '#/$defs/Keys' },
      ],
    },
    NearlyFits: {
      type: 'object',
      properties: {
        [longName]: { anyOf: [{ $ref: '#/$defs/PingRequest' }, { $ref: '#/$defs/HelloNotification' }] },
        [`${longName}Too`]: { anyOf: [{ $ref: '#/$defs/PingRequest' }, { type: 'null' }] },
        [`${longName}Three`]: {
          anyOf: [{ $ref: '#/$defs/PingRequest' }, { $ref: '#/$defs/Numbers' }, { $ref: '#/$defs/Mixed' }],
        },
        deep: { $ref: '#/$defs/HelloNotification/properties/params' },
      },
    },
    Intersection: {
      allOf: [
        { $ref: '#/$defs/PingRequest' },
        { $ref: '#/$defs/HelloNotification' },
        { $ref: '#/$defs/Quotes' },
        { $ref: '#/$defs/Numbers' },
        { $ref: '#/$defs/Mixed' },
        { $ref: '#/$defs/LongUnion' },
        { $ref: '#/$defs/Keys' },
      ],
    },
    ObjectsIntersected: {
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } } },
        { $ref: '#/$defs/PingRequest' },
        { type: 'object', properties: { b: { type: 'number' } } },
        { type: 'object', properties: { c: { type: 'boolean' } } },
      ],
    },
    Nested: {
      type: 'object',
      description: 'Three levels of inline objects, one nullable.',
      properties: {
        outer: {
          type: 'object',
          properties: {
            middle: {
              anyOf: [
                {
                  type: 'object',
                  properties: { inner: { type: 'object', properties: { leaf: { enum: words(12, 'leaf') } } } },
                },
                { type: 'null' },
              ],
            },
            choice: {
              anyOf: [
                { type: 'object', properties: { x: { type: 'string' } } },
                { type: 'string' },
                { type: 'number' },
              ],
            },
          },
        },
      },
      required: ['outer'],
    },
    Tuples: {
      type: 'object',
      properties: {
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], minItems: 2, maxItems: 2 },
        rest: {
          type: 'array',
          items: [{ type: 'string' }],
          additionalItems: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        },
        unions: {
          type: 'array',
          items: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, { type: 'boolean' }],
          additionalItems: false,
        },
        long: { type: 'array', items: words(8, 'x').map((w) => ({ $ref: '#/$defs/LongUnion', description: w })) },
      },
    },
    Arrays: {
      type: 'object',
      properties: {
        ofUnion: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
        ofLongUnion: { type: 'array', items: { enum: words(20, 'item') } },
        ofArrays: { type: 'array', items: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'null' }] } } },
        ofObjects: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
      },
    },
    Indexed: {
      type: 'object',
      properties: { known: { type: 'number' }, also: { type: 'string' } },
      additionalProperties: { type: 'boolean' },
    },
    Patterned: { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
    Open: { type: 'object', additionalProperties: {} },
    Closed: { type: 'object', properties: {}, additionalProperties: false },
    Keys: {
      type: 'object',
      properties: {
        'kebab-case': { type: 'string' },
        '1leading': { type: 'string' },
        '42': { type: 'string' },
        '': { type: 'string' },
        'with space': { type: 'string' },
        "it's": { type: 'string' },
        'say "x"': { type: 'string' },
        'back\\slash': { type: 'string' },
        ünïcödé: { type: 'string' },
        Ωmega: { type: 'string' },
        中文: { type: 'string' },
        $dollar: { type: 'string' },
        _under: { type: 'string' },
        constructor: { type: 'string' },
        default: { type: 'string' },
      },
    },
  },
} as Record<string, unknown> & { $defs: Record<string, unknown> };

// A key named __proto__ cannot be written in an object literal (it sets the prototype).
Object.defineProperty((ADVERSARIAL.$defs.Keys as { properties: object }).properties, '__proto__', {
  value: { type: 'string', description: 'a key, not a prototype' },
  enumerable: true,
});

/**
 * Random definitions from a fixed seed: unions, intersections, arrays, tuples, enums and objects nested
 * up to four deep, with the texts above as literals, keys and descriptions — combinations no one would
 * write by hand. Same seed, same schema.
 */
export function randomDefinitions(seed: number, count: number): Record<string, unknown> {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const times = <T>(min: number, spread: number, make: () => T) =>
    Array.from({ length: min + Math.floor(random() * spread) }, make);
  const texts = ['plain', "it's", 'say "q"', 'back\\slash', 'x'.repeat(70), 'é 中', 'a\u2028b', 'two  ', '*/ end'];
  const keys = ['a', 'value', 'kebab-key', "it's", '42', 'Ωmega', 'constructor', `${longName}AndMore`];
  const leaf = () =>
    pick<object>([
      { type: 'string' },
      { type: 'number' },
      { type: 'null' },
      { const: pick(texts) },
      { const: pick([1, 2.5, 1e21, 0]) },
      { $ref: '#/$defs/PingRequest' },
      { $ref: '#/$defs/LongUnion' },
      {},
      { type: 'object' },
    ]);
  const schema = (depth: number): object => {
    const r = random();
    if (depth > 3 || r < 0.25) return leaf();
    if (r < 0.4) return { anyOf: times(1, 6, () => schema(depth + 1)) };
    if (r < 0.5) return { allOf: times(2, 3, () => schema(depth + 1)) };
    if (r < 0.6) return { type: 'array', items: schema(depth + 1) };
    if (r < 0.65)
      return { type: 'array', items: times(1, 4, () => schema(depth + 1)), additionalItems: schema(depth + 1) };
    if (r < 0.72) return { enum: times(1, 25, () => pick([...texts, 1, 2, true, null])) };
    const properties: Record<string, object> = {};
    for (const [i, key] of times(1, 5, () => pick(keys)).entries())
      properties[`${key}${i}`] = { ...schema(depth + 1), ...(random() < 0.4 ? { description: pick(texts) } : {}) };
    const extra = random() < 0.3 ? { additionalProperties: random() < 0.5 ? schema(depth + 1) : true } : {};
    return { type: 'object', properties, required: Object.keys(properties).filter(() => random() < 0.5), ...extra };
  };
  return Object.fromEntries(times(count, 1, () => 0).map((_, i) => [`Random${i}`, schema(0)]));
}
