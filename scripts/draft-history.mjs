#!/usr/bin/env node
/**
 * Writes test/fixtures/draft-history.json: every version the MCP specification repository
 * (github.com/modelcontextprotocol/modelcontextprotocol) committed of `schema/draft/schema.json` and of each
 * dated `schema/<version>/schema.json`, oldest first — the corpus test/diff/history.test.ts diffs, each
 * consecutive pair of a path, offline.
 *
 * The official text stays out of the repository: every annotation (`description`, `title`, `$comment`,
 * `examples`) is removed from each schema before anything is stored, and each version is stored as an RFC
 * 6902 patch (fast-json-patch) from the earlier version it is closest to (the first one whole). A patch adds
 * an object key at the end, so a replayed document may list its keys in another order than the commit did;
 * the model reads no meaning into key order (test/diff/key-order.test.ts). A version is stored with its
 * definitions under `$defs` (the drafts moved between `definitions` and `$defs` and back several times,
 * each move a patch as large as the schema otherwise); `keyword` says where the commit had them, and
 * `replay` puts them back.
 *
 * Usage: node scripts/draft-history.mjs <clone of the specification repository> [out file]
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsonPatch from 'fast-json-patch';

/** Annotation keywords: prose, never structure. */
const ANNOTATIONS = ['description', 'title', '$comment', 'examples'];
/** Keywords whose value is a map of name → schema (the names are data, not keywords). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is a schema, or a list of schemas. */
const SCHEMA_VALUED = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'anyOf',
  'oneOf',
  'allOf',
  'prefixItems',
]);
/** How many earlier versions of a path a version's patch may start from (the smallest patch wins). */
const LOOK_BACK = 16;

/** A schema without its annotations; data (enum, const, default, required) is kept as written. */
function strip(schema) {
  if (Array.isArray(schema)) return schema.map(strip);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.includes(key)) continue;
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, strip(sub)]));
    else if (SCHEMA_VALUED.has(key)) out[key] = strip(value);
    else out[key] = value;
  }
  return out;
}

/** A version's definitions under `$defs`; only `$ref`s into its own keyword move with them. */
function stored(schema) {
  if (schema.definitions === undefined || schema.$defs !== undefined) return { keyword: '$defs', schema };
  const text = JSON.stringify(schema);
  if (text.includes('"#/$defs/')) throw new Error('a definitions schema with a $ref into $defs: not stored faithfully');
  const { definitions, ...rest } = JSON.parse(text.replaceAll('"#/definitions/', '"#/$defs/'));
  return { keyword: 'definitions', schema: { ...rest, $defs: definitions } };
}

/** A stored version back where the commit kept its definitions (test/diff/history.test.ts reads it so). */
export function replay(schema, keyword) {
  if (keyword === '$defs') return schema;
  const { $defs, ...rest } = JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/definitions/'));
  return { ...rest, definitions: $defs };
}

/** Every stored version, rebuilt in order: `versions[i].from` is an earlier index, or absent for a whole base. */
export function rebuild(versions) {
  const docs = [];
  for (const v of versions) {
    const start = v.from === undefined ? v.base : structuredClone(docs[v.from]);
    docs.push(v.from === undefined ? start : jsonPatch.applyPatch(start, v.patch, true, true).newDocument);
  }
  return docs.map((doc, i) => replay(doc, versions[i].keyword));
}

/** JSON text with sorted keys: equal for equal documents, whatever their key order. */
function sortedJson(v) {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${sortedJson(v[k])}`)
    .join(',')}}`;
}

function main(clone, out) {
  const git = (...args) =>
    execFileSync('git', ['-C', clone, ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'ignore'],
    });

  /** The committed versions of one path, oldest first (a commit that deleted it is skipped). */
  const committed = (path) => {
    const found = [];
    for (const line of git('log', '--reverse', '--format=%H %cs', '--', path).trim().split('\n')) {
      const [commit, date] = line.split(' ');
      let json;
      try {
        json = JSON.parse(git('show', `${commit}:${path}`));
      } catch {
        continue; // deleted by this commit (the draft moved to a dated folder)
      }
      const original = strip(json);
      const { keyword, schema } = stored(original);
      if (sortedJson(replay(schema, keyword)) !== sortedJson(original)) throw new Error(`${commit}: replay differs`);
      found.push({ path, commit, date, keyword, schema });
    }
    return found;
  };

  const dated = git('ls-tree', '--name-only', 'HEAD', 'schema/')
    .trim()
    .split('\n')
    .filter((p) => /^schema\/\d{4}-\d{2}-\d{2}$/.test(p))
    .map((p) => `${p}/schema.json`);
  const all = [];
  const smallest = (candidates, schema) => {
    let best;
    for (const k of candidates) {
      const patch = jsonPatch.compare(all[k].schema, schema);
      const size = JSON.stringify(patch).length;
      if (best === undefined || size < best.size) best = { from: k, patch, size };
    }
    return best;
  };
  const draftCount = { n: 0 };
  for (const path of ['schema/draft/schema.json', ...dated]) {
    const draft = path === 'schema/draft/schema.json';
    const first = all.length;
    for (const v of committed(path)) {
      const i = all.length;
      const candidates = [];
      if (i > first) for (let k = Math.max(first, i - LOOK_BACK); k < i; k++) candidates.push(k);
      // A dated folder starts as a copy of some draft: its first version is patched from the closest.
      else if (!draft) for (let k = 0; k < draftCount.n; k++) candidates.push(k);
      all.push({ ...v, ...(candidates.length > 0 ? smallest(candidates, v.schema) : {}) });
    }
    if (draft) draftCount.n = all.length;
  }

  const head = {
    $comment:
      'Generated by scripts/draft-history.mjs from github.com/modelcontextprotocol/modelcontextprotocol (annotations removed): each version of a committed schema path, oldest first per path, stored as an RFC 6902 patch from an earlier version (`from`, an index here) or whole (`base`). Regenerate, do not edit.',
    source: 'https://github.com/modelcontextprotocol/modelcontextprotocol',
    head: git('rev-parse', 'HEAD').trim(),
    removed: ANNOTATIONS,
  };
  // One line per version: a regeneration shows which versions changed.
  const line = (v) =>
    JSON.stringify({
      path: v.path,
      commit: v.commit,
      date: v.date,
      keyword: v.keyword,
      ...(v.from === undefined ? { base: v.schema } : { from: v.from, patch: v.patch }),
    });
  const text = `${JSON.stringify(head).slice(0, -1)},"versions":[\n${all.map(line).join(',\n')}\n]}\n`;
  const check = rebuild(JSON.parse(text).versions);
  all.forEach((v, i) => {
    if (sortedJson(check[i]) !== sortedJson(replay(v.schema, v.keyword)))
      throw new Error(`${v.commit}: rebuild differs`);
  });
  writeFileSync(out, text);
  const perPath = new Map();
  for (const v of all) perPath.set(v.path, (perPath.get(v.path) ?? 0) + 1);
  console.log(
    `wrote ${out} (${Buffer.byteLength(text)} bytes): ${[...perPath].map(([p, n]) => `${p} ${n}`).join(', ')}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [clone, outArg] = process.argv.slice(2);
  if (!clone) {
    console.error(
      'usage: node scripts/draft-history.mjs <clone of modelcontextprotocol/modelcontextprotocol> [out file]',
    );
    process.exit(2);
  }
  const root = join(fileURLToPath(import.meta.url), '..', '..');
  main(clone, resolve(outArg ?? join(root, 'test', 'fixtures', 'draft-history.json')));
}
