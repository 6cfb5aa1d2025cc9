/**
 * The authorization server a verifier trusts, as oauth4webapi needs it: its metadata (discovered with RFC 8414,
 * then OpenID discovery, the issuer checked; or given), and the fetch its requests go through. What goes wrong
 * talking to it (no answer, an error status) is `AuthorizationServerUnavailable`, which the gate answers 503:
 * it says nothing about the token. Plain http is allowed for a loopback issuer only (development, tests).
 */
import * as oauth from 'oauth4webapi';
import { isLoopback } from './options.js';

/** The authorization server did not answer as it should: the token could not be checked (503, logged). */
export class AuthorizationServerUnavailable extends Error {
  override readonly name = 'AuthorizationServerUnavailable';
}

export interface IssuerOptions {
  /** The issuer identifier of the authorization server (its tokens' `iss`). */
  issuer: string;
  /** Its metadata members, when known (`jwks_uri`, `introspection_endpoint`): what is given is not discovered. */
  metadata?: Partial<oauth.AuthorizationServer>;
  /** Each request to it is abandoned after this long, in ms. Default 5000. */
  timeoutMs?: number;
}

/** What the verifiers pass to oauth4webapi with every request: the timeout, the fetch, http for loopback. */
export type RequestOptions = oauth.HttpRequestOptions<'GET' | 'POST', unknown>;

/** The authorization server, discovered once (a failed discovery is tried again next time). */
export class TrustedIssuer {
  readonly issuer: URL;
  readonly requestOptions: RequestOptions;
  /** Each request to the authorization server is abandoned after this long, in ms. */
  readonly timeoutMs: number;
  /** The metadata member the verifier cannot work without (discovered when not given). */
  readonly needs: 'jwks_uri' | 'introspection_endpoint';
  readonly #given: Partial<oauth.AuthorizationServer>;
  /** The issuer identifier as given: compared exactly with a token's `iss`. */
  readonly #issuerIdentifier: string;
  #metadata: Promise<oauth.AuthorizationServer> | undefined;

  constructor(options: IssuerOptions, needs: 'jwks_uri' | 'introspection_endpoint') {
    this.needs = needs;
    this.issuer = new URL(options.issuer);
    if (this.issuer.protocol !== 'https:' && !(this.issuer.protocol === 'http:' && isLoopback(this.issuer))) {
      throw new Error(`issuer must be https (or http on a loopback host): ${options.issuer}`);
    }
    this.#given = options.metadata ?? {};
    this.#issuerIdentifier = options.issuer;
    const timeoutMs = (this.timeoutMs = options.timeoutMs ?? 5000);
    this.requestOptions = {
      signal: () => AbortSignal.timeout(timeoutMs),
      [oauth.customFetch]: answered,
      [oauth.allowInsecureRequests]: this.issuer.protocol === 'http:',
    };
  }

  /**
   * The metadata: the given members, else discovered (once; a failed discovery is tried again next time).
   */
  metadata(): Promise<oauth.AuthorizationServer> {
    if (this.#metadata === undefined && this.#given[this.needs] !== undefined) {
      const issuer = this.#given.issuer ?? this.#issuerIdentifier;
      this.#metadata = Promise.resolve({ ...this.#given, issuer });
    }
    this.#metadata ??= this.#discover().catch((error: unknown) => {
      this.#metadata = undefined;
      throw error instanceof AuthorizationServerUnavailable
        ? error
        : new AuthorizationServerUnavailable(`discovery of ${this.issuer.href} failed: ${String(error)}`);
    });
    return this.#metadata;
  }

  /** RFC 8414 first, then OpenID discovery, as MCP clients look. */
  async #discover(): Promise<oauth.AuthorizationServer> {
    let last: unknown;
    for (const algorithm of ['oauth2', 'oidc'] as const) {
      try {
        const response = await oauth.discoveryRequest(this.issuer, { ...this.requestOptions, algorithm });
        const found = await oauth.processDiscoveryResponse(this.issuer, response);
        if (found[this.needs] === undefined) throw new Error(`its metadata has no ${this.needs}`);
        return { ...found, ...this.#given };
      } catch (error) {
        last = error;
      }
    }
    throw last;
  }
}

/** fetch, with what goes wrong on the way (no answer, a server error) made `AuthorizationServerUnavailable`. */
export async function answered(
  url: string,
  init: { method?: string; headers?: unknown; body?: unknown },
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init as RequestInit);
  } catch (error) {
    throw new AuthorizationServerUnavailable(`${url} did not answer: ${String(error)}`);
  }
  if (response.status >= 500) {
    await response.body?.cancel();
    throw new AuthorizationServerUnavailable(`${url} answered ${response.status}`);
  }
  return response;
}
