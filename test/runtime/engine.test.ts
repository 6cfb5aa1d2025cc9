/**
 * RpcEngine, the core the MCP client runs on (engine.ts): it reads text frames only with the reader its
 * transport brings, and refuses batches; RpcPeer (the same engine with both) is covered by peer-frames.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { RpcEngine } from '../../templates/core/engine.js';
import type { PeerDiagnostic } from '../../templates/core/peer-types.js';
import { readFrame } from '../../templates/core/frame.js';
import type { Transport } from '../../templates/core/transport.js';
import { RecordingTransport, settle } from './recording-transport.js';

class TextTransport extends RecordingTransport {
  ontext?: (text: string) => void;
  readonly readFrame = readFrame;
}

function makeEngine(transport: RecordingTransport & Pick<Transport, 'ontext'>) {
  const diagnostics: PeerDiagnostic[] = [];
  const engine = new RpcEngine(transport, { onDiagnostic: (d) => diagnostics.push(d) });
  engine.setRequestHandler('echo', (params) => ({ echoed: params ?? null }));
  return { engine, diagnostics };
}

describe('RpcEngine', () => {
  it('reads text with the transport’s reader: answers it like RpcPeer, parse errors included', async () => {
    const transport = new TextTransport();
    makeEngine(transport);
    transport.ontext!('{"jsonrpc":"2.0","id":1,"method":"echo"}');
    transport.ontext!('not json');
    await settle();
    expect(transport.sent).toEqual([
      { jsonrpc: '2.0', id: 1, result: { echoed: null } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
    ]);
  });

  it('without a reader, installs no ontext (the transport parses) and drops text handed to receive()', async () => {
    const transport: RecordingTransport & Pick<Transport, 'ontext'> = new RecordingTransport();
    const { engine, diagnostics } = makeEngine(transport);
    expect(transport.ontext).toBeUndefined();
    engine.receive('{"jsonrpc":"2.0","id":1,"method":"echo"}');
    engine.receive({ jsonrpc: '2.0', id: 2, method: 'echo' });
    await settle();
    expect(transport.sent).toEqual([{ jsonrpc: '2.0', id: 2, result: { echoed: null } }]);
    expect(diagnostics.map((d) => d.kind)).toEqual(['invalid-frame']);
  });

  it('refuses batches as a peer with batches off does', async () => {
    const transport = new RecordingTransport();
    const { engine } = makeEngine(transport);
    engine.receive([{ jsonrpc: '2.0', id: 1, method: 'echo' }]);
    engine.receive([]);
    await settle();
    const refusal = (reason: string) => ({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: `Invalid Request: ${reason}` },
    });
    expect(transport.sent).toEqual([refusal('batches are not supported'), refusal('empty batch')]);
  });
});
