/**
 * The frame corpus of the generated server (frame-corpus.ts holds the engine's): frames whose answer comes from
 * the MCP lifecycle and the generated validators, not from JSON-RPC alone, each with the answer every
 * transport must give. Each was decided once, from the 2026-07-28 documents and the SEPs, and holds on every
 * transport (frame-corpus-server.test.ts runs them over in-memory, stdio, Streamable HTTP, WebSocket, HTTP+SSE
 * and postMessage).
 *
 * | case                                            | the JSON-RPC answer (every transport)          | Streamable HTTP status  |
 * | ----------------------------------------------- | ---------------------------------------------- | ----------------------- |
 * | 2026-07-28 `_meta` without clientCapabilities,  | -32602 (basic/index.mdx: a request missing a   | 400 (the same section)  |
 * |   with a garbled one, with a non-string version | required `_meta` field is malformed)           |                         |
 * | `initialize` carrying 2026-07-28 `_meta`        | -32601 (versioning.mdx: a request with modern  | 404 (-32601's status)   |
 * |                                                 | `_meta` is served as 2026-07-28, which has no  |                         |
 * |                                                 | initialize)                                    |                         |
 * | `initialize` on the 2026-07-28 HTTP wire        | HTTP only: the header makes it a modern request| 404                     |
 * | legacy session: `_meta` that is not an object   | -32602 at `/_meta` (the schema), on the        | 200                     |
 * |                                                 | 2026-07-28 server as on the 2025-11-25 one     |                         |
 * | a second `initialize`, whatever its params      | -32600: the lifecycle refuses it before its    | 400                     |
 * |                                                 | params are read                                |                         |
 * | an empty or whitespace-only frame (a stdio line | -32700 id null: not JSON (JSON-RPC §4.2); a    | 400                     |
 * |   too)                                          | stdio line is a message (stdio.mdx)            |                         |
 * | 2025-03-26 batch `[initialize, ping]`           | every member answered: initialize -32600 (not  | 400, the array; the ping|
 * |                                                 | in a batch), ping {} (allowed before it)       | -32000: no session      |
 *
 * postMessage carries objects, not text: the text-only cases do not apply to it.
 */
import type { Answer, Expected } from './frame-corpus.js';

export type ServerVersion = '2025-03-26' | '2025-11-25' | '2026-07-28';
export type ServerTransport = 'memory' | 'stdio' | 'http' | 'websocket' | 'sse' | 'post-message';

export interface ServerCase {
  name: string;
  versions: readonly ServerVersion[];
  /** `initialized`: the connection (HTTP: session) first opens with a legacy `initialize`. */
  opening: 'fresh' | 'initialized';
  text: string;
  /** The answer, or undefined where the case does not apply (postMessage and text). */
  expect: (version: ServerVersion, transport: ServerTransport) => Expected | undefined;
}

const V26 = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': V26, 'io.modelcontextprotocol/clientCapabilities': {} };
const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'corpus', version: '1' } };
const call = (id: string, meta: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 't', _meta: meta } });

/** The same answer everywhere, with `status` over Streamable HTTP. */
const everywhere =
  (answer: Answer, status: number, opts: { textOnly?: boolean } = {}): ServerCase['expect'] =>
  (_version, transport) => {
    if (opts.textOnly && transport === 'post-message') return undefined;
    return transport === 'http' ? { answers: [answer], status } : { answers: [answer] };
  };

export const SERVER_CORPUS: readonly ServerCase[] = [
  {
    name: '2026-07-28 _meta without clientCapabilities',
    versions: [V26],
    opening: 'fresh',
    text: call('m1', { 'io.modelcontextprotocol/protocolVersion': V26 }),
    expect: everywhere({ code: -32602, id: 'm1' }, 400),
  },
  {
    name: '2026-07-28 _meta with clientCapabilities that is not an object',
    versions: [V26],
    opening: 'fresh',
    text: call('m2', { ...META, 'io.modelcontextprotocol/clientCapabilities': 'all of them' }),
    expect: everywhere({ code: -32602, id: 'm2' }, 400),
  },
  {
    name: '2026-07-28 _meta whose protocolVersion is not a string',
    versions: [V26],
    opening: 'fresh',
    text: call('m3', { ...META, 'io.modelcontextprotocol/protocolVersion': 20260728 }),
    expect: everywhere({ code: -32602, id: 'm3' }, 400),
  },
  {
    name: 'initialize carrying 2026-07-28 _meta',
    versions: [V26],
    opening: 'fresh',
    text: JSON.stringify({ jsonrpc: '2.0', id: 'i1', method: 'initialize', params: { ...INIT, _meta: META } }),
    expect: everywhere({ code: -32601, id: 'i1' }, 404),
  },
  {
    name: 'initialize without _meta (the 2026-07-28 HTTP wire: a modern request)',
    versions: [V26],
    opening: 'fresh',
    text: JSON.stringify({ jsonrpc: '2.0', id: 'i2', method: 'initialize', params: INIT }),
    expect: (_version, transport) =>
      transport === 'http'
        ? { answers: [{ code: -32601, id: 'i2' }], status: 404 }
        : { answers: [{ code: 0, id: 'i2' }] },
  },
  {
    name: 'legacy session: _meta that is not an object',
    versions: ['2025-11-25', V26],
    opening: 'initialized',
    text: call('l1', 'x'),
    expect: everywhere({ code: -32602, id: 'l1' }, 200),
  },
  {
    name: 'a second initialize with a bad protocolVersion',
    versions: ['2025-03-26', '2025-11-25', V26],
    opening: 'initialized',
    text: JSON.stringify({ jsonrpc: '2.0', id: 'i3', method: 'initialize', params: { ...INIT, protocolVersion: 7 } }),
    expect: everywhere({ code: -32600, id: 'i3' }, 400),
  },
  {
    name: 'an empty frame',
    versions: ['2025-03-26', '2025-11-25', V26],
    opening: 'fresh',
    text: '',
    expect: everywhere({ code: -32700, id: null }, 400, { textOnly: true }),
  },
  {
    name: 'a whitespace-only frame',
    versions: ['2025-03-26', '2025-11-25', V26],
    opening: 'fresh',
    text: ' \t ',
    expect: everywhere({ code: -32700, id: null }, 400, { textOnly: true }),
  },
  {
    name: '2025-03-26 batch [initialize, ping]',
    versions: ['2025-03-26'],
    opening: 'fresh',
    text: JSON.stringify([
      { jsonrpc: '2.0', id: 'b-init', method: 'initialize', params: { ...INIT, protocolVersion: '2025-03-26' } },
      { jsonrpc: '2.0', id: 'b-ping', method: 'ping' },
    ]),
    expect: (_version, transport) =>
      transport === 'http'
        ? {
            answers: [
              { code: -32600, id: 'b-init' },
              { code: -32000, id: 'b-ping' },
            ],
            batch: true,
            status: 400,
          }
        : {
            answers: [
              { code: -32600, id: 'b-init' },
              { code: 0, id: 'b-ping' },
            ],
            batch: true,
          },
  },
];
