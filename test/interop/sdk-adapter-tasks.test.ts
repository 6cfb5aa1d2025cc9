/**
 * The official tasks extension (`--ext io.modelcontextprotocol/tasks`, SEP-2663, 2026-07-28) through the SDK
 * adapter, with the real packages. SDK v2 2.4.0 negotiates 2026-07-28 (client `versionNegotiation`, server
 * `serveStdio`) but has no tasks of its own there: it refuses `resultType: "task"` (UNSUPPORTED_RESULT_TYPE),
 * takes `resultType: "complete"` off results and lifts `inputResponses` off every request's params. The
 * generated adapter carries the extension past all three (test/fixtures/sdk-adapter/tasks-usage.ts is the
 * user code): a task created by `tools/call`, polled, its input answered with `tasks/update`, a
 * `notifications/tasks` pushed, a second task cancelled, bad params refused with the generated validator's
 * message and path — on an SDK pair in memory and over stdio, SDK client ↔ generated server, and ext-tasks'
 * own requester ↔ SDK server; the fixture's `@ts-expect-error` lines are compiled by tsc --strict. SDK v1 1.32.2
 * stops at 2025-11-25 and has that version's tasks of its own: test/interop/sdk-adapter.test.ts runs them
 * beside the 2025-11-25 adapter (tasks-v1.ts), which must not break them.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, generated, tempDir, tscProject, writeFiles } from '../helpers/generate.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'sdk-adapter');
const FILES = ['tasks-usage.ts', 'tasks-stdio-server.ts'];

/** What a pair of tasks-usage.ts reports (the fixture is compiled by tsc below, not by the repo's program). */
interface Observed {
  statuses: string[];
  result: unknown;
  cancelled: string;
  echo: unknown;
  pushed: string[];
  badParams: { code?: unknown; message: string };
}
interface Usage {
  sdkPair(): Promise<Observed>;
  sdkPairOverStdio(command: string, args: string[]): Promise<Observed>;
  sdkClientGeneratedServer(): Promise<Observed>;
  extTasksClientSdkServer(): Promise<{ greeted: unknown; cancelled: string; plain: string; inputs: string[] }>;
}
let dir: string;
let usage: Usage;

beforeAll(async () => {
  dir = tempDir('sdk-adapter-tasks');
  const tasks = await generated('2026-07-28', {
    extensions: ['io.modelcontextprotocol/tasks'],
    artifacts: ['client', 'server', 'sdk', 'sdk-v1'],
  });
  writeFiles(join(dir, 'generated'), tasks.files);
  for (const name of FILES) copyFileSync(join(FIXTURE, name), join(dir, name));
  usage = (await import(join(dir, 'tasks-usage.ts'))) as Usage;
});

/** The same flow, whoever runs each end. */
const EXPECTED: Omit<Observed, 'badParams'> = {
  statuses: ['working', 'input_required', 'ack complete', 'completed'],
  result: { resultType: 'complete', content: [{ type: 'text', text: 'hello Ada' }], isError: false },
  cancelled: 'cancelled',
  echo: [{ type: 'text', text: 'ran echo' }],
  pushed: ['task-1 completed'],
};

describe('the tasks extension through the SDK v2 adapter (2026-07-28)', () => {
  it('tsc --strict: the user code compiles, and each @ts-expect-error line is an error', async () => {
    const result = await tscProject(dir, { include: FILES, skipLibCheck: true });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('SDK v2 client ↔ SDK v2 server, in memory: a task created, polled, answered, pushed, cancelled', async () => {
    const observed = await usage.sdkPair();
    expect(observed).toMatchObject(EXPECTED);
    // The SDK refuses bad params with the generated validator's message and path.
    expect(observed.badParams).toEqual({
      code: -32602,
      message: 'Invalid params for tasks/get: taskId: must be string',
    });
  });

  it('SDK v2 client ↔ SDK v2 server in a child process, over stdio', async () => {
    const script = join(dir, 'tasks-stdio-server.js');
    await build({
      entryPoints: [join(dir, 'tasks-stdio-server.ts')],
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      outfile: script,
      logLevel: 'silent',
    });
    const observed = await usage.sdkPairOverStdio(process.execPath, [script]);
    expect(observed).toMatchObject(EXPECTED);
    expect(observed.badParams.code).toBe(-32602);
  });

  it('SDK v2 client (adapter) ↔ generated server with the same extension', async () => {
    const observed = await usage.sdkClientGeneratedServer();
    expect(observed).toMatchObject(EXPECTED);
    expect(observed.badParams).toEqual({ code: -32602, message: 'Invalid params: /taskId must be string' });
  });

  it("ext-tasks' own requester ↔ SDK v2 server registered through the adapter", async () => {
    expect(await usage.extTasksClientSdkServer()).toEqual({
      greeted: EXPECTED.result,
      cancelled: 'cancelled',
      plain: 'immediate',
      inputs: ['elicitation: Your name?'],
    });
  });
});
