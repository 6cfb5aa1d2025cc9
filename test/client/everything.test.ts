/**
 * The generated 2025-11-25 McpClient against a real server: @modelcontextprotocol/server-everything over
 * stdio, once with our StdioClientTransport and once with the SDK's StdioClientTransport plugged in.
 */
import { StdioClientTransport as SdkStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_BIN, built, importBuilt } from './helpers/build.js';

type Gen = any;

const transports: Record<string, (gen: Gen) => unknown> = {
  'generated StdioClientTransport': (gen) =>
    new gen.StdioClientTransport({ command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], stderr: 'ignore' }),
  'SDK StdioClientTransport': () =>
    new SdkStdioClientTransport({ command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], stderr: 'ignore' }),
};

function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('');
}

describe.each(Object.keys(transports))('generated 2025-11-25 McpClient ↔ server-everything (%s)', (transportName) => {
  let gen: Gen;
  let client: any;

  beforeAll(async () => {
    gen = await importBuilt(await built('2025-11-25'), 'index.js');
    client = new gen.McpClient(transports[transportName]!(gen), {
      clientInfo: { name: 'mcp-typegen-test', version: '0.0.0' },
    });
    await client.connect();
  });

  afterAll(async () => {
    await client?.close();
  });

  it('initializes: negotiates 2025-11-25 and records the server', () => {
    expect(client.negotiatedVersion).toBe('2025-11-25');
    expect(client.serverInfo).toMatchObject({ name: expect.any(String), version: expect.any(String) });
    expect(client.serverCapabilities).toHaveProperty('tools');
    expect(client.serverDescription.protocolVersion).toBe('2025-11-25');
  });

  it('tools/list includes echo and trigger-long-running-operation', async () => {
    const { tools } = await client.tools.list();
    const names = tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'trigger-long-running-operation']));
    expect(tools.find((t: { name: string }) => t.name === 'echo').inputSchema.type).toBe('object');
  });

  it('calls echo', async () => {
    const result = await client.tools.call({ name: 'echo', arguments: { message: 'hello ✓' } });
    expect(result.isError ?? false).toBe(false);
    expect(textOf(result)).toBe('Echo: hello ✓');
  });

  it('trigger-long-running-operation: onProgress gets every step, in order, before the result', async () => {
    const seen: unknown[] = [];
    const result = await client.tools.call(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.5, steps: 5 } },
      { onProgress: (p: unknown) => seen.push(p) },
    );
    expect(seen).toEqual([1, 2, 3, 4, 5].map((progress) => ({ progress, total: 5 })));
    expect(textOf(result)).toContain('Long running operation completed');
  });

  it('resources/list and prompts/list', async () => {
    const { resources } = await client.resources.list();
    expect(resources.length).toBeGreaterThan(0);
    for (const r of resources) expect(typeof r.uri).toBe('string');
    const { prompts } = await client.prompts.list();
    expect(prompts.length).toBeGreaterThan(0);
    for (const p of prompts) expect(typeof p.name).toBe('string');
  });

  it('ping', async () => {
    await expect(client.ping()).resolves.toEqual({});
  });

  it('an aborted long-running call rejects promptly; the server stays usable', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const call = client.tools.call(
      { name: 'trigger-long-running-operation', arguments: { duration: 10, steps: 10 } },
      { signal: controller.signal, onProgress: () => {} },
    );
    setTimeout(() => controller.abort(new Error('user gave up')), 150);
    await expect(call).rejects.toThrow('user gave up');
    expect(Date.now() - started).toBeLessThan(2_000);
    const echo = await client.tools.call({ name: 'echo', arguments: { message: 'still there' } });
    expect(textOf(echo)).toBe('Echo: still there');
  });
});
