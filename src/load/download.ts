/// <reference types="node" preserve="true" />
/**
 * Downloading a schema over HTTP(S): the one place mcp-typegen touches the network.
 *
 * undici's EnvHttpProxyAgent is used rather than Node's global fetch because Node 20's fetch ignores
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY, which corporate CI needs; writing CONNECT tunnelling and
 * NO_PROXY matching by hand would be more code to get wrong. undici is loaded only when a download
 * actually happens, so commands that find their schema locally never pay for it.
 *
 * Every failure is an InputError naming the URL, with what to do in the same line.
 */
import { InputError } from '../errors.js';
import { sha256 } from './hash.js';

/** Network behaviour shared by spec downloads and `--schema https://…`. */
export interface FetchPolicy {
  /** Never touch the network (default: MCP_TYPEGEN_OFFLINE=1). */
  offline?: boolean;
  /** Whole-download timeout in milliseconds (default: MCP_TYPEGEN_FETCH_TIMEOUT seconds, else 30 s). */
  fetchTimeoutMs?: number;
  /** No progress line on stderr. */
  quiet?: boolean;
}

/** No MCP schema is anywhere near this; a server sending more is not sending a schema. */
export const MAX_SCHEMA_BYTES = 32 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
/** A download slower than this gets a progress line on stderr. */
const PROGRESS_AFTER_MS = 1_000;

export function isOffline(policy: FetchPolicy, env: NodeJS.ProcessEnv = process.env): boolean {
  if (policy.offline !== undefined) return policy.offline;
  const flag = env.MCP_TYPEGEN_OFFLINE;
  return flag !== undefined && flag !== '' && flag !== '0' && flag.toLowerCase() !== 'false';
}

export function timeoutMs(policy: FetchPolicy, env: NodeJS.ProcessEnv = process.env): number {
  if (policy.fetchTimeoutMs !== undefined) return policy.fetchTimeoutMs;
  const seconds = Number(env.MCP_TYPEGEN_FETCH_TIMEOUT);
  return env.MCP_TYPEGEN_FETCH_TIMEOUT && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_TIMEOUT_MS;
}

/** True for `https:` URLs, and `http:` ones on a loopback host (local mirrors and tests). */
export function checkSchemaUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError(text, undefined, 'not a valid URL');
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return url;
  throw new InputError(
    text,
    undefined,
    url.protocol === 'http:'
      ? 'plain http:// is only accepted for loopback hosts (localhost, 127.0.0.1, ::1); use https://'
      : `unsupported URL scheme "${url.protocol}" (use https://, or a file path)`,
  );
}

export function looksLikeUrl(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

export interface DownloadRequest {
  url: string;
  /** When set, the body must hash to exactly this or the download fails. */
  sha256?: string;
  /** What to do when it fails, appended to the error line. */
  advice: string;
  /**
   * What to do when the bytes arrived but do not hash to `sha256`, as a hint: the user's own pin, where the
   * pin may be what is wrong. Without it the mismatch gets `advice` (an official version's known hash).
   */
  pinAdvice?: string;
}

/** Download one schema body, verified against `sha256` when given. Nothing is written here. */
export async function download(request: DownloadRequest, policy: FetchPolicy = {}): Promise<Buffer> {
  const { url, advice } = request;
  const fail = (reason: string) => new InputError(url, undefined, `${reason}; ${advice}`);
  if (isOffline(policy)) throw fail('offline (--offline or MCP_TYPEGEN_OFFLINE=1): not downloading');
  const limitMs = timeoutMs(policy);
  const { request: httpRequest, EnvHttpProxyAgent, interceptors } = await import('undici');
  const agent = new EnvHttpProxyAgent();
  const dispatcher = agent.compose(interceptors.redirect({ maxRedirections: 5 }));
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limitMs);
  const progress = policy.quiet
    ? undefined
    : setTimeout(() => process.stderr.write(`mcp-typegen: downloading ${url} …\n`), PROGRESS_AFTER_MS);
  try {
    const response = await httpRequest(url, { dispatcher, signal: controller.signal });
    if (response.statusCode < 200 || response.statusCode >= 300) {
      response.body.resume();
      throw fail(`download failed: HTTP ${response.statusCode}`);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_SCHEMA_BYTES) {
      response.body.destroy();
      throw fail(`download refused: ${declared} bytes is over the ${MAX_SCHEMA_BYTES}-byte limit for a schema`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_SCHEMA_BYTES) {
        response.body.destroy();
        throw fail(`download stopped: over the ${MAX_SCHEMA_BYTES}-byte limit for a schema`);
      }
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks);
    if (Number.isFinite(declared) && body.length !== declared)
      throw fail(`download truncated: ${body.length} of ${declared} bytes arrived`);
    // A pin in capitals is the same hash: compared in lower case, both shown in full on a mismatch.
    if (request.sha256 && sha256(body) !== request.sha256.toLowerCase()) {
      const mismatch = `sha256 mismatch: the server sent ${body.length} bytes hashing to ${sha256(body)}, expected ${request.sha256} (nothing was used or cached)`;
      // A pin the user wrote may itself be what is wrong: the network advice would mislead.
      if (request.pinAdvice !== undefined) throw new InputError(url, undefined, mismatch, request.pinAdvice);
      throw fail(mismatch);
    }
    return body;
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (controller.signal.aborted) throw fail(`download timed out after ${limitMs / 1000} s`);
    throw fail(`download failed: ${networkReason(error)}`);
  } finally {
    clearTimeout(timer);
    if (progress) clearTimeout(progress);
    void agent.close().catch(() => undefined);
  }
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found (no network or DNS?)',
  EAI_AGAIN: 'DNS lookup failed (no network?)',
  ENETUNREACH: 'network unreachable',
  EHOSTUNREACH: 'host unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'the connection closed before the whole body arrived (truncated)',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the body is shorter than its Content-Length (truncated)',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'the body stopped arriving',
  UND_ERR_ABORTED: 'aborted',
};

function networkReason(error: unknown): string {
  const e = error as { code?: string; cause?: { code?: string; message?: string }; message?: string };
  const code = e.code ?? e.cause?.code;
  const known = code !== undefined && Object.hasOwn(REASONS, code) ? REASONS[code] : undefined;
  if (known !== undefined) return known;
  const [message = ''] = (e.cause?.message ?? e.message ?? String(error)).split('\n');
  return code ? `${message} (${code})` : message;
}
