// The SDK adapter rows (issue 29, item 5): what the generated `sdk` artifact costs a project on the official
// SDK v2, measured against writing the same thing by hand.
// - type-check: the same ≈50 calls of the example extension (acme/jobs) through `sdkClient(client)` and written
//   as the SDK v2 documents custom methods, `client.request({ method, params }, resultSchema)` with hand-made
//   zod schemas; whole tsc process CPU above an empty program (the runtime-cost row's method).
// - bundle: `sdkClient` calling every vendor method, bundled for the browser, minus a bundle of just the
//   validators those calls use: what the adapter itself adds.
import { browserBundle } from './bundle.mjs';

/** [through the facade, by hand with zod, a read that forces the result's type]. */
const CALLS = [
  [
    "acme.acme.jobs.start({ pipeline: 'nightly' })",
    "client.request({ method: 'acme/jobs.start', params: { pipeline: 'nightly' } }, StartResult)",
    'r.job.state',
  ],
  [
    "acme.acme.jobs.status({ jobId: 'job-1' })",
    "client.request({ method: 'acme/jobs.status', params: { jobId: 'job-1' } }, StatusResult)",
    'r.job.id',
  ],
  [
    "acme.acme.jobs.cancel({ jobId: 'job-1', reason: 'x' })",
    "client.request({ method: 'acme/jobs.cancel', params: { jobId: 'job-1', reason: 'x' } }, CancelResult)",
    'r.job.pipeline',
  ],
  [
    "acme.acme.jobs.list({ state: 'running', limit: 5 })",
    "client.request({ method: 'acme/jobs.list', params: { state: 'running', limit: 5 } }, ListResult)",
    'r.jobs.length',
  ],
];

/** The acme/jobs definitions as a hand-written zod user would declare them (what the SDK v2 docs show). */
const ZOD_SCHEMAS = `const JobState = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
const Job = z.object({
  id: z.string().min(1),
  pipeline: z.string(),
  state: JobState,
  progress: z.number().min(0).max(1).optional(),
  createdAt: z.string(),
  finishedAt: z.string().optional(),
  output: z.array(z.object({ type: z.string() }).passthrough()).optional(),
  error: z.string().optional(),
});
const StartResult = z.object({ job: Job });
const StatusResult = z.object({ job: Job });
const CancelResult = z.object({ job: Job });
const ListResult = z.object({ jobs: z.array(Job) });
`;

export function sdkUsageFiles(count) {
  const body = (side) =>
    Array.from({ length: count }, (_, i) => {
      const [ours, zod, read] = CALLS[i % CALLS.length];
      return `  { const r = await ${side === 'ours' ? ours : zod}; sink(${read}); }`;
    }).join('\n');
  const ours = `import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { sdkClient } from './gen/sdk.js';

declare function sink(value: unknown): void;

export async function usage(): Promise<void> {
  const [transport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const acme = sdkClient(client);
${body('ours')}
}
`;
  const zod = `import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';

declare function sink(value: unknown): void;

${ZOD_SCHEMAS}
export async function usage(): Promise<void> {
  const [transport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
${body('zod')}
}
`;
  // The floor both sides stand on: the same program without the calls (the SDK's Client imported,
  // constructed and connected). What is above it is what the calls and their schemas cost.
  const client = `import { Client, InMemoryTransport } from '@modelcontextprotocol/client';

export async function usage(): Promise<void> {
  const [transport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
}
`;
  return { ours, zod, client };
}

/**
 * The typed tools over the SDK's Client (issue 44 item 8), on the weather snapshot: `sdkTools(client).tool.forecast`
 * (arguments and structured result typed and checked by the generated module) vs `client.callTool` with the
 * arguments and the structured result checked by hand-made zod schemas, and the same client floor.
 */
export function sdkToolsUsageFiles(count) {
  const calls = (side) =>
    Array.from({ length: count }, (_, i) =>
      side === 'ours'
        ? `  { const r = await tools.tool.forecast({ city: 'c${i}' }); if (!r.isError) sink(r.structuredContent.temperature); }`
        : `  { const r = await client.callTool({ name: 'forecast', arguments: Forecast.parse({ city: 'c${i}' }) }); sink(Weather.parse(r.structuredContent).temperature); }`,
    ).join('\n');
  const open = `export async function usage(): Promise<void> {
  const [transport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);`;
  const ours = `import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { sdkTools } from './gen/sdk-tools.js';

declare function sink(value: unknown): void;

${open}
  const tools = sdkTools(client);
${calls('ours')}
}
`;
  const zod = `import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';

declare function sink(value: unknown): void;

const Forecast = z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']).optional() });
const Weather = z.object({ temperature: z.number(), conditions: z.string() });

${open}
${calls('zod')}
}
`;
  const client = `import { Client, InMemoryTransport } from '@modelcontextprotocol/client';

${open}
}
`;
  return { ours, zod, client };
}

/** The facade calling every vendor method, and the validators those calls check results with. */
const BUNDLE_ENTRIES = {
  facade: `import { sdkClient } from './gen/sdk.js';
export const calls = (client) => {
  const acme = sdkClient(client);
  return [acme.acme.jobs.start({ pipeline: 'x' }), acme.acme.jobs.status({ jobId: 'j' }), acme.acme.jobs.cancel({ jobId: 'j' }), acme.acme.jobs.list()];
};
`,
  validators: `export { AcmeJobsStartResult, AcmeJobsStatusResult, AcmeJobsCancelResult, AcmeJobsListResult } from './gen/validators.js';
`,
};

/** gzip -9 and raw bytes of both entries, bundled for the browser (`dir/gen`: acme/jobs output with `sdk`). */
export async function sdkBundleSizes(dir) {
  const sizes = {};
  for (const [side, source] of Object.entries(BUNDLE_ENTRIES)) {
    const { raw, gzip } = await browserBundle(dir, side, source);
    sizes[side] = { raw, gzip };
  }
  return sizes;
}
