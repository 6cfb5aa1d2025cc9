export { loadSchema, parseSchemaText, resolveSchemaPath, isObject } from './schema.js';
export { resolvePointer } from './pointer.js';
export type { LoadedSchema, SchemaInput } from './schema.js';
export { knownVersionNames, versionManifest } from './manifest.js';
export type { JsonSchema, JsonValue } from './schema-types.js';
