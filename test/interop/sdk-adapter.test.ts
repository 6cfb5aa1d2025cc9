/**
 * The SDK adapters (`artifacts: ["sdk", "sdk-v1"]`) with the real SDK packages, v2 2.4.0 and v1 1.32.2: the
 * fixture extension com.acme/review (a vendor request and a notification each way, an augmented tools/call
 * result, settings) runs on an SDK pair of each major and on the mixed pairs, in memory; the fixture's
 * `@ts-expect-error` lines are compiled by tsc --strict (a misspelled method, a missing param, a wrong
 * result shape do not compile). test/fixtures/sdk-adapter/usage.ts is the user code; tasks-v1.ts runs SDK v1's
 * own 2025-11-25 tasks beside the same adapter, which must not break them.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, generated, tempDir, tscProject, writeFiles } from '../helpers/generate.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'sdk-adapter');
const EXTENSION = join(FIXTURE, 'acme-review.extension.json');
/** The user code; tasks-v1.ts runs SDK v1's own tasks beside the same adapter (the tasks extension: sdk-adapter-tasks). */
const FILES = ['usage.ts', 'stdio-server.ts', 'tasks-v1.ts'];

/** What each pair of the fixture reports (the fixture is compiled by tsc below, not by the repo's program). */
interface Observed {
  log: string[];
  badParams: { code?: unknown; message: string };
  [key: string]: unknown;
}
type Usage = Record<
  'v2Pair' | 'v1Pair' | 'v2ClientGeneratedServer' | 'generatedClientV2Server',
  () => Promise<Observed>
> & { v1ClientOverStdio: (command: string, args: string[]) => Promise<Observed> };
let dir: string;
let usage: Usage;

beforeAll(async () => {
  dir = tempDir('sdk-adapter');
  const result = await generated('2025-11-25', {
    extensions: [EXTENSION],
    artifacts: ['client', 'server', 'sdk', 'sdk-v1'],
  });
  writeFiles(join(dir, 'generated'), result.files);
  for (const name of FILES) copyFileSync(join(FIXTURE, name), join(dir, name));
  usage = (await import(join(dir, 'usage.ts'))) as Usage;
});

/** What every pair must see: the same exchange, whoever runs each end. */
const EXPECTED = {
  log: ['asked how many pages in Spec?', 'done r-1 accepted', 'withdrawn r-23'],
  submitted: { reviewId: 'r-23', queued: true },
  tool: { reviewedBy: 'ada', score: 0.9 },
  settings: { reviewers: 2 },
};

describe('SDK adapters with the official SDKs (com.acme/review, 2025-11-25, in memory)', () => {
  it('tsc --strict: the user code compiles, and each @ts-expect-error line is an error', async () => {
    const result = await tscProject(dir, { include: FILES, skipLibCheck: true });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('SDK v2 client (facade) ↔ SDK v2 server: a vendor request and a notification each way, typed results, settings', async () => {
    const observed = await usage.v2Pair();
    expect(observed).toMatchObject(EXPECTED);
    // The SDK refuses bad params with the generated validator's message and path.
    expect(observed.badParams.code).toBe(-32602);
    expect(observed.badParams.message).toMatch(/title.*must be string|must be string.*title/);
  });

  it('SDK v1 client (facade) ↔ SDK v1 server, through zod', async () => {
    const observed = await usage.v1Pair();
    expect(observed).toMatchObject(EXPECTED);
    // -32602 (the error's numeric code, which SDK v1 passes through), the validator's path and message.
    expect(observed.badParams.code).toBe(-32602);
    expect(observed.badParams.message).toBe('MCP error -32602: Invalid params: /title must be string');
  });

  it('SDK v1 client (facade) ↔ SDK v2 server in a child process, over stdio', async () => {
    const script = join(dir, 'stdio-server.js');
    await build({
      entryPoints: [join(dir, 'stdio-server.ts')],
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      outfile: script,
      logLevel: 'silent',
    });
    const observed = await usage.v1ClientOverStdio(process.execPath, [script]);
    // The withdrawn notification is logged in the child; the rest is the same exchange.
    expect(observed).toMatchObject({ ...EXPECTED, log: EXPECTED.log.slice(0, 2) });
    expect(observed.badParams.message).toContain('must be string');
  });

  it('SDK v2 client (facade) ↔ generated server', async () => {
    const observed = await usage.v2ClientGeneratedServer();
    expect(observed).toMatchObject(EXPECTED);
    expect(observed.badParams).toMatchObject({ code: -32602 });
    expect(observed.badParams.message).toContain('/title must be string');
  });

  it('generated client ↔ SDK v2 server', async () => {
    const observed = await usage.generatedClientV2Server();
    expect(observed).toMatchObject(EXPECTED);
    expect(observed.badParams.code).toBe(-32602);
  });

  it("SDK v1's own 2025-11-25 tasks beside the adapter: a task-augmented tools/call, tasks/get, tasks/result through sdkRequestV1", async () => {
    const { v1OwnTasks } = (await import(join(dir, 'tasks-v1.ts'))) as {
      v1OwnTasks: () => Promise<Record<string, unknown>>;
    };
    // Sent with `task`, the call is answered with the SDK's CreateTaskResult, which the adapter checks and types.
    expect(await v1OwnTasks()).toEqual({
      created: 'working',
      polled: 'completed',
      result: [{ type: 'text', text: 'ran report' }],
      plain: [{ type: 'text', text: 'ran echo' }],
      submitted: { reviewId: 'r-Spec', queued: true },
    });
  });
});
