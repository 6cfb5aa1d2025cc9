#!/usr/bin/env node
/**
 * Part of the tool build (scripts/build.mjs, after tsc): the runtime base classes' members, read once from
 * their templates and written beside each built copy of src/emit/shared/base-members.ts, which uses the record
 * while the template still hashes the same instead of parsing it on every run.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { recordMembers, MEMBER_RECORD_FILE } = await import('../dist/src/emit/shared/base-members.js');
const { createTsFiles } = await import('../dist/src/emit/shared/ts-project.js');

const text = `${JSON.stringify(recordMembers(createTsFiles()), null, 2)}\n`;
// The library's module and the bin's bundle chunks each read the record next to themselves.
for (const dir of ['dist/src/emit/shared', 'dist/cli']) writeFileSync(join(ROOT, dir, MEMBER_RECORD_FILE), text);
