// Writes each known version's method list (and who sends each method) and batch support into schema/mcp-versions.json, computed from the official
// schemas by the model (the runtime's version negotiation reads which methods each version has, and a
// generator run for one version cannot load every other version's schema). A test keeps the manifest
// equal to what the schemas say. Usage: npm run build && MCP_SCHEMA_DIR=<root> node scripts/version-facts.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { versionManifestFacts } from '../dist/src/model/version-methods.js';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const file = join(ROOT, 'schema', 'mcp-versions.json');
const manifest = JSON.parse(readFileSync(file, 'utf8'));
for (const entry of manifest.versions) {
  const facts = await versionManifestFacts(entry.version);
  entry.batches = facts.batches;
  entry.serverCapabilities = facts.serverCapabilities;
  entry.methods = facts.methods;
  entry.senders = facts.senders;
}
writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`wrote the method lists of ${manifest.versions.length} versions into ${file}`);
