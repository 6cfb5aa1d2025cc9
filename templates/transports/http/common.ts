/**
 * What both sides of the Streamable HTTP transport share: telling requests from responses and keying requests
 * by id. Browser-safe (no `node:` imports).
 */
import { isPlainObject, type RequestId } from '../../core/jsonrpc.js';
import type { JsonRpcFrame } from '../../core/transport.js';

/** One JSON-RPC message (a batch is an array of these). */
export type WireMessage = Exclude<JsonRpcFrame, unknown[]>;

export function isRequest(m: WireMessage): m is WireMessage & { id: RequestId; method: string } {
  return 'method' in m && 'id' in m && m.id !== undefined;
}

/** Whether a received value is a response (it may be anything: the engine checks it, see core/frame.ts). */
export function isResponse(m: unknown): m is WireMessage & { id?: RequestId | null } {
  return isPlainObject(m) && !('method' in m) && ('result' in m || 'error' in m);
}

export function isInitializeRequest(m: WireMessage): m is WireMessage & { id: RequestId; method: string } {
  return isRequest(m) && m.method === 'initialize';
}

/** A Content-Type header's media type, lower case, without parameters (`''` when absent). */
export function mediaType(header: string | null | undefined): string {
  return (header ?? '').replace(/;.*/s, '').trim().toLowerCase();
}

export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/**
 * A failure of the HTTP exchange itself (status and body text), as opposed to a JSON-RPC error the server
 * answered with. A 401 or 403 carries the server's `WWW-Authenticate` as it came; the transports' `auth` option
 * (`oauthClient()`, `@mcp-typegen/runtime/auth`) is what reads it and authorizes.
 */
export class StreamableHttpError extends Error {
  override readonly name = 'StreamableHttpError';
  declare readonly status: number;
  declare readonly body: string | undefined;
  declare readonly wwwAuthenticate: string | undefined;

  constructor(status: number, message: string, body?: string, wwwAuthenticate?: string) {
    super(message);
    this.status = status;
    this.body = body;
    this.wwwAuthenticate = wwwAuthenticate;
  }
}

/** A request id as a map key: 1 and "1" are different requests. */
export function key(id: RequestId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/** The DNS-rebinding checks every HTTP server transport shares (Streamable HTTP, HTTP+SSE, WebSocket upgrades). */
export interface DnsRebindingOptions {
  /**
   * Allowed `Host` header values: a hostname (any port) or `host:port`. Default localhost, 127.0.0.1 and
   * [::1], any port.
   */
  allowedHosts?: string[] | undefined;
  /**
   * Allowed `Origin` header values (exact, e.g. `http://localhost:5173`), checked when the header is present.
   * Default: any origin whose hostname is localhost, 127.0.0.1 or [::1].
   */
  allowedOrigins?: string[] | undefined;
  /** Turns the Host/Origin checks off (e.g. behind a proxy that already does them). Default true. */
  dnsRebindingProtection?: boolean | undefined;
  /**
   * Where the server says what a deployer must know: a Host or Origin it refused, an origin that gets no CORS
   * headers — once each, so a page that fails with "Failed to fetch" leaves its reason in the server's log.
   * Default `console.warn`.
   */
  log?: ((message: string) => void) | undefined;
}

/** A reporter that says each thing once: at most 256 distinct ones, so made-up Origins cannot grow it. */
export function onceEach(log: ((message: string) => void) | undefined): (key: string, message: string) => void {
  const told = new Set<string>();
  return (key, message) => {
    if (told.has(key) || told.size >= 256) return;
    told.add(key);
    (log ?? console.warn)(message);
  };
}

/**
 * CORS: which browser origins may read the answers. Its own option, apart from the DNS-rebinding checks
 * (those decide which Host and Origin may send at all; an origin must pass both): turning those off opens no
 * CORS, and listing an origin here lets it past no rebinding check.
 */
export interface CorsOptions {
  /**
   * Origins that get CORS headers (exact, e.g. `https://app.example`), or `'*'`: any origin, answered with `*`
   * (never the request's own origin, and never with credentials).
   */
  origins: readonly string[] | '*';
  /** `Access-Control-Allow-Credentials: true` for the listed origins (cookies, HTTP auth). Default false. */
  credentials?: boolean | undefined;
}

/** Refuses a `cors` option that would hand credentials to every origin (checked when a server is created). */
export function checkCors(cors: CorsOptions | undefined): void {
  if (cors?.origins === '*' && cors.credentials) {
    throw new Error("cors: credentials cannot be allowed for origins '*'; list the origins");
  }
}

/** The CORS headers a request's Origin gets: none unless `cors` allows it. */
export function corsAllowed(cors: CorsOptions | undefined, origin: string | undefined): Record<string, string> {
  if (cors === undefined || origin === undefined) return {};
  if (cors.origins === '*') return { 'access-control-allow-origin': '*' };
  const listed = cors.origins.some((o) => o.toLowerCase() === origin.toLowerCase());
  if (!listed) return { vary: 'origin' };
  const headers: Record<string, string> = { 'access-control-allow-origin': origin, vary: 'origin' };
  if (cors.credentials) headers['access-control-allow-credentials'] = 'true';
  return headers;
}

const LOCAL_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Builds the Host/Origin check: it returns why a request must be refused with 403, or undefined when it
 * passes. A local server reachable through a rebound DNS name sees a foreign Host or Origin and refuses it.
 */
export function dnsRebindingGuard(
  options: DnsRebindingOptions,
  report: (key: string, message: string) => void = onceEach(options.log),
): (host: string | undefined, origin: string | undefined) => string | undefined {
  if (options.dnsRebindingProtection === false) return () => undefined;
  const allowedHosts = options.allowedHosts?.map((h) => h.toLowerCase());
  const allowedOrigins = options.allowedOrigins?.map((o) => o.toLowerCase());
  const hostAllowed = (host: string | undefined): boolean => {
    if (!host) return false;
    const h = host.toLowerCase();
    if (allowedHosts) return allowedHosts.includes(h) || allowedHosts.includes(hostnameOf(h));
    return LOCAL_HOSTNAMES.includes(hostnameOf(h));
  };
  const originAllowed = (origin: string): boolean => {
    const o = origin.toLowerCase();
    if (allowedOrigins) return allowedOrigins.includes(o);
    try {
      return LOCAL_HOSTNAMES.includes(new URL(o).hostname);
    } catch {
      return false;
    }
  };
  return (host, origin) => {
    if (!hostAllowed(host)) {
      report(
        `host ${host ?? ''}`,
        `MCP server: refused Host ${JSON.stringify(host ?? '')} (403); allow it with allowedHosts`,
      );
      return `Forbidden: Host ${JSON.stringify(host ?? '')} is not allowed`;
    }
    if (origin !== undefined && !originAllowed(origin)) {
      report(`origin ${origin}`, `MCP server: refused Origin ${origin} (403); allow it with allowedOrigins (and cors)`);
      return `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`;
    }
    return undefined;
  };
}

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  const colon = host.indexOf(':');
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}
