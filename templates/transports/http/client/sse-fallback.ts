/**
 * The fallback of the Streamable HTTP client to the deprecated HTTP+SSE transport (2024-11-05), as the
 * transport documents describe it: when the first POST, an `initialize`, is refused with 400, 404 or 405 and
 * its body is no recognised modern JSON-RPC error, the client GETs the same URL expecting an `endpoint` event
 * and, when it comes, speaks HTTP+SSE from then on.
 *
 * Opt-in, so that a client that never meets such a server bundles none of it:
 * `new StreamableHttpClientTransport(url, { legacySse: sseFallback() })`.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import { toError } from '../common.js';
import type { StreamOwner } from './read-sse.js';
import { isPlainObject } from '../../../core/jsonrpc.js';
import { SseLegacyClientTransport, type SseLegacyClientTransportOptions } from '../../sse/client.js';

export interface SseFallbackOptions {
  /**
   * URLs found to speak only HTTP+SSE: a later transport to one of them skips the failing POST and GETs the
   * stream at once (and probes again with a POST if that GET fails). Default one set shared by the process.
   */
  cache?: Set<string>;
}

/** What the Streamable HTTP transport shows the fallback: its URL, fetch and delivery, and itself. */
export interface FallbackHost extends Pick<StreamOwner, 'url' | 'fetch' | 'closed' | 'receive' | 'error'> {
  /** The StreamableHttpClientTransport itself: what the HTTP+SSE transport takes on from it. */
  readonly transport: { readonly protocolVersion: string | undefined; close(): Promise<void> };
  readonly extraHeaders: SseLegacyClientTransportOptions['headers'];
}

/**
 * What StreamableHttpClientTransport's `legacySse` option takes: made by `sseFallback()`. The transport asks
 * it only about the POST that opens its first session (an `initialize`, nothing answered yet); when it returns
 * an HTTP+SSE transport, every later message goes through that one. All the fallback's decisions live here, so
 * a transport without the option bundles none of them.
 */
export interface LegacySseFallback {
  /**
   * Before that POST: when the URL spoke HTTP+SSE before, the HTTP+SSE transport now in use, or why it could not
   * be reached (the URL is forgotten); undefined when not tried.
   */
  before(host: FallbackHost): Promise<SseLegacyClientTransport | string | undefined>;
  /**
   * After that POST was refused: the HTTP+SSE transport now in use, or what to add to the refusal's message
   * ('' when there was nothing to try). `tried` is what `before` returned.
   */
  refused(
    host: FallbackHost,
    status: number,
    body: string,
    tried: string | undefined,
  ): Promise<SseLegacyClientTransport | string>;
}

/** The process's memory of HTTP+SSE-only URLs (see SseFallbackOptions.cache). */
const LEGACY_SSE_URLS = new Set<string>();

/**
 * JSON-RPC error codes only a modern (2026-07-28 on) server answers a refused request with: the transport
 * document's "unsupported version, unknown method, or header-validation failure". Written here rather than
 * read from the model on purpose: the fallback serves clients of the initialize era, whose own schema
 * predates these codes and cannot name them.
 */
const MODERN_ERROR_CODES: readonly number[] = [-32020, -32021, -32022, -32601];

/** The HTTP+SSE fallback for `StreamableHttpClientTransport` (its `legacySse` option). */
export function sseFallback(options: SseFallbackOptions = {}): LegacySseFallback {
  const urls = options.cache ?? LEGACY_SSE_URLS;
  return {
    async before(host) {
      if (!urls.has(host.url.href)) return undefined;
      const legacy = await switchToSse(host, urls);
      if (typeof legacy === 'string') urls.delete(host.url.href);
      return legacy;
    },
    async refused(host, status, body, tried) {
      if (tried !== undefined) return `; no HTTP+SSE endpoint either (${tried})`;
      if ((status !== 400 && status !== 404 && status !== 405) || isModernError(body)) return '';
      const legacy = await switchToSse(host, urls);
      return typeof legacy === 'string' ? `; no HTTP+SSE endpoint either (${legacy})` : legacy;
    },
  };
}

/**
 * GETs the host's URL as an HTTP+SSE stream; on its endpoint event, routes everything through it. The host's fetch
 * is the Streamable HTTP transport's, its `auth` option included: the HTTP+SSE one gets no `auth` of its own.
 */
async function switchToSse(host: FallbackHost, urls: Set<string>): Promise<SseLegacyClientTransport | string> {
  const headers = host.extraHeaders;
  const legacy = new SseLegacyClientTransport(host.url, {
    fetch: host.fetch,
    ...(headers === undefined ? {} : { headers }),
  });
  try {
    await legacy.start();
  } catch (error) {
    return toError(error).message;
  }
  if (host.closed()) {
    await legacy.close();
    return 'the transport was closed meanwhile';
  }
  legacy.onmessage = (frame) => void host.receive(frame, undefined);
  legacy.onerror = (error) => host.error(error);
  legacy.onclose = () => void host.transport.close();
  const version = host.transport.protocolVersion;
  if (version !== undefined) legacy.setProtocolVersion(version);
  urls.add(host.url.href);
  return legacy;
}
/** Whether a response body is a recognised modern JSON-RPC error (then the server is no HTTP+SSE one). */
function isModernError(body: string): boolean {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return false;
  }
  return (Array.isArray(data) ? data : [data]).some((item) => {
    const error = isPlainObject(item) ? item['error'] : undefined;
    return isPlainObject(error) && MODERN_ERROR_CODES.includes(error['code'] as number);
  });
}
