// Baseline: json-schema-to-typescript's compileFromFile (types only, its default formatting), one file
// per schema given, written like our CLI writes its output. Usage: node jstt.mjs <outDir> <schema.json>...
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileFromFile } from 'json-schema-to-typescript';

const [outDir, ...schemas] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
for (const [i, schema] of schemas.entries()) {
  const ts = await compileFromFile(schema);
  writeFileSync(join(outDir, `types-${i}.ts`), ts);
}
