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
