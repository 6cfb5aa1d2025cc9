/**
 * A minimal hand-written MCP server on top of one StreamableHttpServerTransport — enough JSON-RPC to talk to
 * the SDK's Client: initialize, ping, tools/list and a few tools/call behaviours.
 */
import type {
  StreamableHttpServerTransport,
  HttpMessageExtraInfo,
} from '../../../templates/transports/http/server/endpoint.js';
import type { JsonRpcFrame } from '../../../templates/core/transport.js';

type Msg = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: any; result?: any; error?: any };

export const TOOLS = [
  { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } },
  { name: 'progress', description: 'Sends progress then answers', inputSchema: { type: 'object' } },
  { name: 'ask_client', description: 'Pings the client mid-call', inputSchema: { type: 'object' } },
  { name: 'reconnect', description: 'Closes its SSE stream, answers later', inputSchema: { type: 'object' } },
];

export function respond(transport: StreamableHttpServerTransport, log: Msg[] = []): void {
  let nextId = 1;
  const waiting = new Map<string | number, (m: Msg) => void>();
  const send = (m: Msg, relatedRequestId?: string | number) =>
    transport.send(m as JsonRpcFrame, relatedRequestId === undefined ? undefined : { relatedRequestId });

  transport.onmessage = (frame: JsonRpcFrame, extra?: HttpMessageExtraInfo) => {
    const m = frame as Msg;
    log.push(m);
    if (m.method === undefined) {
      if (m.id !== undefined) waiting.get(m.id)?.(m);
      return;
    }
    if (m.id === undefined) return; // notification
    const id = m.id;
    const reply = (result: unknown) => void send({ jsonrpc: '2.0', id, result });
    void (async () => {
      switch (m.method) {
        case 'initialize':
          return reply({
            protocolVersion: m.params.protocolVersion,
            capabilities: { tools: { listChanged: true } },
            serverInfo: { name: 'hand-written', version: '1.0.0' },
          });
        case 'ping':
          return reply({});
        case 'tools/list':
          return reply({ tools: TOOLS });
        case 'tools/call': {
          const token = m.params._meta?.progressToken;
          switch (m.params.name) {
            case 'echo':
              return reply({ content: [{ type: 'text', text: String(m.params.arguments?.message) }] });
            case 'progress':
              if (token !== undefined) {
                await send(
                  {
                    jsonrpc: '2.0',
                    method: 'notifications/progress',
                    params: { progressToken: token, progress: 1, total: 2 },
                  },
                  id,
                );
                await send(
                  {
                    jsonrpc: '2.0',
                    method: 'notifications/progress',
                    params: { progressToken: token, progress: 2, total: 2 },
                  },
                  id,
                );
              }
              return reply({ content: [{ type: 'text', text: 'done' }] });
            case 'ask_client': {
              const pingId = `server-${nextId++}`;
              const answer = new Promise<Msg>((resolve) => waiting.set(pingId, resolve));
              await send({ jsonrpc: '2.0', id: pingId, method: 'ping' }, id);
              const got = await answer;
              return reply({ content: [{ type: 'text', text: `client answered ${JSON.stringify(got.result)}` }] });
            }
            case 'reconnect': {
              const delay = Number(m.params.arguments?.delayMs ?? 100);
              extra?.closeSSEStream?.();
              await new Promise((r) => setTimeout(r, delay));
              await send(
                { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'while away' } },
                id,
              );
              return reply({ content: [{ type: 'text', text: 'after reconnect' }] });
            }
          }
          return void send({ jsonrpc: '2.0', id, error: { code: -32602, message: 'Unknown tool' } });
        }
        default:
          return void send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
      }
    })();
  };
}
