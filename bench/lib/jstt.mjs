// Baseline: json-schema-to-typescript's compileFromFile (types only, its default formatting), one file
// per schema given, written like our CLI writes its output. unreachableDefinitions: an MCP schema's root
// has no properties, so by default JSTT emits nothing (288 bytes for 2025-11-25); with it, every
// definition becomes a type, which is the job being compared. Usage: node jstt.mjs <outDir> <schema.json>...
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileFromFile } from 'json-schema-to-typescript';

const [outDir, ...schemas] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
for (const [i, schema] of schemas.entries()) {
  const ts = await compileFromFile(schema, { unreachableDefinitions: true });
  writeFileSync(join(outDir, `types-${i}.ts`), ts);
}
