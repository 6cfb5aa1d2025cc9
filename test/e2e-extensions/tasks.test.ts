/**
 * The official tasks extension shipped in schema/extensions/, used as `--ext io.modelcontextprotocol/tasks`
 * on 2026-07-28 (with the MCP Apps file, `--ext io.modelcontextprotocol/ui`, for its Tool._meta.ui):
 * - the model gains its methods and its augmentations (CreateTaskResult as a tools/call result with
 *   resultType "task", SubscriptionFilter.taskIds), and only where the extension is enabled;
 * - test/fixtures/ext-e2e/type-tests/tasks/tasks-flow.ts (client and server over the in-memory pair, no casts),
 *   ext-tasks-interop.ts (the official ext-tasks 0.2.2 requester against a generated server, no casts) and
 *   tasks-types.ts compile under tsc --strict beside the generated code, and both flows run: create by
 *   tools/call, poll, input_required answered by tasks/update, notifications/tasks (ours), cancel;
 * - against loosened declarations every tagged @ts-expect-error of tasks-types.ts is reported unused.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generated, run, tempDir, tscProject, writeFiles } from '../helpers/generate.js';
import { taggedDirectives } from '../helpers/type-tests.js';
import { TYPE_TESTS, buildJs, diagnostics } from './helpers.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const UI = 'io.modelcontextprotocol/ui';
const TASK_FIXTURES = join(TYPE_TESTS, 'tasks');

describe('the tasks extension on 2026-07-28', () => {
  let dir: string;
  beforeAll(async () => {
    dir = tempDir('ext-e2e-tasks');
    writeFiles(join(dir, 'generated'), (await generated('2026-07-28', { extensions: [TASKS, UI] })).files);
    for (const name of readdirSync(TASK_FIXTURES)) copyFileSync(join(TASK_FIXTURES, name), join(dir, name));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  }, 300_000);

  it('its task methods carry Mcp-Name = taskId (PROTOCOL.facts), which the HTTP server checks', async () => {
    const { model } = await generated('2026-07-28', { extensions: [TASKS, UI] });
    expect(model.facts.transport.nameSources).toMatchObject({
      'tasks/get': 'taskId',
      'tasks/update': 'taskId',
      'tasks/cancel': 'taskId',
      'tools/call': 'name',
    });
    const { createStreamableHttpServer } = await import('@mcp-typegen/runtime/node');
    const { listen, rawRequest } = await import('../transports/helpers/http.js');
    const handler = createStreamableHttpServer({
      keepAliveMs: 0,
      protocol: {
        version: model.version,
        protocolVersion: model.protocolVersion,
        features: model.features,
        facts: model.facts,
      },
      onSession: () => undefined,
    });
    const http = await listen(handler);
    try {
      const post = (name: string) =>
        rawRequest(`${http.url}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tasks/get',
            'mcp-name': name,
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tasks/get',
            params: {
              taskId: 't-1',
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientCapabilities': {},
              },
            },
          }),
        });
      const wrong = await post('t-2');
      expect([wrong.status, JSON.parse(wrong.body).error.code]).toEqual([400, -32020]);
    } finally {
      await handler.close();
      await http.close();
    }
  });

  it('adds its methods and augments tools/call and SubscriptionFilter', async () => {
    const { model, warnings } = await generated('2026-07-28', { extensions: [TASKS, UI] });
    expect(warnings).toEqual([]);
    expect(model.methods.filter((m) => m.source === TASKS).map((m) => [m.method, m.directions])).toEqual([
      ['notifications/tasks', ['server->client']],
      ['tasks/cancel', ['client->server']],
      ['tasks/get', ['client->server']],
      ['tasks/update', ['client->server']],
    ]);
    expect(model.methods.find((m) => m.method === 'tools/call')!.result).toEqual([
      'InputRequiredResult',
      'CallToolResult',
      'CreateTaskResult',
    ]);
    expect(Object.keys(model.definitions.SubscriptionFilter!.properties as object)).toContain('taskIds');
  });

  it('leaves MCP as it is without the extension, and is skipped for 2025-11-25 only when asked', async () => {
    const plain = (await generated('2026-07-28', { artifacts: ['types'] })).model;
    expect(plain.methods.find((m) => m.method === 'tools/call')!.result).toEqual([
      'InputRequiredResult',
      'CallToolResult',
    ]);
    expect(Object.keys(plain.definitions.SubscriptionFilter!.properties as object)).not.toContain('taskIds');
    await expect(generated('2025-11-25', { extensions: [TASKS], artifacts: ['types'] })).rejects.toThrow(
      /does not target MCP 2025-11-25/,
    );
    const older = await generated('2025-11-25', { extensions: [TASKS], artifacts: ['types'], skipUntargeted: true });
    expect(older.warnings).toEqual([`${TASKS}: extension ${TASKS} does not target MCP 2025-11-25; skipped`]);
  }, 300_000);

  it('the flow, the ext-tasks interop and the type tests compile under tsc --strict, and run without a cast', async () => {
    // Zero casts: no `as`, no angle-bracket assertion, no non-null `!` in the client and server code.
    for (const file of ['tasks-flow.ts', 'ext-tasks-interop.ts']) {
      const code = readFileSync(join(TASK_FIXTURES, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '')
        .replace(/'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, "''");
      expect(code, file).not.toMatch(/\bas\s+(?!const\b)|<[A-Z]\w*>\s*\w|\w!(?:\.|\)|;|,|\s)/);
    }
    // skipLibCheck: ext-tasks 0.2.2's own declarations fail these options (TS2411 in its generated schemas);
    // every generated file but validators.d.ts is .ts and still checked (validators.d.ts: test/generate).
    const built = await buildJs(dir, { skipLibCheck: true });
    expect(diagnostics(built)).toEqual([]);
    const flow = await run(process.execPath, [join(built.outDir, 'tasks-flow.js')], { cwd: dir });
    expect(flow.stderr).toBe('');
    expect(flow.stdout.trim()).toBe('tasks flow ok');
    expect(flow.code).toBe(0);
    // The official requester (v2 SDK Client) against the same kind of server: see ext-tasks-interop.ts.
    const interop = await run(process.execPath, [join(built.outDir, 'ext-tasks-interop.js')], { cwd: dir });
    expect(interop.stderr).toBe('');
    expect(interop.stdout.trim()).toBe('ext-tasks interop ok');
    expect(interop.code).toBe(0);
  }, 300_000);

  it('against loosened declarations every tagged @ts-expect-error is reported unused', async () => {
    const loose = tempDir('ext-e2e-tasks-loose');
    mkdirSync(join(loose, 'generated'));
    copyFileSync(join(TASK_FIXTURES, 'tasks-types.ts'), join(loose, 'tasks-types.ts'));
    const names = [
      'ClientCapabilities',
      'CreateTaskResult',
      'DetailedTask',
      'McpClient',
      'McpServerHandlers',
      'ServerCapabilities',
      'SubscriptionFilter',
      'Task',
      'Tool',
    ];
    writeFileSync(join(loose, 'generated', 'index.ts'), names.map((n) => `export type ${n} = any;`).join('\n') + '\n');
    const result = await tscProject(loose, { include: ['tasks-types.ts'], node: false, skipLibCheck: true });
    const unused = diagnostics(result)
      .map((line) => /^(.+?)\((\d+),\d+\): error TS2578: /.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}:${m[2]}`)
      .sort();
    const tagged = taggedDirectives(TASK_FIXTURES);
    expect(tagged.size).toBe(10);
    expect(unused).toEqual([...tagged.keys()].sort());
  }, 300_000);
});
