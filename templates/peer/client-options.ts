/**
 * The options of an MCP client (client-base.ts) and the params type its stubs take from 2026-07-28 on.
 *
 * Hand-written runtime copied unchanged into generated output. Types only.
 */
import type { EngineOptions } from '../core/peer-types.js';
import type { Era, Implementation } from './protocol.js';
import type { MessageChecker } from './validation.js';
import type { StructuredContentCheck } from './structured-content.js';

type JsonObject = { [key: string]: unknown };

/**
 * Which era each server spoke, by the transport's `serverKey` (HTTP: the endpoint URL; stdio: the command
 * line): the spec asks clients to remember it for the server's lifetime instead of probing every time.
 */
export type EraCache = Map<string, Era>;
export interface McpClientOptions extends EngineOptions {
  clientInfo: Implementation;
  /**
   * Client capabilities, merged over those derived from the registered handlers (roots, sampling,
   * elicitation) and the extensions the client was generated with (`extensions: { <id>: {} }`).
   */
  capabilities?: object;
  /** The version to ask for first; default the newest of `supportedProtocolVersions`. */
  protocolVersion?: string;
  /**
   * Versions the client accepts, in any era; default every known version up to the generated one (a
   * 2026-07-28 client also reaches servers that only speak 2025-11-25 … 2024-11-05). Narrow it to refuse
   * older servers.
   */
  supportedProtocolVersions?: string[];
  /**
   * Modern versions: probe the server with `server/discover` in connect() (default true). Without the probe
   * the client assumes a modern server and cannot fall back to a legacy one.
   */
  discover?: boolean;
  /** Milliseconds the `server/discover` probe waits before taking the server for a legacy one (default 10 s). */
  probeTimeout?: number;
  /** Where the era found per server is remembered (default: one map shared by the process). */
  eraCache?: EraCache;
  /** Most input-required rounds one call may take before it fails (default 8). */
  maxInputRounds?: number;
  /**
   * Check what the server sends with the generated validators: `validate: checkWith(validators)` (with
   * `import * as validators from '../mcp/validators.js'`; generate the `validators` artifact). An invalid
   * request is answered -32602 with the pointer, an invalid notification dropped with a diagnostic, and an
   * invalid input request embedded in a 2026-07-28 result fails the call. Left out, nothing is checked and
   * neither the validators nor the checks are in the bundle.
   */
  validate?: MessageChecker;
  /** With `validate`: check every result against its schema too; a mismatch fails the call (default false). */
  validateResults?: boolean;
  /**
   * Check a tools/call result's `structuredContent` against the `outputSchema` the tool was listed with:
   * `validateStructuredContent: checkStructuredContentWith(validate)`, where `validate(outputSchema, value)`
   * returns what is wrong, or undefined (the runtime compiles no schemas: e.g. build it on ajv). One check per
   * client; left out, nothing is checked and none of it is in the bundle.
   */
  validateStructuredContent?: StructuredContentCheck;
  /**
   * Streamable HTTP up to 2025-11-25: the server answered 404 for the session (it restarted, or expired the
   * session), so the client opened a new one with `initialize` and the same options. Called once the new
   * session is open (`sessionId`), or when opening it failed (`error`; the next call that meets a 404 tries
   * again). The call that met the 404 is not retried: it fails with its 404, since it may not be idempotent.
   */
  onSessionRenewed?: (event: SessionRenewal) => void;
}

/** What `onSessionRenewed` is told. */
export interface SessionRenewal {
  /** The session the server no longer knew. */
  previousSessionId: string;
  /** The new session, when it opened. */
  sessionId?: string | undefined;
  /** Why no new session opened. */
  error?: unknown;
}

/** The input-required loop's retry fields and the per-request `_meta` are filled in by the client. */
export type CallerParams<P> = P extends { _meta: infer M }
  ? Omit<P, '_meta' | 'inputResponses' | 'requestState'> & {
      _meta?: Partial<M> & JsonObject;
      inputResponses?: P extends { inputResponses?: infer R } ? R : never;
      requestState?: string;
    }
  : '_meta' extends keyof P
    ? // An optional `_meta` (a vendor method's closed params): the keys the client fills in are optional too.
      Omit<P, '_meta'> & { _meta?: Partial<NonNullable<P['_meta' & keyof P]>> & JsonObject }
    : P;
