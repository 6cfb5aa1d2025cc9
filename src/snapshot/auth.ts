/// <reference types="node" preserve="true" />
/**
 * `snapshot --url … --auth`: OAuth 2.1 for the server, with the runtime's own OAuth client (templates/auth/client/,
 * the one generated clients use).
 *
 * - A person at a terminal: the authorization code flow through a loopback redirect (RFC 8252 §7.3). A listener on
 *   127.0.0.1 (a free port, or `--auth-port`) is the redirect URI; the authorization URL is printed on stderr (and
 *   opened in the browser when stderr is a terminal); the browser's return to the listener finishes it.
 * - CI: client credentials, from MCP_TYPEGEN_AUTH_CLIENT_ID and MCP_TYPEGEN_AUTH_CLIENT_SECRET. An id without a secret
 *   is a pre-registered client for the code flow.
 *
 * Tokens and client registrations are kept in `<cache>/auth/oauth.json` (mode 0600, in a 0700 folder; the cache
 * folder of src/load/cache.ts), so the next run uses them, refreshed when they expired.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  keyValueStore,
  oauthClient,
  type AuthStore,
  type HttpClientAuth,
  type OAuthClientOptions,
} from '../../templates/auth.js';
import { cacheRoot } from '../load/cache.js';
import { InputError } from '../errors.js';
import { jsonFileStorage } from './auth-file.js';
import { AUTH_ENV } from './auth-env.js';

export interface SnapshotAuthOptions {
  env: NodeJS.ProcessEnv;
  /** The loopback port of the redirect URI (a pre-registered client's); default a free one. */
  port?: number | undefined;
  /** Where the authorization URL is shown. Default stderr. */
  tell?: (line: string) => void;
  /** Open the authorization URL in the browser. Default: when stderr is a terminal. */
  openBrowser?: boolean;
}

/** The OAuth client for the snapshot's transport, and the listener to stop afterwards. */
export interface SnapshotAuth {
  auth: HttpClientAuth;
  /** A person has to act: the first request may wait for them (minutes, not the usual seconds). */
  interactive: boolean;
  close(): Promise<void>;
}

/** Starts what `--auth` needs: the file store and, for the code flow, the loopback listener. */
export async function startSnapshotAuth(options: SnapshotAuthOptions): Promise<SnapshotAuth> {
  const store = keyValueStore(jsonFileStorage(join(cacheRoot(options.env), 'auth', 'oauth.json')));
  const clientId = options.env[AUTH_ENV.clientId] || undefined;
  const clientSecret = options.env[AUTH_ENV.clientSecret] || undefined;
  if (clientSecret !== undefined) {
    if (clientId === undefined)
      throw new InputError(AUTH_ENV.clientSecret, undefined, `is set without ${AUTH_ENV.clientId}`);
    const auth = oauthClient({
      grant: 'client_credentials',
      client: { client_id: clientId, client_secret: clientSecret },
      store,
    });
    return { auth, interactive: false, close: async () => undefined };
  }
  return codeFlow(options, store, clientId);
}

/** The code flow: the listener is the redirect URI, the user's browser does the rest. */
async function codeFlow(
  options: SnapshotAuthOptions,
  store: AuthStore,
  clientId: string | undefined,
): Promise<SnapshotAuth> {
  let finish: (url: string) => Promise<void> = async () => undefined;
  const listener = createServer((req, res) => void callback(req, res, finish));
  await new Promise<void>((resolve, reject) => {
    listener.once('error', (error) =>
      reject(new InputError('--auth-port', undefined, `cannot listen on 127.0.0.1:${options.port} (${error.message})`)),
    );
    listener.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const redirectUri = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
  const tell = options.tell ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const open = options.openBrowser ?? process.stderr.isTTY === true;
  const settings: OAuthClientOptions = {
    redirectUri,
    redirect: (url) => {
      tell(`snapshot: to authorize mcp-typegen, open ${url.href}`);
      if (open) openInBrowser(url.href);
    },
    registration: { client_name: 'mcp-typegen snapshot', application_type: 'native' },
    store,
    ...(clientId === undefined ? {} : { client: { client_id: clientId } }),
  };
  const client = oauthClient(settings);
  finish = (url) => client.finishAuthorization(url);
  return {
    auth: client,
    interactive: true,
    close: () =>
      new Promise<void>((resolve) => {
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  };
}

/** The browser's return: finishes the authorization and says so in the page. */
async function callback(
  req: IncomingMessage,
  res: ServerResponse,
  finish: (url: string) => Promise<void>,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname !== '/callback') {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  try {
    await finish(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? ''}`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('mcp-typegen is authorized; you can close this page.\n');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    res.writeHead(400, { 'content-type': 'text/plain' }).end(`mcp-typegen was not authorized: ${why}\n`);
  }
}

/** The platform's opener; the URL is printed anyway, so a failure to open changes nothing. */
function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    spawn(command, args, { stdio: 'ignore', detached: true })
      .on('error', () => undefined)
      .unref();
  } catch {
    // Printed above.
  }
}
