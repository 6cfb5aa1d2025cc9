/**
 * The snapshot file (`mcp-typegen snapshot`): one server's tool surface, in the format of
 * schema/snapshot.schema.json. Written deterministically (every object's keys sorted, each list keyed by
 * name, URI or URI template, two-space indent, one final newline, no timestamps), so the same server gives
 * the same bytes; read back with the format's schema, so a hand-written file is input like any other.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { InputError } from '../errors.js';
import { parseJson } from './json.js';
import { toolPackage } from './package-root.js';
import { escapePointerToken } from './pointer.js';
import { compareStrings } from './order.js';

type JsonObject = { [key: string]: unknown };

/** The lists a snapshot holds, each keyed by the member named here. */
export const SNAPSHOT_LISTS = {
  tools: 'name',
  prompts: 'name',
  resources: 'uri',
  resourceTemplates: 'uriTemplate',
} as const;
export type SnapshotList = keyof typeof SNAPSHOT_LISTS;

export interface Snapshot {
  mcpSnapshot: 1;
  /** serverInfo as the server sent it (`name` and `version` unless the server left them out). */
  server: { name?: string; version?: string; [key: string]: unknown };
  protocolVersion?: string;
  capabilities?: JsonObject;
  instructions?: string;
  tools: Record<string, JsonObject>;
  prompts?: Record<string, JsonObject>;
  resources?: Record<string, JsonObject>;
  resourceTemplates?: Record<string, JsonObject>;
}

/** The snapshot as file text: sorted keys at every level, so it does not depend on the server's order. */
export function renderSnapshot(snapshot: Snapshot): string {
  return `${JSON.stringify(sortKeys(snapshot), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort(compareStrings)) out[key] = sortKeys((value as JsonObject)[key]);
  return out;
}

let validator: ValidateFunction | undefined;

function formatValidator(): ValidateFunction {
  if (validator) return validator;
  const ajv = new Ajv2020Module.default({ allErrors: false, strict: true, strictRequired: false });
  const schema = JSON.parse(readFileSync(join(toolPackage().root, 'schema', 'snapshot.schema.json'), 'utf8')) as object;
  validator = ajv.compile(schema);
  return validator;
}

/** Parse and check a snapshot file; a problem is one InputError naming the file and the JSON pointer. */
export function parseSnapshot(text: string, file: string): Snapshot {
  const data = parseJson(text, file);
  const validate = formatValidator();
  if (!validate(data)) {
    const error = validate.errors?.[0];
    const params = (error?.params ?? {}) as Record<string, unknown>;
    const reason =
      error?.keyword === 'required'
        ? `missing required property "${String(params.missingProperty)}"`
        : error?.keyword === 'additionalProperties'
          ? `unknown property "${String(params.additionalProperty)}"`
          : (error?.message ?? 'not a snapshot');
    throw new InputError(file, error?.instancePath ?? '', reason, 'the format is schema/snapshot.schema.json');
  }
  const snapshot = data as Snapshot;
  // Each entry is stored under its own name: a key that differs would make the diff pair the wrong things.
  for (const [list, member] of Object.entries(SNAPSHOT_LISTS)) {
    for (const [key, entry] of Object.entries(snapshot[list as SnapshotList] ?? {})) {
      if (entry[member] !== key)
        throw new InputError(
          file,
          `/${list}/${escapePointerToken(key)}/${member}`,
          `must be "${key}", the key this entry is stored under`,
        );
    }
  }
  return snapshot;
}

/** A list as the server sent it → keyed by each entry's name; a duplicate or nameless entry is refused. */
export function keyedList(list: SnapshotList, entries: unknown[], source: string): Record<string, JsonObject> {
  const member = SNAPSHOT_LISTS[list];
  const out: Record<string, JsonObject> = {};
  entries.forEach((entry, i) => {
    const key = isJsonObject(entry) ? entry[member] : undefined;
    if (typeof key !== 'string')
      throw new InputError(source, `/${list}/${i}`, `an entry of ${list} without a string "${member}"`);
    if (Object.hasOwn(out, key)) throw new InputError(source, `/${list}/${i}`, `${list} lists "${key}" twice`);
    out[key] = entry as JsonObject;
  });
  return out;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
