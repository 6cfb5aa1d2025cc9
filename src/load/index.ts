export { loadSchema, parseSchemaText, resolveSchemaPath, resolvePointer, schemaRoot, isObject } from './schema.js';
export type { LoadedSchema, SchemaInput } from './schema.js';
export { knownVersionNames, versionManifest } from './manifest.js';
export type { JsonSchema, JsonValue } from './schema-types.js';
