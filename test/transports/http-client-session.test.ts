/**
 * Which session the Streamable HTTP client transport keeps: only the `Mcp-Session-Id` of a POST the server
 * answered with success. A server that refuses the opening request (Python's MCP SDK discards the session it
 * made for it and answers 400 with that session's id) must not have its id sent back on the next POST: the
 * server no longer knows it and answers 404.
 */
import { describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '../../templates/transports/http/client/transport.js';

const initialize = (id: number) => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

/** A fetch that answers each POST in turn, recording the session id each carried. */
function scriptedFetch(answers: Response[]) {
  const sent: (string | null)[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    sent.push(new Headers(init?.headers).get('mcp-session-id'));
    const answer = answers.shift();
    if (answer === undefined) throw new Error('no answer scripted');
    return answer;
  };
  return { sent, fetch: fetch as typeof globalThis.fetch };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('the session id a client transport keeps', () => {
  it('is not taken from a refused POST: the next initialize goes without it', async () => {
    const { sent, fetch } = scriptedFetch([
      json(
        400,
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Bad Request' } },
        { 'mcp-session-id': 'gone' },
      ),
      json(
        200,
        {
          jsonrpc: '2.0',
          id: 2,
          result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
        },
        { 'mcp-session-id': 'kept' },
      ),
    ]);
    const transport = new StreamableHttpClientTransport('http://127.0.0.1:9/mcp', { fetch, terminateOnClose: false });
    transport.onmessage = () => undefined;
    await transport.start();
    await expect(transport.send(initialize(1))).rejects.toThrow(/HTTP 400/);
    expect(transport.sessionId).toBeUndefined();
    await transport.send(initialize(2));
    expect(sent).toEqual([null, null]);
    expect(transport.sessionId).toBe('kept');
    await transport.close();
  });
});
