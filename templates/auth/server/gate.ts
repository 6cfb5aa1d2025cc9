/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * The resource-server gate of the HTTP servers (their `auth` option), as MCP's authorization chapter asks:
 *
 * - serves the protected-resource metadata (metadata.ts);
 * - reads the access token of every request (`Authorization: Bearer …` or `DPoP …`; nothing else carries
 *   one) and has the verifier check it, once per token (token-cache.ts); the identity must name this
 *   server's resource as its audience and not have expired, whatever the verifier;
 * - a token bound to a key (`cnf.jkt`) needs the DPoP scheme and a valid proof on every request;
 * - answers 401 with `WWW-Authenticate` (`resource_metadata`, `scope`, `error`), 400 for a malformed
 *   header, 403 `insufficient_scope` for what the request's methods and tools need, 503 when the token could
 *   not be verified (the authorization server did not answer);
 * - tells the transport who the request is from (`identity`) and which key its sessions are bound to (`owner`).
 *
 * A token is never logged, nor put in an answer: error texts are scrubbed of it. Node only; it writes its
 * refusals itself and imports no transport.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '../../peer/auth-info.js';
import { challenge, writeRefusal, type Refusal } from './challenges.js';
import { refusalKind } from './errors.js';
import { metadataDocument, metadataPaths, metadataUrl, serveMetadata } from './metadata.js';
import { settleAuth, type AuthSettings, type ServerAuthOptions, type TokenRequest } from './options.js';
import { missingScopes, scopesNeeded } from './scopes.js';
import { tokenHash, VerifiedTokens } from './token-cache.js';

/** `Bearer <token>` or `DPoP <token>` (RFC 6750 §2.1 b64token; RFC 9449 §7.1). */
const AUTHORIZATION = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i;
const SCHEMES = /^(Bearer|DPoP)(?: |$)/i;

type Credentials = { scheme: 'Bearer' | 'DPoP'; token: string };

export class AuthGate {
  readonly settings: AuthSettings;
  readonly #tokens: VerifiedTokens;
  readonly #paths: string[];
  readonly #metadataBody: string;
  readonly #metadataUrl: string;
  readonly #identities = new WeakMap<IncomingMessage, AuthInfo>();
  /** Each identity's owner key, made once (a remembered token's identity is the same object each time). */
  readonly #owners = new WeakMap<AuthInfo, string>();
  readonly #log: (message: string) => void;

  /** `server` names the server in errors (`createStreamableHttpServer`). */
  constructor(options: ServerAuthOptions, server: string, log: (message: string) => void) {
    this.settings = settleAuth(options, server);
    this.#tokens = new VerifiedTokens(this.settings.cacheSize);
    this.#paths = metadataPaths(this.settings.resourceUrl);
    this.#metadataBody = JSON.stringify(metadataDocument(this.settings));
    this.#metadataUrl = metadataUrl(this.settings.resourceUrl);
    this.#log = log;
  }

  /** Answers a request for the protected-resource metadata; false for any other request. */
  metadata(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
    return serveMetadata(req, res, pathname, this.#paths, this.#metadataBody);
  }

  /** The verified identity of a request, or undefined after answering why there is none. */
  async authenticate(req: IncomingMessage, res: ServerResponse): Promise<AuthInfo | undefined> {
    const verdict = await this.#verdict(req);
    if ('status' in verdict) {
      writeRefusal(res, verdict);
      return undefined;
    }
    this.#identities.set(req, verdict);
    if (this.settings.dpop?.nonce !== undefined) res.setHeader('dpop-nonce', this.settings.dpop.nonce());
    return verdict;
  }

  /** Whether the request's identity has the scopes `body` (a parsed POST body) needs; else answered 403. */
  permits(req: IncomingMessage, res: ServerResponse, body: unknown): boolean {
    const auth = this.#identities.get(req);
    const needed = scopesNeeded(this.settings, body);
    if (auth !== undefined && missingScopes(needed, auth.scopes).length === 0) return true;
    writeRefusal(res, auth === undefined ? this.#unauthenticated(undefined) : this.#insufficient(needed, auth));
    return false;
  }

  /** Who a request is from, once `authenticate` admitted it. */
  identity(req: IncomingMessage): AuthInfo | undefined {
    return this.#identities.get(req);
  }

  /**
   * The key a session is bound to: the issuer, subject and client of the identity that opened it (hashed: a
   * session record holds no personal data). Another identity gets 404 on that session.
   */
  owner(req: IncomingMessage): string | undefined {
    const auth = this.#identities.get(req);
    if (auth === undefined) return undefined;
    let owner = this.#owners.get(auth);
    if (owner === undefined) {
      owner = tokenHash(JSON.stringify([auth.issuer ?? '', auth.subject, auth.clientId]));
      this.#owners.set(auth, owner);
    }
    return owner;
  }

  /** Verified tokens remembered (for tests and leak checks). */
  get cachedTokens(): number {
    return this.#tokens.size;
  }

  async #verdict(req: IncomingMessage): Promise<AuthInfo | Refusal> {
    const credentials = credentialsOf(req.headers.authorization);
    if (credentials === undefined) return this.#unauthenticated(undefined);
    if (credentials === 'malformed') {
      const description = 'the Authorization header is not "Bearer <token>" or "DPoP <token>"';
      return this.#refusal(400, 'invalid_request', description, undefined);
    }
    const { scheme, token } = credentials;
    // Made only when the token must be checked, not for one remembered.
    const request = (): TokenRequest => ({
      scheme,
      method: req.method ?? 'GET',
      url: new URL(req.url ?? '/', this.settings.resourceUrl.origin).href,
      headers: req.headers,
      resource: this.settings.resource,
    });
    let auth: AuthInfo;
    try {
      const verify = (): Promise<AuthInfo> => this.settings.verifier.verify(token, request()).then(frozen);
      auth = await this.#tokens.get(tokenHash(token), verify);
    } catch (error) {
      return this.#failed(error, token, scheme);
    }
    const refused = this.#checkIdentity(auth, scheme);
    if (refused !== undefined) return this.#refusal(401, 'invalid_token', refused, scheme);
    const bound = boundKey(auth);
    if (bound !== undefined) {
      try {
        await this.settings.dpop?.check(headerValue(req.headers['dpop']), bound, token, request());
      } catch (error) {
        return this.#failed(error, token, scheme);
      }
    }
    const missing = missingScopes(this.settings.scopes, auth.scopes);
    return missing.length > 0 ? this.#insufficient(this.settings.scopes, auth) : auth;
  }

  /** Why an identity is not good here whatever the verifier said, or undefined when it is. */
  #checkIdentity(auth: AuthInfo, scheme: Credentials['scheme']): string | undefined {
    const { resource, resourceUrl, dpop } = this.settings;
    if (!auth.audience.some((a) => a === resource || a === resourceUrl.href)) {
      return 'the token is for another resource';
    }
    if (auth.expiresAt !== undefined && auth.expiresAt * 1000 <= Date.now()) return 'the token expired';
    // A token bound some other way (mTLS's `x5t#S256`, …) must not pass as a bearer token.
    if (!confirmedByJktOnly(auth.claims['cnf']))
      return 'the token is bound by a confirmation method this server does not check';
    const bound = boundKey(auth) !== undefined;
    if (bound && dpop === undefined) return 'the token is bound to a DPoP key; this server does not check DPoP proofs';
    if (bound && scheme !== 'DPoP') return 'a DPoP-bound token must be sent with the DPoP scheme';
    if (!bound && scheme === 'DPoP') return 'the token is not DPoP-bound: send it with the Bearer scheme';
    if (!bound && dpop?.required === true) return 'this server accepts DPoP-bound tokens only';
    return undefined;
  }

  /** A verifier's or the proof check's rejection as an answer; one that is no refusal is logged and is a 503. */
  #failed(error: unknown, token: string, scheme: Credentials['scheme']): Refusal {
    const text = (error instanceof Error ? error.message : String(error)).split(token).join('[token]');
    switch (refusalKind(error)) {
      case 'token':
        return this.#refusal(401, 'invalid_token', text, scheme);
      case 'proof':
        return this.#refusal(401, 'invalid_dpop_proof', text, 'DPoP');
      case 'nonce': {
        const nonce = (error as { nonce: string }).nonce;
        return { ...this.#refusal(401, 'use_dpop_nonce', text, 'DPoP'), headers: { 'dpop-nonce': nonce } };
      }
      default:
        this.#log(`MCP server auth: a token could not be verified: ${text}`);
        return { status: 503, challenges: [], message: 'Service Unavailable: the access token could not be verified' };
    }
  }

  /** 401 without an error: the request carried no token (RFC 6750 §3.1). */
  #unauthenticated(scheme: Credentials['scheme'] | undefined): Refusal {
    return {
      status: 401,
      challenges: this.#challenges({}, scheme),
      message: 'Unauthorized: an access token is required',
    };
  }

  /** 403 `insufficient_scope`, naming every scope the request needs. */
  #insufficient(needed: readonly string[], auth: AuthInfo): Refusal {
    const missing = missingScopes(needed, auth.scopes).join(' ');
    const params = {
      error: 'insufficient_scope',
      scope: needed.join(' '),
      error_description: `the token lacks ${missing}`,
    };
    const scheme = boundKey(auth) === undefined ? 'Bearer' : 'DPoP';
    return {
      status: 403,
      challenges: this.#challenges(params, scheme),
      message: `Forbidden: insufficient scope (${missing})`,
    };
  }

  #refusal(status: 400 | 401, error: string, description: string, scheme: Credentials['scheme'] | undefined): Refusal {
    const challenges = this.#challenges({ error, error_description: description }, scheme);
    return { status, challenges, message: `${status === 400 ? 'Bad Request' : 'Unauthorized'}: ${description}` };
  }

  /**
   * The challenges: Bearer (unless DPoP is required), then DPoP when proofs are checked; the error goes in
   * the challenge of the scheme the client used (RFC 9449 §7.1), or Bearer's when there is no DPoP one.
   */
  #challenges(
    error: { error?: string; error_description?: string; scope?: string },
    scheme: Credentials['scheme'] | undefined,
  ): string[] {
    const { dpop, scopes } = this.settings;
    const common = { resource_metadata: this.#metadataUrl, scope: scopes.length > 0 ? scopes.join(' ') : undefined };
    const challenges: string[] = [];
    if (dpop?.required !== true) {
      const errorHere = scheme !== 'DPoP' || dpop === undefined;
      challenges.push(challenge('Bearer', errorHere ? { ...common, ...error } : common));
    }
    if (dpop !== undefined) {
      const algs = { algs: dpop.algorithms.join(' ') };
      challenges.push(
        challenge(
          'DPoP',
          scheme === 'DPoP' || dpop.required === true ? { ...common, ...error, ...algs } : { ...common, ...algs },
        ),
      );
    }
    return challenges;
  }
}

/** The token of an `Authorization` header: undefined when there is none (or another scheme's), `malformed` when unreadable. */
function credentialsOf(header: string | undefined): Credentials | 'malformed' | undefined {
  if (header === undefined || !SCHEMES.test(header)) return undefined;
  const match = AUTHORIZATION.exec(header);
  if (match === null) return 'malformed';
  const scheme = match[1]?.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
  return { scheme, token: match[2] ?? '' };
}

/** The key thumbprint a token is bound to (`cnf.jkt`, RFC 9449 §6), if it is bound. */
function boundKey(auth: AuthInfo): string | undefined {
  const cnf = auth.claims['cnf'];
  const jkt = typeof cnf === 'object' && cnf !== null ? (cnf as { jkt?: unknown }).jkt : undefined;
  return typeof jkt === 'string' ? jkt : undefined;
}

/** Whether `cnf` is absent, empty, or binds the token to a DPoP key (`jkt`) and nothing else. */
function confirmedByJktOnly(cnf: unknown): boolean {
  if (cnf === undefined) return true;
  if (typeof cnf !== 'object' || cnf === null || Array.isArray(cnf)) return false;
  const methods = Object.keys(cnf);
  return methods.length === 0 || (methods.length === 1 && typeof (cnf as { jkt?: unknown }).jkt === 'string');
}

/** An identity no handler can change: one remembered identity is every later request's too. */
function frozen(auth: AuthInfo): AuthInfo {
  return Object.freeze({
    ...auth,
    scopes: Object.freeze([...auth.scopes]),
    audience: Object.freeze([...auth.audience]),
    claims: Object.freeze({ ...auth.claims }),
  });
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
