/**
 * Issue 46, item 4: from 2026-07-28 on, an extension channel's methods (MCP Apps' `ui/*`) keep to tables of their
 * own (ChannelClientRequests, …), which the channel ends are typed with. The MCP session's tables leave them out:
 * a handler of a 2026-07-28 MCP server cannot `ctx.request('ui/resource-teardown')` (a sessionless server has no
 * way to send it over Streamable HTTP), the MCP client has no `ui` stubs, and the MCP server answers a `ui/*`
 * request with -32601. 2025-11-25, where view and host share one JSON-RPC dialect, keeps them in its tables.
 *
 * Issue 46, item 5: on every version the channel tables hold the channel's methods and only the MCP methods the
 * extension file lists (`channel.mcpMethods`): a 2025-11-25 view is not typed with, does not check, and refuses
 * sampling, elicitation, roots and tasks requests; the MCP client and server of 2025-11-25 keep every method.
 *
 * And the MCP methods a channel carries against MCP's direction (`channel.mcpMethodsReversed`): ext-apps' App
 * sends its host log messages, its own tool list changes and sampling requests, which an MCP server sends.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInMemoryPair, RpcPeer } from '@mcp-typegen/runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, generated, tempDir, writeFiles } from '../helpers/generate.js';
import { buildJs, diagnostics, importGenerated } from './helpers.js';

type Json = Record<string, any>;
const UI = 'io.modelcontextprotocol/ui';
let modern: Json;
let legacy: Json;

beforeAll(async () => {
  modern = await importGenerated('channel-tables', await generated('2026-07-28', { extensions: [UI] }));
  legacy = await importGenerated('channel-tables-legacy', await generated('2025-11-25', { extensions: [UI] }));
}, 120_000);

describe('channel methods on 2026-07-28', () => {
  it('are in the channel tables and out of the MCP session tables', () => {
    expect(modern.CLIENT_REQUEST_METHODS.filter((m: string) => m.startsWith('ui/'))).toEqual([]);
    expect(modern.SERVER_REQUEST_METHODS).not.toContain('ui/resource-teardown');
    expect(modern.CHANNEL_CLIENT_REQUEST_METHODS).toEqual(expect.arrayContaining(['ui/initialize', 'tools/call']));
    expect(modern.CHANNEL_SERVER_REQUEST_METHODS).toContain('ui/resource-teardown');
    expect(modern.CHANNEL_SERVER_NOTIFICATION_METHODS).toContain('ui/notifications/tool-result');
  });

  it('an MCP server answers a ui/* request with -32601; a handler for one is refused at creation', async () => {
    expect(() =>
      modern.createServer({ 'ui/message': () => ({}) }, { serverInfo: { name: 's', version: '1' } }),
    ).toThrow('createServer: "ui/message" is not a method this server receives');
    const server = modern.createServer(
      { 'tools/list': () => ({ tools: [] }) },
      { serverInfo: { name: 's', version: '1' } },
    );
    const [clientSide, serverSide] = createInMemoryPair();
    await server.connect(serverSide);
    const raw = new RpcPeer(clientSide);
    await raw.start();
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
    };
    await expect(raw.request('ui/message', { role: 'user', content: [], _meta: meta })).rejects.toMatchObject({
      code: -32601,
    });
    await raw.close();
  });

  it('type-check: the MCP ends cannot name ui/* methods; the channel ends can (tsc --strict)', async () => {
    const dir = tempDir('channel-tables');
    writeFiles(join(dir, 'generated'), (await generated('2026-07-28', { extensions: [UI] })).files);
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(dir, 'probe.ts'),
      [
        "import type { Transport } from '@mcp-typegen/runtime';",
        "import { createClient, UiView } from './generated/client.js';",
        "import { createServer, UiHost } from './generated/server.js';",
        'declare const transport: Transport;',
        "const client = createClient(transport, { clientInfo: { name: 'c', version: '1' } });",
        '// @ts-expect-error -- no ui/* stubs on the MCP client',
        'export const stub = client.ui;',
        '// @ts-expect-error -- nor through request',
        "export const untyped = () => client.request('ui/open-link', { url: 'https://example.com' });",
        'export const server = createServer({',
        "  'tools/call': async (_params, ctx) => {",
        "    // @ts-expect-error -- an MCP server's handler cannot send a channel request",
        "    await ctx.request('ui/resource-teardown', {});",
        '    return { content: [] };',
        '  },',
        "}, { serverInfo: { name: 's', version: '1' } });",
        'const view = new UiView(transport);',
        "export const link = () => view.request('ui/open-link', { url: 'https://example.com' });",
        'const host = new UiHost(transport);',
        "host.setRequestHandler('ui/message', () => ({}));",
        "export const teardown = () => host.request('ui/resource-teardown', {});",
        "// Against MCP's direction: the view samples and logs, the host answers and hears.",
        "export const sample = () => view.request('sampling/createMessage', { messages: [], maxTokens: 1 });",
        "export const log = () => view.notify('notifications/message', { level: 'info', data: 'x' });",
        "host.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }));",
        "host.setNotificationHandler('notifications/message', () => undefined);",
        '// @ts-expect-error -- a host does not ask its view to sample',
        "export const backwards = () => host.request('sampling/createMessage', { messages: [], maxTokens: 1 });",
        '',
      ].join('\n'),
    );
    expect(diagnostics(await buildJs(dir))).toEqual([]);
  }, 120_000);
});

describe('a request only the host sends, on 2026-07-28', () => {
  it("a host's ui/resource-teardown carries a plain _meta, not a client's envelope", async () => {
    const [viewSide, hostSide] = createInMemoryPair();
    const view = new modern.UiView(viewSide);
    view.setRequestHandler('ui/resource-teardown', () => ({}));
    await view.start();
    const host = new RpcPeer(hostSide);
    await host.start();
    // A request only the host sends: no protocol version or client capabilities in its _meta (MetaObject).
    await expect(host.request('ui/resource-teardown', { _meta: { 'com.example/reason': 'closing' } })).resolves.toEqual(
      {},
    );
    await expect(host.request('ui/resource-teardown', { _meta: 'closing' })).rejects.toMatchObject({ code: -32602 });
    await host.close();
  });
});

describe('channel tables on every version', () => {
  const listed = ['ping', 'prompts/list', 'resources/list', 'resources/read', 'resources/templates/list', 'tools/call'];
  const mcpOf = (methods: string[]) => methods.filter((x) => !x.startsWith('ui/'));
  it.each(['2025-11-25', '2026-07-28'])('%s: the channel carries the listed MCP methods and its own', (version) => {
    const m = version === '2025-11-25' ? legacy : modern;
    const wanted = [...listed, 'tools/list'];
    expect(mcpOf(m.CHANNEL_CLIENT_REQUEST_METHODS)).toEqual(
      [...m.CLIENT_REQUEST_METHODS.filter((x: string) => wanted.includes(x)), 'sampling/createMessage'].sort(),
    );
    expect(m.CHANNEL_CLIENT_REQUEST_METHODS).toEqual(expect.arrayContaining(['ui/initialize', 'ui/message']));
    expect(mcpOf(m.CHANNEL_SERVER_REQUEST_METHODS)).toEqual(
      m.SERVER_REQUEST_METHODS.filter((x: string) => x === 'ping'),
    );
    expect(m.CHANNEL_SERVER_REQUEST_METHODS).toContain('ui/resource-teardown');
    expect(m.CHANNEL_SERVER_NOTIFICATION_METHODS).not.toContain('notifications/message');
    expect(m.CHANNEL_SERVER_NOTIFICATION_METHODS).toContain('notifications/tools/list_changed');
    expect(m.CHANNEL_CLIENT_NOTIFICATION_METHODS).toContain('notifications/cancelled');
    // Against MCP's direction: the view logs and samples; a tool list change goes both ways.
    expect(m.CHANNEL_CLIENT_NOTIFICATION_METHODS).toEqual(
      expect.arrayContaining(['notifications/message', 'notifications/tools/list_changed']),
    );
    expect(m.CHANNEL_SERVER_REQUEST_METHODS).not.toContain('sampling/createMessage');
  });

  it.each(['2025-11-25', '2026-07-28'])(
    '%s: a host hears a view’s log messages and answers its sampling requests, checking their params',
    async (version) => {
      const m = version === '2025-11-25' ? legacy : modern;
      const [viewSide, hostSide] = createInMemoryPair();
      const host = new m.UiHost(hostSide);
      host.setRequestHandler('ui/initialize', (params: Json) => ({
        protocolVersion: params.protocolVersion,
        hostInfo: { name: 'host', version: '1' },
        hostCapabilities: { sampling: {} },
        hostContext: {},
      }));
      const logged: Json[] = [];
      host.setNotificationHandler('notifications/message', (params: Json) => void logged.push(params));
      host.setRequestHandler('sampling/createMessage', (params: Json) => ({
        role: 'assistant',
        content: { type: 'text', text: `${params.messages.length} message(s)` },
        model: 'stub',
      }));
      await host.start();
      const view = new m.UiView(viewSide);
      await view.connect({
        appInfo: { name: 'view', version: '1' },
        appCapabilities: {},
        protocolVersion: '2026-01-26',
      });
      await view.notify('notifications/message', { level: 'info', data: 'ready' });
      const sampled = await view.request('sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
        maxTokens: 5,
      });
      expect(sampled.content).toEqual({ type: 'text', text: '1 message(s)' });
      await expect.poll(() => logged).toEqual([{ level: 'info', data: 'ready' }]);
      // The host checks what the view sends: no maxTokens is -32602.
      const raw = view as unknown as { request(method: string, params: unknown): Promise<unknown> };
      await expect(raw.request('sampling/createMessage', { messages: [] })).rejects.toMatchObject({ code: -32602 });
      await view.close();
    },
  );

  it('2025-11-25: the MCP session keeps every method, the ui/* ones included', () => {
    expect(legacy.SERVER_REQUEST_METHODS).toEqual(
      expect.arrayContaining(['sampling/createMessage', 'elicitation/create', 'ui/resource-teardown']),
    );
    expect(legacy.CLIENT_REQUEST_METHODS).toEqual(expect.arrayContaining(['initialize', 'ui/initialize']));
  });

  it('2025-11-25: a view refuses a sampling request (-32601) and answers ui/resource-teardown', async () => {
    const [viewSide, hostSide] = createInMemoryPair();
    const view = new legacy.UiView(viewSide);
    // What the view checks is what it receives: the channel's methods, none of the MCP session's others.
    const checked = Object.keys(view.channel.params);
    expect(checked).toEqual(expect.arrayContaining(['ui/notifications/tool-result', 'ui/resource-teardown', 'ping']));
    for (const method of ['sampling/createMessage', 'elicitation/create', 'roots/list', 'tasks/get'])
      expect(checked).not.toContain(method);
    view.setRequestHandler('ui/resource-teardown', () => ({}));
    await view.start();
    const host = new RpcPeer(hostSide);
    await host.start();
    await expect(host.request('sampling/createMessage', { messages: [], maxTokens: 1 })).rejects.toMatchObject({
      code: -32601,
    });
    await expect(host.request('ui/resource-teardown', {})).resolves.toEqual({});
    await host.close();
  });
});

describe('channel.mcpMethods and channel.mcpMethodsReversed', () => {
  it('a name that is no MCP method is warned about (a misspelt method would carry nothing)', async () => {
    const apps = JSON.parse(readFileSync(join(ROOT, 'schema', 'extensions', 'apps.extension.json'), 'utf8'));
    apps.channel.mcpMethods.push('tools/cal');
    apps.channel.mcpMethodsReversed.push('notifications/mesage');
    const file = join(tempDir('mcp-methods-typo'), 'apps.extension.json');
    writeFileSync(file, JSON.stringify(apps));
    const result = await generated('2025-11-25', { extensions: [file], artifacts: ['types', 'maps'] });
    expect(result.warnings).toEqual([
      `${file}: channel.mcpMethods names "tools/cal", which is no MCP method`,
      `${file}: channel.mcpMethodsReversed names "notifications/mesage", which is no MCP method`,
    ]);
    const maps = result.files.find((f) => f.path === 'maps.ts')?.contents;
    expect(maps).not.toContain('"tools/cal"');
    expect(maps).not.toContain('"notifications/mesage"');
  });

  it('a method listed in both goes both ways (a host calls a view’s own tools); one of the extension’s own is refused', async () => {
    const apps = JSON.parse(readFileSync(join(ROOT, 'schema', 'extensions', 'apps.extension.json'), 'utf8'));
    apps.channel.mcpMethodsReversed.push('tools/call');
    const dir = tempDir('mcp-methods-both');
    writeFileSync(join(dir, 'apps.extension.json'), JSON.stringify(apps));
    const both = await importGenerated(
      'channel-tables-both',
      await generated('2025-11-25', { extensions: [join(dir, 'apps.extension.json')] }),
    );
    expect(both.CHANNEL_CLIENT_REQUEST_METHODS).toContain('tools/call');
    expect(both.CHANNEL_SERVER_REQUEST_METHODS).toContain('tools/call');
    apps.channel.mcpMethodsReversed.push('ui/message');
    writeFileSync(join(dir, 'own.extension.json'), JSON.stringify(apps));
    await expect(generated('2025-11-25', { extensions: [join(dir, 'own.extension.json')] })).rejects.toThrow(
      /own\.extension\.json.*\/channel\/mcpMethodsReversed\/4.*"ui\/message" is a method of this extension/,
    );
  });
});
