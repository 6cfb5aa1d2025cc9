/**
 * A real client against a generated server: the official SDK `Client` over its `StdioClientTransport`
 * talks to test/fixtures/servers/type-tests/tools-server.ts, a server written only against the generated
 * 2025-11-25 interfaces and run as a child process on our StdioServerTransport.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, compileFixture } from '../client/helpers/build.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'servers', 'type-tests', 'tools-server.ts');

describe('SDK Client ↔ generated 2025-11-25 server (stdio child process)', () => {
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    const script = await compileFixture('2025-11-25', FIXTURE);
    const transport = new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'sdk-test-client', version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('initializes: version, server info, instructions, capabilities from the handlers', () => {
    expect(stderr).toBe('');
    expect(client.getServerVersion()).toEqual({ name: 'fixture-tools-server', version: '1.0.0' });
    expect(client.getInstructions()).toBe('test fixture');
    expect(client.getServerCapabilities()).toEqual({ tools: {} });
  });

  it('tools/list', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'count', 'fail']);
  });

  it('tools/call echo', async () => {
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi from the SDK' } });
    expect(result.content).toEqual([{ type: 'text', text: 'hi from the SDK' }]);
  });

  it('tools/call with progress: the SDK onprogress gets every step', async () => {
    const seen: unknown[] = [];
    const result = await client.callTool({ name: 'count', arguments: { steps: 4 } }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'counted 4' }]);
    const expected = [1, 2, 3, 4].map((progress) => ({ progress, total: 4, message: `step ${progress}` }));
    // The SDK Client dispatches notifications a microtask late but responses at once: if the last
    // progress and the response arrive in one chunk (a loaded machine), it drops that progress. The
    // fixture pauses after each step to avoid it; the earlier steps must always arrive, in order.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual(expected.slice(0, seen.length));
  });

  it('bad params: -32602 with the JSON pointer of the failing field', async () => {
    const error = await client
      .request({ method: 'tools/call', params: { name: 5 } as never }, z.any())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain('/name must be string');
    expect((error as McpError).data).toMatchObject({ pointer: '/name' });
    const missing = await client
      .request({ method: 'tools/call', params: {} as never }, z.any())
      .catch((e: unknown) => e);
    expect((missing as McpError).code).toBe(-32602);
    expect((missing as McpError).data).toMatchObject({ pointer: '/name' });
  });

  it('a ProtocolError thrown by a handler reaches the client with its code, message and data', async () => {
    const error = await client.callTool({ name: 'fail', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32042, data: { tool: 'fail' } });
    expect((error as McpError).message).toContain('fail tool failed');
  });

  it('ping', async () => {
    await expect(client.ping()).resolves.toEqual({});
  });
});
