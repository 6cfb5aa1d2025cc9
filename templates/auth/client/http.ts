/**
 * The OAuth client's HTTP: which URLs it may send to (https, or http on loopback only), the options every
 * oauth4webapi call gets (the fetch to use), and the server's `WWW-Authenticate` challenge, parsed by the library.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import {
  allowInsecureRequests,
  customFetch,
  isDPoPNonceError,
  protectedResourceRequest,
  WWWAuthenticateChallengeError,
  type HttpRequestOptions,
} from 'oauth4webapi';
import { AuthorizationError } from './errors.js';

/** http:// on these hosts stays on this machine (RFC 8252 §8.3), so it is allowed where https is required. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** How the flow reaches servers: its fetch, and whether http:// beyond loopback is allowed (never by default). */
export interface OAuthHttp {
  readonly fetch: typeof fetch;
  readonly allowInsecureHttp: boolean;
}

/** Refuses a URL the flow must not send credentials, codes or tokens to: neither https nor loopback http. */
export function checkSecure(http: OAuthHttp, url: string | URL, what: string): URL {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopback(parsed));
  if (!secure && !http.allowInsecureHttp) {
    throw new AuthorizationError(
      'insecure-endpoint',
      `${what} ${parsed.href} is not https (http:// is allowed on loopback only; allowInsecureHttp opts out)`,
    );
  }
  return parsed;
}

/**
 * The options of an oauth4webapi call that sends to `url` (checked by checkSecure first): the flow's fetch, and the
 * library's own https check lifted for what checkSecure allowed.
 */
export function requestOptions(http: OAuthHttp, url: URL): HttpRequestOptions<any, any> {
  // The library's flag for "http:// allowed" is marked deprecated to make it stand out; checkSecure decided.
  const insecure = url.protocol === 'http:' ? { [allowInsecureRequests]: true } : {};
  return { [customFetch]: http.fetch, ...insecure };
}

/** What a refusal's `WWW-Authenticate` says (RFC 6750 §3, RFC 9728 §5.1, RFC 9449 §7.1). */
export interface Challenge {
  /** `bearer` or `dpop` (lower case). */
  scheme: string;
  resourceMetadata?: string;
  scope?: string;
  error?: string;
  /** The server wants the request again with the DPoP nonce it just sent (RFC 9449 §9). */
  dpopNonce: boolean;
}

/**
 * The challenge of a 401, or of a 403 `insufficient_scope`; undefined for any other response (and for a 403 that is
 * no scope challenge: that refusal is the server's last word). A 401 without a parseable challenge still asks
 * for authorization (servers of 2025-03-26 send a bare 401).
 */
export async function refusalOf(response: Response, thrown?: unknown): Promise<Challenge | undefined> {
  if (response.status !== 401 && response.status !== 403) return undefined;
  const error = thrown instanceof WWWAuthenticateChallengeError ? thrown : await challengeError(response);
  const challenges = error?.cause ?? [];
  const chosen =
    challenges.find((c) => (c.scheme === 'bearer' || c.scheme === 'dpop') && c.parameters.resource_metadata) ??
    challenges.find((c) => c.scheme === 'bearer' || c.scheme === 'dpop');
  const parameters = chosen?.parameters ?? {};
  if (response.status === 403 && parameters.error !== 'insufficient_scope') return undefined;
  const challenge: Challenge = { scheme: chosen?.scheme ?? 'bearer', dpopNonce: isDPoPNonceError(error) };
  if (parameters.resource_metadata) challenge.resourceMetadata = parameters.resource_metadata;
  if (parameters.scope) challenge.scope = parameters.scope;
  if (parameters.error) challenge.error = parameters.error;
  return challenge;
}

/**
 * The library parses `WWW-Authenticate` only as the error of a request it made itself: this hands it the response
 * at hand as the answer to such a request, so the challenge is read by the library's parser, not a second one.
 */
async function challengeError(response: Response): Promise<WWWAuthenticateChallengeError | undefined> {
  try {
    await protectedResourceRequest('-', 'GET', new URL('https://challenge.invalid/'), undefined, undefined, {
      [customFetch]: () => Promise.resolve(response),
    });
  } catch (error) {
    if (error instanceof WWWAuthenticateChallengeError) return error;
  }
  return undefined;
}
