/**
 * Capture a live server's tool surface with the runtime's own client (templates/, the code generated
 * clients run on; the CLI never depends on the official SDK): connect over stdio (a command) or a URL
 * (Streamable HTTP, falling back to HTTP+SSE), negotiate any version the given protocol speaks, and page
 * through tools/list, prompts/list, resources/list and resources/templates/list where the server offers
 * them.
 */
import { McpClientBase } from '../../templates/peer/client-base.js';
import type { AnyNotificationTable, AnyRequestTable } from '../../templates/core/peer-types.js';
import type { ProtocolDescription } from '../../templates/peer/protocol.js';
import type { Transport } from '../../templates/core/transport.js';
import { StdioClientTransport } from '../../templates/transports/stdio/stdio.js';
import { StreamableHttpClientTransport } from '../../templates/transports/http/client/transport.js';
import { sseFallback } from '../../templates/transports/http/client/sse-fallback.js';
import type { HttpClientAuth } from '../../templates/auth/client/hook.js';
import { METADATA_HEADERS } from '../../templates/peer/http-headers.js';
import { InputError } from '../errors.js';
import { isJsonObject, keyedList, type Snapshot, type SnapshotList } from '../load/snapshot-file.js';

/** Where the server is: a command line (stdio) or a URL (HTTP, with OAuth when `auth` is given). */
export type ServerTarget =
  | { kind: 'command'; command: string; args: string[]; env?: Record<string, string> }
  | { kind: 'url'; url: string; headers: Record<string, string>; auth?: SnapshotAuthorization };

/** `--auth`: the OAuth client, and whether its first request may wait for a person (in a browser). */
export interface SnapshotAuthorization {
  client: HttpClientAuth;
  interactive: boolean;
}

/** How long a request may wait for the person authorizing in a browser (the OAuth client's own default). */
const USER_WAIT_MS = 600_000;

/** The lists, the capability that offers each, and the member of the result holding the entries. */
const LISTS: readonly { list: SnapshotList; method: string; capability: string; member: string }[] = [
  { list: 'tools', method: 'tools/list', capability: 'tools', member: 'tools' },
  { list: 'prompts', method: 'prompts/list', capability: 'prompts', member: 'prompts' },
  { list: 'resources', method: 'resources/list', capability: 'resources', member: 'resources' },
  {
    list: 'resourceTemplates',
    method: 'resources/templates/list',
    capability: 'resources',
    member: 'resourceTemplates',
  },
];

/** Pages at most: a server whose cursors never end is an error, not a hang. */
const MAX_PAGES = 1000;

/** Untyped: the snapshot reads results as JSON, whatever the version. */
type Client = McpClientBase<AnyRequestTable, AnyNotificationTable, AnyRequestTable, AnyNotificationTable>;

export function captureSnapshot(
  target: ServerTarget,
  protocol: ProtocolDescription,
  clientVersion: string,
): Promise<Snapshot> {
  const where = target.kind === 'command' ? [target.command, ...target.args].join(' ') : target.url;
  // A person authorizing in a browser answers in minutes: the first request (the probe included) waits for them.
  const waits = target.kind === 'url' && target.auth?.interactive === true;
  return captureOver(transportFor(target), where, protocol, clientVersion, waits ? USER_WAIT_MS : undefined);
}

/** The same over a transport at hand (`where` names the server in errors); the transport is closed after. */
export async function captureOver(
  transport: Transport,
  where: string,
  protocol: ProtocolDescription,
  clientVersion: string,
  timeoutMs?: number,
): Promise<Snapshot> {
  const client: Client = new McpClientBase(
    transport,
    protocol,
    {
      clientInfo: { name: 'mcp-typegen', version: clientVersion },
      ...(timeoutMs === undefined ? {} : { timeout: timeoutMs, probeTimeout: timeoutMs }),
    },
    // As a generated client of the version does: from 2026-07-28 on, each POST states its version in headers.
    protocol.features.perRequestMeta ? METADATA_HEADERS : undefined,
  );
  try {
    await client.connect();
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new InputError(where, undefined, `could not connect: ${message(error)}`);
  }
  try {
    const capabilities = client.serverCapabilities ?? {};
    const info = client.serverInfo;
    const snapshot: Snapshot = {
      mcpSnapshot: 1,
      // As the server sent it; a server that names no version (or itself not at all) is recorded so.
      server: { ...info },
      ...(client.negotiatedVersion !== undefined ? { protocolVersion: client.negotiatedVersion } : {}),
      capabilities,
      ...(client.instructions !== undefined ? { instructions: client.instructions } : {}),
      tools: {},
    };
    for (const { list, method, capability, member } of LISTS) {
      if (!Object.hasOwn(capabilities, capability)) continue;
      const entries = await pageThrough(client, method, member, where);
      snapshot[list] = keyedList(list, entries, `${where} (${method})`);
    }
    return snapshot;
  } finally {
    await client.close();
  }
}

function transportFor(target: ServerTarget): Transport {
  if (target.kind === 'command')
    return new StdioClientTransport({
      command: target.command,
      args: target.args,
      ...(target.env ? { env: target.env } : {}),
      // The server's log lines are the user's to see; the snapshot itself goes to a file or stdout.
      stderr: 'inherit',
    });
  return new StreamableHttpClientTransport(target.url, {
    headers: target.headers,
    legacySse: sseFallback(),
    ...(target.auth === undefined ? {} : { auth: target.auth.client }),
  });
}

/** Every entry of a paginated list, following `nextCursor` until it is absent. */
async function pageThrough(client: Client, method: string, member: string, where: string): Promise<unknown[]> {
  const entries: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    let result: unknown;
    try {
      result = await client.request(method, cursor === undefined ? {} : { cursor });
    } catch (error) {
      throw new InputError(where, undefined, `${method} failed: ${message(error)}`);
    }
    const items = isJsonObject(result) ? result[member] : undefined;
    if (!Array.isArray(items)) throw new InputError(where, undefined, `${method} answered without a "${member}" array`);
    entries.push(...items);
    const next = isJsonObject(result) ? result.nextCursor : undefined;
    if (typeof next !== 'string') return entries;
    cursor = next;
  }
  throw new InputError(where, undefined, `${method} still had a next page after ${MAX_PAGES} pages`);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
