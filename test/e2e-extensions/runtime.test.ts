/**
 * End to end over stdio: a generated client (2025-11-25 + the example extension acme/jobs) calls the
 * vendor methods on a generated server running as a child process (test/fixtures/ext-e2e/type-tests/
 * 2025-11-25/acme-server.ts, written only against the generated McpServerHandlers and compiled by
 * tsc --strict), and so does the official SDK client with a zod result schema.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from '../helpers/generate.js';
import { buildJs, diagnostics, generatedWithAcme, layoutVersion, nodeArgs } from './helpers.js';

interface Job {
  id: string;
  pipeline: string;
  state: string;
  progress?: number;
  createdAt: string;
  finishedAt?: string;
  output?: { type: string; text?: string }[];
  error?: string;
}
type Call<P, R> = (
  params?: P,
  options?: { onProgress?: (p: { progress: number; total?: number; message?: string }) => void },
) => Promise<R>;
/** The slice of the generated client this test drives (its types are checked by types.test.ts). */
interface AcmeClient {
  connect(): Promise<void>;
  close(): Promise<void>;
  serverInfo: { name: string } | undefined;
  serverCapabilities: Record<string, unknown> | undefined;
  request(method: string, params?: unknown): Promise<unknown>;
  setNotificationHandler(method: string, handler: (params: any) => void): void;
  acme: {
    jobs: {
      start: Call<{ pipeline: unknown; wait?: boolean; priority?: string; [k: string]: unknown }, { job: Job }>;
      status: Call<{ jobId: unknown }, { job: Job }>;
      cancel: Call<{ jobId: string; reason?: string }, { job: Job }>;
      list: Call<{ state?: string; limit?: number }, { jobs: Job[] }>;
    };
  };
}
interface GeneratedModule {
  createClient(transport: unknown, options: { clientInfo: { name: string; version: string } }): AcmeClient;
  StdioClientTransport: new (options: {
    command: string;
    args: string[];
    stderr?: 'inherit' | 'pipe' | 'ignore';
  }) => unknown;
  ProtocolError: new (...args: never[]) => Error;
}

let serverArgs: string[];
let outDir: string;
let mod: GeneratedModule;

beforeAll(async () => {
  const result = await generatedWithAcme('2025-11-25');
  const dir = tempDir('ext-e2e-runtime');
  layoutVersion(dir, '2025-11-25', result);
  // The same output's declarations (validators.d.ts) are checked by versions.test.ts's strict program; here the
  // build only has to emit what runs (checking Node's declarations again would cost ≈2 s of CPU).
  const build = await buildJs(dir, { skipLibCheck: true });
  expect(diagnostics(build)).toEqual([]);
  expect(build.code).toBe(0);
  outDir = build.outDir;
  serverArgs = nodeArgs(outDir, 'acme-server.js');
  mod = (await import(pathToFileURL(join(build.outDir, 'generated', 'index.js')).href)) as GeneratedModule;
}, 300_000);

/** Resolves with the params of the next `acme/jobs.finished` notifications, in order. */
function finishedInbox(client: AcmeClient) {
  const received: { job: Job }[] = [];
  const waiters: (() => void)[] = [];
  client.setNotificationHandler('acme/jobs.finished', (params: { job: Job }) => {
    received.push(params);
    waiters.splice(0).forEach((w) => w());
  });
  return {
    received,
    async count(n: number, timeoutMs = 10_000): Promise<{ job: Job }[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${n} acme/jobs.finished notifications (got ${received.length})`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received;
    },
  };
}

describe('generated client → generated server (child process, stdio)', () => {
  let client: AcmeClient;
  let inbox: ReturnType<typeof finishedInbox>;

  beforeAll(async () => {
    client = mod.createClient(
      new mod.StdioClientTransport({ command: process.execPath, args: serverArgs, stderr: 'pipe' }),
      {
        clientInfo: { name: 'ext-e2e', version: '1.0.0' },
      },
    );
    inbox = finishedInbox(client);
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('connects to the vendor server', () => {
    expect(client.serverInfo?.name).toBe('acme-jobs-e2e');
  });

  it('acme.jobs.start reports each progress step the handler sends through onProgress, then the finished job', async () => {
    const steps: unknown[] = [];
    const { job } = await client.acme.jobs.start(
      { pipeline: 'nightly-report', wait: true, priority: 'high' },
      { onProgress: (p) => steps.push(p) },
    );
    expect(steps).toEqual([
      { progress: 1, total: 3, message: 'queued' },
      { progress: 2, total: 3, message: 'running' },
      { progress: 3, total: 3, message: 'writing output' },
    ]);
    expect(job).toMatchObject({ pipeline: 'nightly-report', state: 'succeeded', progress: 1 });
    expect(job.output).toEqual([{ type: 'text', text: 'nightly-report done (priority high)' }]);
    const [finished] = await inbox.count(1);
    expect(finished).toEqual({ job });
  });

  it('the server sends acme/jobs.finished for a job that finishes after start answered; status and list see it', async () => {
    const before = inbox.received.length;
    const { job } = await client.acme.jobs.start({ pipeline: 'backup' });
    expect(job.state).toBe('running');
    const all = await inbox.count(before + 1);
    expect(all[before]!.job).toMatchObject({ id: job.id, pipeline: 'backup', state: 'succeeded' });

    const status = await client.acme.jobs.status({ jobId: job.id });
    expect(status.job).toMatchObject({
      id: job.id,
      state: 'succeeded',
      output: [{ type: 'text', text: 'backup done (priority normal)' }],
    });

    const listed = await client.acme.jobs.list();
    expect(listed.jobs.map((j) => j.pipeline)).toEqual(['backup', 'nightly-report']);
    const limited = await client.acme.jobs.list({ state: 'succeeded', limit: 1 });
    expect(limited.jobs.map((j) => j.id)).toEqual([job.id]);
    // The generic request() reaches the same method.
    expect(await client.request('acme/jobs.cancel', { jobId: job.id, reason: 'too late' })).toEqual({
      job: status.job,
    });
  });

  it('bad params to a vendor method are refused with -32602 and a JSON pointer, before the handler runs', async () => {
    const before = (await client.acme.jobs.list()).jobs.length;
    await expect(client.acme.jobs.start({ pipeline: 1 })).rejects.toMatchObject({
      code: -32602,
      data: { pointer: '/pipeline' },
    });
    await expect(client.acme.jobs.start({ pipeline: 'p', priority: 'urgent' })).rejects.toMatchObject({
      code: -32602,
      data: { pointer: '/priority' },
    });
    await expect(client.acme.jobs.status({} as never)).rejects.toMatchObject({
      code: -32602,
      data: { pointer: '/jobId' },
    });
    await expect(client.acme.jobs.list({ limit: 0 })).rejects.toMatchObject({
      code: -32602,
      data: { pointer: '/limit' },
    });
    // An additional property is named by its own pointer (issue 35, item 6), not its parent's "".
    await expect(client.acme.jobs.list({ limit: 1, stat: 'queued' } as never)).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid params: /stat must NOT have additional properties',
      data: { pointer: '/stat', keyword: 'additionalProperties' },
    });
    expect((await client.acme.jobs.list()).jobs.length).toBe(before);
  });

  it('vendor params closed with additionalProperties: false still accept the reserved _meta (progressToken)', async () => {
    // acme/jobs.list and .cancel do not declare _meta; onProgress adds _meta.progressToken to params.
    const listed = await client.acme.jobs.list({ limit: 1 }, { onProgress: () => {} });
    expect(listed.jobs).toHaveLength(1);
  });

  it('params that must be sent but are missing altogether are refused with -32602', async () => {
    await expect(client.request('acme/jobs.status')).rejects.toMatchObject({
      code: -32602,
      data: { pointer: '/jobId' },
    });
  });
});

// ajv's standalone code needs a runtime helper for minLength (the extension's AcmeJobId): the generator
// inlines it, so validators.js is plain ESM with no dependency.
it('validators.js runs as plain ESM under Node 20, with no require and no dependency', async () => {
  const { run } = await import('../helpers/generate.js');
  const result = await run(process.execPath, [
    '--input-type=module',
    '-e',
    `await import(${JSON.stringify(pathToFileURL(join(outDir, 'generated', 'validators.js')).href)})`,
  ]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
});

describe('official SDK client → generated server (child process, stdio)', () => {
  let sdk: Client;

  beforeAll(async () => {
    sdk = new Client({ name: 'sdk-e2e', version: '1.0.0' });
    await sdk.connect(new SdkStdioClientTransport({ command: process.execPath, args: serverArgs, stderr: 'pipe' }));
  });
  afterAll(async () => {
    await sdk?.close();
  });

  const AcmeJob = z.object({
    id: z.string().min(1),
    pipeline: z.string(),
    state: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
    progress: z.number().min(0).max(1).optional(),
    createdAt: z.string(),
    finishedAt: z.string().optional(),
    output: z.array(z.object({ type: z.string() }).passthrough()).optional(),
    error: z.string().optional(),
  });
  const JobResult = z.object({ job: AcmeJob });

  // No onprogress here: the SDK client dispatches notifications asynchronously but settles responses at
  // once, so progress that arrives in the same stdout chunk as the response is dropped (timing-dependent).
  it('client.request({ method: "acme/jobs.start" }, zodSchema) gets the typed result, and the finished notification', async () => {
    const finished = new Promise<z.infer<typeof AcmeJob>>((resolve) =>
      sdk.setNotificationHandler(
        z.object({ method: z.literal('acme/jobs.finished'), params: z.object({ job: AcmeJob }) }),
        (n) => resolve(n.params.job),
      ),
    );
    const result = await sdk.request(
      { method: 'acme/jobs.start', params: { pipeline: 'sdk-run', wait: true } },
      JobResult,
    );
    const state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' = result.job.state;
    expect(state).toBe('succeeded');
    expect(result.job.pipeline).toBe('sdk-run');
    expect(await finished).toEqual(result.job);

    const status = await sdk.request({ method: 'acme/jobs.status', params: { jobId: result.job.id } }, JobResult);
    expect(status.job).toEqual(result.job);
  });

  it('bad params from the SDK client get -32602 too', async () => {
    await expect(sdk.request({ method: 'acme/jobs.start', params: { pipeline: 7 } }, JobResult)).rejects.toMatchObject({
      code: -32602,
    });
  });
});
