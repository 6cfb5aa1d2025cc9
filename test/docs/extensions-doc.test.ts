/**
 * docs/extensions.md (issue 35, item 8): every ```json block is a whole extension file, preceded by a comment
 * that names it and the versions it is generated for (a block without one fails):
 *
 *   <!-- example: name=echo spec=2025-11-25,2026-07-28 -->
 *   <!-- example: name=augment-retype spec=2025-11-25 refused="…the exact reason…" -->
 *
 * Each is generated in process for each version (all artifacts); the outputs are compiled together under
 * tsc --strict. A `refused` one must be refused with exactly that reason, at a pointer into the file.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { generate } from '../../src/index.js';
import { SCHEMA_DIR, tempDir, tscProject, writeFiles } from '../helpers/generate.js';
import { ROOT } from '../helpers/paths.js';

const DOC = join(ROOT, 'docs', 'extensions.md');

interface Example {
  name: string;
  specs: string[];
  refused?: string;
  line: number;
  json: string;
}

/** The ```json blocks of the doc with their example comments. */
function examples(): Example[] {
  const lines = readFileSync(DOC, 'utf8').split('\n');
  const found: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```json') continue;
    let before = i - 1;
    while (before >= 0 && lines[before]?.trim() === '') before--;
    const comment = /^<!-- example: (.*) -->$/.exec(lines[before] ?? '');
    if (!comment)
      throw new Error(`docs/extensions.md:${i + 1}: a \`\`\`json block without an <!-- example: … --> comment`);
    const attributes = Object.fromEntries(
      [...(comment[1] ?? '').matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|(\S+))/g)].map((m) => [
        m[1],
        m[2] !== undefined ? m[2].replace(/\\"/g, '"') : m[3],
      ]),
    );
    const end = lines.indexOf('```', i + 1);
    found.push({
      name: String(attributes['name']),
      specs: String(attributes['spec']).split(','),
      ...(attributes['refused'] !== undefined ? { refused: attributes['refused'] } : {}),
      line: i + 1,
      json: lines.slice(i + 1, end).join('\n'),
    });
  }
  return found;
}

const all = examples();
let dir: string;
const outcomes = new Map<string, unknown>();

beforeAll(async () => {
  dir = tempDir('extensions-doc');
  for (const example of all) {
    const file = join(dir, 'files', `${example.name}.extension.json`);
    mkdirSync(join(dir, 'files'), { recursive: true });
    writeFileSync(file, example.json);
    for (const spec of example.specs) {
      const out = join(dir, 'out', `${example.name}-${spec}`);
      try {
        const result = await generate({ spec, schemaDir: SCHEMA_DIR, cwd: ROOT, outDir: out, extensions: [file] });
        writeFiles(out, result.files);
        outcomes.set(`${example.name} ${spec}`, 'generated');
      } catch (error) {
        outcomes.set(`${example.name} ${spec}`, error);
      }
    }
  }
}, 300_000);

describe('docs/extensions.md: every example', () => {
  it('there are examples, with unique names, each a JSON object with an extension id', () => {
    expect(all.length).toBeGreaterThanOrEqual(8);
    expect(new Set(all.map((e) => e.name)).size).toBe(all.length);
    for (const e of all) expect(JSON.parse(e.json), `line ${e.line}`).toHaveProperty('extension');
  });

  it('generates for the versions it names, or is refused with the reason shown', () => {
    for (const e of all) {
      for (const spec of e.specs) {
        const outcome = outcomes.get(`${e.name} ${spec}`);
        if (e.refused === undefined) {
          expect(outcome, `${e.name} (${spec}), line ${e.line}`).toBe('generated');
        } else {
          expect(outcome, `${e.name} (${spec})`).toBeInstanceOf(InputError);
          expect((outcome as InputError).reason).toBe(e.refused);
          expect((outcome as InputError).pointer).toMatch(/^\//);
        }
      }
    }
  });

  it('their outputs compile together under tsc --strict', async () => {
    const result = await tscProject(join(dir, 'out'), { skipLibCheck: true });
    expect(`${result.stdout}${result.stderr}`.split('\n').filter((l) => /error TS/.test(l))).toEqual([]);
    expect(result.code).toBe(0);
  }, 300_000);
});
