/// <reference types="node" preserve="true" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolPackage } from './package-root.js';

export interface KnownVersion {
  version: string;
  dialect: 'draft-07' | '2020-12';
  /** sha256 of the published schema.json; a download must have exactly these bytes. */
  sha256: string;
  /** Where the published schema.json is downloaded from (unless MCP_TYPEGEN_SCHEMA_BASE_URL is set). */
  url: string;
  /** Its MCP methods, as the model finds them in the schema (scripts/version-facts.mjs writes them). */
  methods?: string[];
  /** Whether it allows JSON-RPC batches (scripts/version-facts.mjs writes it). */
  batches?: boolean;
  /** The capabilities its ServerCapabilities names (scripts/version-facts.mjs writes them). */
  serverCapabilities?: string[];
  /**
   * Who sends each of its methods (`client`, `server`, or both; input requests are the server's), as the
   * model finds them in the schema (scripts/version-facts.mjs writes them): the spec's method table the
   * model directs message unions by when their names say otherwise.
   */
  senders?: Record<string, ('client' | 'server')[]>;
}

export interface VersionManifest {
  default: string;
  versions: KnownVersion[];
}

let cached: VersionManifest | undefined;

/** `schema/mcp-versions.json`: the known MCP versions and the sha256 of each official schema. */
export function versionManifest(): VersionManifest {
  cached ??= JSON.parse(
    readFileSync(join(toolPackage().root, 'schema', 'mcp-versions.json'), 'utf8'),
  ) as VersionManifest;
  return cached;
}

export function knownVersionNames(): string[] {
  return versionManifest().versions.map((v) => v.version);
}

export function knownVersion(name: string): KnownVersion | undefined {
  return versionManifest().versions.find((v) => v.version === name);
}

/** The URL a known version downloads from: `<MCP_TYPEGEN_SCHEMA_BASE_URL>/<version>/schema.json` when set. */
export function downloadUrl(known: KnownVersion, env: NodeJS.ProcessEnv = process.env): string {
  const base = env.MCP_TYPEGEN_SCHEMA_BASE_URL;
  return base ? `${base.replace(/\/+$/, '')}/${known.version}/schema.json` : known.url;
}

export function versionBySha(sha256: string): KnownVersion | undefined {
  return versionManifest().versions.find((v) => v.sha256 === sha256);
}

let senders: Map<string, ('client' | 'server')[]> | undefined;

/** Method → the sides that send it in some known version (every version's `senders` together). */
export function methodSenders(): ReadonlyMap<string, readonly ('client' | 'server')[]> {
  if (senders) return senders;
  const all = new Map<string, Set<'client' | 'server'>>();
  for (const version of versionManifest().versions) {
    for (const [method, sides] of Object.entries(version.senders ?? {})) {
      let set = all.get(method);
      if (!set) all.set(method, (set = new Set()));
      for (const side of sides) set.add(side);
    }
  }
  senders = new Map([...all].map(([method, set]) => [method, [...set].sort()]));
  return senders;
}

let pairing: Record<string, string> | undefined;

/** `schema/result-pairing.json`: requests whose result is not named after them (e.g. ping → EmptyResult). */
export function resultPairingTable(): Record<string, string> {
  pairing ??= (
    JSON.parse(readFileSync(join(toolPackage().root, 'schema', 'result-pairing.json'), 'utf8')) as {
      pairs: Record<string, string>;
    }
  ).pairs;
  return pairing;
}
