/**
 * What both sides of the Streamable HTTP transport share: recognising JSON-RPC messages on the wire and
 * keying requests by id. Browser-safe (no `node:` imports).
 */
import { isPlainObject, type RequestId } from './jsonrpc.js';
import type { JsonRpcFrame } from './transport.js';

/** One JSON-RPC message (a batch is an array of these). */
export type WireMessage = Exclude<JsonRpcFrame, unknown[]>;

export function isWireMessage(value: unknown): value is WireMessage {
  if (!isPlainObject(value) || value['jsonrpc'] !== '2.0') return false;
  if ('method' in value) {
    if (typeof value['method'] !== 'string') return false;
    if ('id' in value && typeof value['id'] !== 'string' && typeof value['id'] !== 'number') return false;
    return value['params'] === undefined || isPlainObject(value['params']) || Array.isArray(value['params']);
  }
  if ('id' in value && value['id'] !== null && typeof value['id'] !== 'string' && typeof value['id'] !== 'number') {
    return false;
  }
  return ('result' in value && 'id' in value) !== 'error' in value;
}

export function isRequest(m: WireMessage): m is WireMessage & { id: RequestId; method: string } {
  return 'method' in m && 'id' in m && m.id !== undefined;
}

export function isResponse(m: WireMessage): m is WireMessage & { id?: RequestId | null } {
  return !('method' in m) && ('result' in m || 'error' in m);
}

export function isInitializeRequest(m: WireMessage): boolean {
  return isRequest(m) && m.method === 'initialize';
}

export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** A request id as a map key: 1 and "1" are different requests. */
export function key(id: RequestId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}
