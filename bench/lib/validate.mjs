// Validation throughput, in-process, in a fresh child: the generated compiled validator for tools/call
// params (validators.ts compiled to JS, `paramsValidators['tools/call']`, i.e. CallToolRequestParams) vs the SDK's zod
// schema for the same params. Usage: node validate.mjs <generated dir> <json config>
// Config: { iterations, runs, warmup }. Prints one JSON line of per-run validations/s.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [genDir, configText] = process.argv.slice(2);
const config = JSON.parse(configText);
const validators = await import(pathToFileURL(join(genDir, 'validators.js')).href);
const types = await import('@modelcontextprotocol/sdk/types.js');

const ours = validators.paramsValidators['tools/call'];
const zodSchema = types.CallToolRequestParamsSchema ?? types.CallToolRequestSchema.shape.params;
const name = types.CallToolRequestParamsSchema
  ? 'CallToolRequestParamsSchema.parse'
  : 'CallToolRequestSchema.shape.params.parse';

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

// Both must agree on what is valid, or the comparison is meaningless.
for (const input of inputs) {
  if (!ours(input)) throw new Error(`ours rejected ${JSON.stringify(input)}: ${JSON.stringify(ours.errors)}`);
  zodSchema.parse(input);
}
if (ours(invalid) || zodSchema.safeParse(invalid).success) throw new Error('an invalid input was accepted');

let sink = 0;
const sides = {
  ours: () => {
    for (let i = 0; i < config.iterations; i++) if (ours(inputs[i % 3])) sink++;
  },
  sdk: () => {
    for (let i = 0; i < config.iterations; i++) if (zodSchema.parse(inputs[i % 3])) sink++;
  },
};
const time = (fn) => {
  const started = performance.now();
  fn();
  return config.iterations / ((performance.now() - started) / 1000);
};
for (let i = 0; i < config.warmup; i++) for (const fn of Object.values(sides)) time(fn);
const rows = { ours: [], sdk: [] };
for (let i = 0; i < config.runs; i++)
  for (const key of i % 2 ? ['sdk', 'ours'] : ['ours', 'sdk']) rows[key].push(time(sides[key]));
process.stdout.write(JSON.stringify({ ...rows, sdkName: name, sink }) + '\n');
