// Validation throughput in a fresh child, for tools/call params: the generated validator (validators.js,
// `paramsValidators['tools/call']`) against the same definition compiled at run time by ajv with the
// options the generator uses (what a user would write instead), and against the SDK's zod schema.
// Usage: node validate.mjs <generated dir> <schema.json> <json config>
// Config: { iterations, runs, warmup, sides? (default all of ours, ajv, zod) }. Prints one JSON line of per-run validations/s per side.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const [genDir, schemaFile, configText] = process.argv.slice(2);
const config = JSON.parse(configText);
const validators = await import(pathToFileURL(join(genDir, 'validators.js')).href);
const types = await import('@modelcontextprotocol/sdk/types.js');

const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
const defsKeyword = schema.$defs ? '$defs' : 'definitions';
const Ajv = schema.$defs ? require('ajv/dist/2020.js').default : require('ajv').default;
// The generator's own validation options (code-generation ones aside), read from the build.
const { VALIDATION_OPTIONS } = await import(
  new URL('../../dist/src/emit/validators/validators.js', import.meta.url).href
);
const ajv = new Ajv({ ...VALIDATION_OPTIONS });
ajv.addSchema({ ...schema, $id: 'urn:bench:mcp' });
// Before 2025-06-18 the params schema is inline in CallToolRequest.
const pointer = schema[defsKeyword].CallToolRequestParams
  ? `#/${defsKeyword}/CallToolRequestParams`
  : `#/${defsKeyword}/CallToolRequest/properties/params`;
const runtime = ajv.getSchema(`urn:bench:mcp${pointer}`);

const ours = validators.paramsValidators['tools/call'];
const zodSchema = types.CallToolRequestParamsSchema ?? types.CallToolRequestSchema.shape.params;

// A realistic call: name, arguments of a few kinds, _meta with a progress token.
const inputs = [
  { name: 'echo', arguments: { text: 'hello' } },
  {
    name: 'search',
    arguments: { query: 'mcp', limit: 10, filters: { lang: 'en', tags: ['a', 'b'] } },
    _meta: { progressToken: 7 },
  },
  { name: 'noop' },
];
const invalid = { name: 42, arguments: 'x' };
const check = { ours, ajv: runtime, zod: (x) => zodSchema.safeParse(x).success };

// All must agree on what is valid, or the comparison is meaningless.
for (const [name, fn] of Object.entries(check)) {
  for (const input of inputs) if (!fn(input)) throw new Error(`${name} rejected ${JSON.stringify(input)}`);
  if (fn(invalid)) throw new Error(`${name} accepted an invalid input`);
}

let sink = 0;
const sides = {
  ours: () => {
    for (let i = 0; i < config.iterations; i++) if (ours(inputs[i % 3])) sink++;
  },
  ajv: () => {
    for (let i = 0; i < config.iterations; i++) if (runtime(inputs[i % 3])) sink++;
  },
  zod: () => {
    for (let i = 0; i < config.iterations; i++) if (zodSchema.parse(inputs[i % 3])) sink++;
  },
};
const time = (fn) => {
  const started = performance.now();
  fn();
  return config.iterations / ((performance.now() - started) / 1000);
};
const names = config.sides ?? Object.keys(sides);
for (let i = 0; i < config.warmup; i++) for (const name of names) time(sides[name]);
const rows = Object.fromEntries(names.map((n) => [n, []]));
for (let i = 0; i < config.runs; i++)
  for (const name of i % 2 ? [...names].reverse() : names) rows[name].push(time(sides[name]));
process.stdout.write(JSON.stringify({ ...rows, sink }) + '\n');
