/**
 * MCP-shaped schemas and extensions of any size, built in memory (never committed): the no-ceiling test
 * and the bench's scaling rows. A synthetic schema is a real MCP schema (read from MCP_SCHEMA_DIR) plus
 * `methods` client requests — each a Request, a RequestParams and a Result definition, shaped like
 * tools/call's — and plain object definitions ("items", referenced by the params and results and by
 * each other in short chains) until there are `definitions` in all.
 */

/**
 * @param {{ $defs?: Record<string, unknown>, definitions?: Record<string, unknown> }} base a parsed MCP schema
 * @param {{ definitions: number, methods: number }} size
 */
export function syntheticSchema(base, { definitions, methods }) {
  const keyword = base.$defs ? '$defs' : 'definitions';
  const defs = { ...base[keyword] };
  const ref = (name) => ({ $ref: `#/${keyword}/${name}` });
  const items = definitions - Object.keys(defs).length - 3 * methods;
  if (items < 1) throw new Error(`syntheticSchema: ${definitions} definitions cannot hold ${methods} methods`);
  const item = (i) => `SynthItem${i % items}`;
  for (let i = 0; i < items; i++) {
    defs[`SynthItem${i}`] = {
      description: `Synthetic item ${i}.`,
      properties: {
        kind: { const: `item${i}`, type: 'string' },
        label: { type: 'string' },
        tags: { items: { type: 'string' }, type: 'array' },
        weight: { maximum: 1, minimum: 0, type: 'number' },
        // Chains of at most ten: deep enough to exercise $ref, shallow like MCP's own.
        ...(i % 10 ? { next: ref(`SynthItem${i - 1}`) } : {}),
      },
      required: ['kind'],
      type: 'object',
    };
  }
  const requests = [];
  const results = [];
  for (let i = 0; i < methods; i++) {
    defs[`Synth${i}Request`] = {
      description: `Synthetic request ${i}.`,
      properties: {
        id: ref('RequestId'),
        jsonrpc: { const: '2.0', type: 'string' },
        method: { const: `synth/op${i}`, type: 'string' },
        params: ref(`Synth${i}RequestParams`),
      },
      required: ['id', 'jsonrpc', 'method', 'params'],
      type: 'object',
    };
    defs[`Synth${i}RequestParams`] = {
      properties: {
        _meta: { additionalProperties: {}, type: 'object' },
        count: { minimum: 0, type: 'integer' },
        item: ref(item(i)),
        mode: { enum: ['fast', 'full'], type: 'string' },
        name: { type: 'string' },
      },
      required: ['name'],
      type: 'object',
    };
    defs[`Synth${i}Result`] = {
      properties: {
        _meta: { additionalProperties: {}, type: 'object' },
        entries: { items: ref(item(i * 7 + 3)), type: 'array' },
        nextCursor: ref('Cursor'),
      },
      required: ['entries'],
      type: 'object',
    };
    requests.push(ref(`Synth${i}Request`));
    results.push(ref(`Synth${i}Result`));
  }
  defs.ClientRequest = { anyOf: [...defs.ClientRequest.anyOf, ...requests] };
  defs.ServerResult = { anyOf: [...defs.ServerResult.anyOf, ...results] };
  return { ...base, [keyword]: defs };
}

/** A vendor extension file with `methods` requests, each with its own params and result and a shared definition. */
export function syntheticExtension(methods, target) {
  const out = {
    extension: 'com.example/synthetic',
    description: `Synthetic extension with ${methods} requests.`,
    targets: [target],
    definitions: {
      SynthEntry: {
        type: 'object',
        properties: { key: { type: 'string' }, value: { type: 'number' } },
        required: ['key'],
      },
    },
    methods: {},
  };
  for (let i = 0; i < methods; i++) {
    out.methods[`com.example/synthetic.op${i}`] = {
      kind: 'request',
      direction: 'client->server',
      params: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          limit: { type: 'integer', minimum: 1 },
          entry: { $ref: '#/definitions/SynthEntry' },
        },
        required: ['name'],
      },
      result: {
        type: 'object',
        properties: {
          entries: { type: 'array', items: { $ref: '#/definitions/SynthEntry' } },
          cursor: { $ref: 'mcp:Cursor' },
        },
        required: ['entries'],
      },
    };
  }
  return out;
}
