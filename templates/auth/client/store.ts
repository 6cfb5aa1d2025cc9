/**
 * Where the OAuth client keeps what outlives a request: tokens (by MCP server), client registrations (by
 * authorization server issuer) and the authorization requests waiting for the user (by `state`: the PKCE
 * verifier and the recorded issuer). Records are plain JSON, so any key-value storage can hold them.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */

/** Tokens for one MCP server. */
export interface StoredTokens {
  access_token: string;
  /** `bearer`, or `dpop` for a token bound to the client's DPoP key (RFC 9449). */
  token_type: string;
  refresh_token?: string;
  /** When the access token expires, in milliseconds since the epoch. */
  expires_at?: number;
  /** The scopes granted (the token response's `scope`, else those asked for). */
  scope?: string;
  /** The scopes asked for, kept for the union a step-up asks for. */
  requested_scope?: string;
  /** The authorization server (issuer) that issued them: another one never refreshes them. */
  issuer: string;
  /** The client they were issued to (it refreshes them). */
  client_id: string;
  /** The RFC 8707 resource they were issued for. */
  resource: string;
  /** DPoP: the thumbprint of the key they are bound to. */
  dpop_jkt?: string;
}

/** A client registered with one authorization server (dynamic registration, RFC 7591). */
export interface StoredClient {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method?: string;
  redirect_uris?: string[];
}

/** An authorization request sent to the user's browser, until its callback arrives. */
export interface PendingAuthorization {
  state: string;
  code_verifier: string;
  redirect_uri: string;
  client_id: string;
  /** The MCP server the tokens are for (the key of its tokens). */
  server: string;
  /** The RFC 8707 resource asked for. */
  resource: string;
  scope?: string;
  /** The token request goes with a DPoP proof (RFC 9449). */
  dpop?: boolean;
  /**
   * The authorization server's validated metadata: its `issuer` is the recorded issuer the response's `iss` is
   * compared with (RFC 9207), its token endpoint where the code goes.
   */
  metadata: { issuer: string; [member: string]: unknown };
  /** When the request was made, in milliseconds since the epoch. */
  created_at: number;
}

/** The records by kind. */
export interface AuthRecords {
  /** By MCP server URL. */
  tokens: StoredTokens;
  /** By authorization server issuer. */
  client: StoredClient;
  /** By `state`. */
  pending: PendingAuthorization;
}

/** The OAuth client's storage: `memoryStore()` (the default), `keyValueStore(…)` over any string storage, or yours. */
export interface AuthStore {
  get<K extends keyof AuthRecords>(
    kind: K,
    key: string,
  ): AuthRecords[K] | undefined | Promise<AuthRecords[K] | undefined>;
  /** Stores a record, or deletes it (`undefined`). */
  set<K extends keyof AuthRecords>(kind: K, key: string, value: AuthRecords[K] | undefined): void | Promise<void>;
}

/** A storage of strings by name: `localStorage`, `sessionStorage`, a file's JSON object, a keychain. */
export interface KeyValueStorage {
  getItem(name: string): string | null | undefined | Promise<string | null | undefined>;
  setItem(name: string, value: string): void | Promise<void>;
  removeItem(name: string): void | Promise<void>;
}

/**
 * An AuthStore over string storage: each record is JSON under `<prefix><kind>:<key>` (e.g.
 * `keyValueStore(sessionStorage)` in a browser app whose page leaves for the authorization server and comes back).
 */
export function keyValueStore(storage: KeyValueStorage, prefix = 'mcp-auth:'): AuthStore {
  const name = (kind: string, key: string): string => `${prefix}${kind}:${key}`;
  return {
    async get(kind, key) {
      const text = await storage.getItem(name(kind, key));
      return typeof text === 'string' ? JSON.parse(text) : undefined;
    },
    async set(kind, key, value) {
      if (value === undefined) await storage.removeItem(name(kind, key));
      else await storage.setItem(name(kind, key), JSON.stringify(value));
    },
  };
}

/** The default store: this process's memory (records go through JSON, as they would in any other store). */
export function memoryStore(): AuthStore {
  const map = new Map<string, string>();
  return keyValueStore({
    getItem: (name) => map.get(name),
    setItem: (name, value) => void map.set(name, value),
    removeItem: (name) => void map.delete(name),
  });
}
