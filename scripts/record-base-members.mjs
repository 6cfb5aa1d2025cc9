#!/usr/bin/env node
/**
 * Part of the tool build (scripts/build.mjs, after the JavaScript): the runtime base classes' members, read
 * once from their templates and written beside each built copy of src/emit/shared/base-members.ts, which uses
 * the record while the template still hashes the same instead of parsing it on every run. A record whose
 * templates still hash the same is kept as it is (parsing them loads ts-morph: most of this step's cost).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUILT = join(ROOT, 'dist', 'src', 'emit', 'shared');

export async function recordBaseMembers() {
  const { recordMembers, recordedIsCurrent, MEMBER_RECORD_FILE } = await import(
    pathToFileURL(join(BUILT, 'base-members.js')).href
  );
  let previous;
  try {
    previous = JSON.parse(readFileSync(join(BUILT, MEMBER_RECORD_FILE), 'utf8'));
  } catch {
    previous = undefined;
  }
  let record = previous;
  if (!previous || !recordedIsCurrent(previous)) {
    const { createTsFiles } = await import(pathToFileURL(join(BUILT, 'ts-project.js')).href);
    record = recordMembers(createTsFiles());
  }
  const text = `${JSON.stringify(record, null, 2)}\n`;
  // The library's module and the bin's bundle chunks each read the record next to themselves.
  for (const dir of ['dist/src/emit/shared', 'dist/cli']) writeFileSync(join(ROOT, dir, MEMBER_RECORD_FILE), text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await recordBaseMembers();
