/**
 * The fallback of the Streamable HTTP client to the deprecated HTTP+SSE transport (2024-11-05), as the
 * transport documents describe it: when the first POST, an `initialize`, is refused with 400, 404 or 405 and
 * its body is no recognised modern JSON-RPC error, the client GETs the same URL expecting an `endpoint` event
 * and, when it comes, speaks HTTP+SSE from then on.
 *
 * Opt-in, so that a client that never meets such a server bundles none of it:
 * `new StreamableHttpClientTransport(url, { legacySse: sseFallback() })`.
 *
 * Hand-written runtime copied unchanged into generated output (as `runtime/sse-fallback.ts`). Browser-safe.
 */
import { toError } from './http-common.js';
import { isPlainObject } from './jsonrpc.js';
import { SseLegacyClientTransport, type SseLegacyClientTransportOptions } from './sse-legacy-client.js';

export interface SseFallbackOptions {
  /**
   * URLs found to speak only HTTP+SSE: a later transport to one of them skips the failing POST and GETs the
   * stream at once (and probes again with a POST if that GET fails). Default one set shared by the process.
   */
  cache?: Set<string>;
}

/** What StreamableHttpClientTransport's `legacySse` option takes: made by `sseFallback()`. */
export interface LegacySseFallback {
  /** URLs known to speak HTTP+SSE only. */
  readonly urls: Set<string>;
  /** Whether a refused first POST (its status and body) is one to fall back on. */
  refused(status: number, body: string): boolean;
  /** GETs `url` as an HTTP+SSE stream: the started transport once its endpoint event arrived, or why not. */
  open(
    url: URL,
    fetch: typeof globalThis.fetch,
    headers: SseLegacyClientTransportOptions['headers'],
  ): Promise<SseLegacyClientTransport | string>;
}

/** The process's memory of HTTP+SSE-only URLs (see SseFallbackOptions.cache). */
const LEGACY_SSE_URLS = new Set<string>();

/** JSON-RPC error codes only a modern (2026-07-28 on) server answers a refused request with. */
const MODERN_ERROR_CODES: readonly number[] = [-32020, -32021, -32022, -32601];

/** The HTTP+SSE fallback for `StreamableHttpClientTransport` (its `legacySse` option). */
export function sseFallback(options: SseFallbackOptions = {}): LegacySseFallback {
  return {
    urls: options.cache ?? LEGACY_SSE_URLS,
    refused: (status, body) => (status === 400 || status === 404 || status === 405) && !isModernError(body),
    async open(url, fetch, headers) {
      const legacy = new SseLegacyClientTransport(url, { fetch, ...(headers === undefined ? {} : { headers }) });
      try {
        await legacy.start();
      } catch (error) {
        return toError(error).message;
      }
      return legacy;
    },
  };
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
