/**
 * The published declarations that name Node's types (`NodeJS.*`, `Buffer`, `node:` modules) reference them
 * (`/// <reference types="node" />`): TypeScript 6 and later load no `@types` package unless a project lists it
 * or a declaration asks for it, so without the reference a user's `tsc` meets `Cannot find namespace 'NodeJS'`
 * in our files. Read from the builds on disk (the suite's setup rebuilds stale ones).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/generate.js';

const NODE_TYPES = /\bNodeJS\.|\bBuffer\b|\bfrom ["']node:/;
const REFERENCE = /^\/\/\/ <reference types="node"/m;

function declarations(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.d.ts'))
    .map((name) => join(dir, name));
}

it('every published declaration that uses Node types references them', () => {
  const files = [
    ...declarations(join(ROOT, 'dist', 'src')),
    ...declarations(join(ROOT, 'packages', 'runtime', 'dist')),
  ];
  expect(files.length).toBeGreaterThan(50);
  const missing = files
    .filter((file) => {
      const text = readFileSync(file, 'utf8');
      return NODE_TYPES.test(text) && !REFERENCE.test(text);
    })
    .map((file) => relative(ROOT, file));
  expect(missing).toEqual([]);
});
