/** A JSON Schema node as read from disk: we never trust its shape, so it is a loose record. */
export type JsonSchema = { [keyword: string]: unknown };
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object (not an array, not null): what every schema walker descends into. */
export function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
