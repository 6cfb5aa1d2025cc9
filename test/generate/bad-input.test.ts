/**
 * Bad input through the CLI: one error line (plus at most one hint line) on stderr that names the file
 * (and the JSON pointer), exit code 2, and an output directory left exactly as it was.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SCHEMAS, SCHEMA_DIR, cli, snapshotDir, tempDir } from '../helpers/generate.js';

const fixture = (name: string) => join(FIXTURE_SCHEMAS, name);
const MINIMAL = fixture('minimal.schema.json');
const ARTIFACTS = ['--artifacts', 'types', 'maps'];

/** An out dir holding a previous generation plus a user's own file. */
let pristine: string;
function populatedCopy(name: string): string {
  const dir = join(tempDir(`bad-${name}`), 'out');
  cpSync(pristine, dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  pristine = join(tempDir('bad-pristine'), 'out');
  const { code, stderr } = await cli(['generate', '--schema', MINIMAL, ...ARTIFACTS, '--out', pristine]);
  expect(stderr).toMatch(/^warning: .*not a known MCP schema/);
  expect(code).toBe(0);
  writeFileSync(join(pristine, 'NOTES.md'), 'my own notes\n');
});

interface Case {
  name: string;
  args: string[];
  /** Every one of these must be on the error line. */
  error: string[];
  hint?: RegExp;
}

const CASES: Case[] = [
  {
    name: 'missing file',
    args: ['--schema', fixture('does-not-exist.schema.json')],
    error: [`error: ${fixture('does-not-exist.schema.json')}: file not found`],
  },
  {
    name: 'invalid JSON',
    args: ['--schema', fixture('invalid-json.schema.json')],
    // The `}` after the trailing comma on line 3.
    error: [`error: ${fixture('invalid-json.schema.json')}: invalid JSON at line 3, column 30`],
  },
  {
    name: 'not an MCP schema',
    args: ['--schema', fixture('not-mcp.schema.json')],
    error: [`error: ${fixture('not-mcp.schema.json')}#/definitions: not an MCP schema`, 'ClientRequest'],
  },
  {
    name: 'dangling $ref',
    args: ['--schema', fixture('dangling-ref.schema.json')],
    error: [
      `error: ${fixture('dangling-ref.schema.json')}#/$defs/PingRequest/properties/params/$ref: dangling $ref "#/$defs/Missing~1Params"`,
    ],
  },
  {
    // decodeURIComponent threw a URIError: "internal error" and a stack trace.
    name: 'malformed % escape in a $ref',
    args: ['--schema', fixture('bad-escape-ref.schema.json')],
    error: [
      `error: ${fixture('bad-escape-ref.schema.json')}#/$defs/PingRequest/properties/params/$ref: $ref "#/$defs/Ping%ZZParams" has a malformed percent-escape`,
    ],
  },
  {
    // ajv overflowed its stack resolving this `$ref` against the `$id` beside it.
    name: '$id beside $ref',
    args: ['--schema', fixture('id-beside-ref.schema.json')],
    error: [
      `error: ${fixture('id-beside-ref.schema.json')}#/$defs/Aliased: its "$ref" ("#/$defs/RequestId") resolves against the "$id" beside it ("https://example.com/aliased"), not against this file`,
    ],
    hint: /remove that "\$id"/,
  },
  {
    // json-schema-to-typescript printed its own messages first, and the error line had no reason.
    name: 'refused by json-schema-to-typescript',
    args: ['--schema', fixture('jstt-refused.schema.json')],
    error: [
      `error: ${fixture('jstt-refused.schema.json')}#/$defs/HelloNotification/properties/params/properties/tags: json-schema-to-typescript refuses this schema: When both maxItems and minItems are present, maxItems >= minItems`,
    ],
  },
  {
    name: 'unknown --spec',
    args: ['--spec', '1999-01-01'],
    error: [`error: ${join(SCHEMA_DIR, '1999-01-01', 'schema.json')}: unknown spec version "1999-01-01"`],
    hint: /known versions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28/,
  },
  {
    name: 'unknown --spec that is a path',
    args: ['--spec', '../2025-11-25'],
    error: ['unknown spec version "../2025-11-25"'],
    hint: /known versions/,
  },
  {
    name: '--schema with --spec',
    args: ['--schema', MINIMAL, '--spec', '2025-11-25'],
    error: ['error: ', '--schema', '--spec', 'cannot be used together'],
  },
];

describe.each(CASES)('$name', ({ name, args, error, hint }) => {
  // --check reads the same input first; trying it on two cases is enough (each CLI start costs ~1 s).
  const commands =
    name === 'dangling $ref' || name === 'unknown --spec' ? [['generate'], ['generate --check']] : [['generate']];
  it.each(commands)('%s: one error line, exit 2, out dir untouched', async (command) => {
    const out = populatedCopy(name.replace(/\W+/g, '-'));
    const before = snapshotDir(out);
    const { code, stdout, stderr } = await cli([...command.split(' '), ...args, ...ARTIFACTS, '--out', out]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.split('\n').filter((l) => l !== '');
    expect(lines.length, stderr).toBeGreaterThanOrEqual(1);
    expect(lines.length, stderr).toBeLessThanOrEqual(2);
    for (const part of error) expect(lines[0]).toContain(part);
    expect(lines[0]).not.toContain('internal error');
    if (lines[1] !== undefined) expect(lines[1]).toMatch(/^ {2}hint: /);
    if (hint) expect(lines[1]).toMatch(hint);
    expect(snapshotDir(out)).toEqual(before);
  });
});

describe('files the tool did not generate', () => {
  it('a user types.ts without our header is never overwritten: exit 2, nothing written at all', async () => {
    const out = join(tempDir('bad-user-file'), 'out');
    cpSync(pristine, out, { recursive: true });
    // Replace the generated types.ts and forget about the manifest: this is a user's file now.
    writeFileSync(join(out, 'types.ts'), 'export type Mine = 1;\n');
    rmSync(join(out, '.mcp-typegen.json'));
    const before = snapshotDir(out);
    const { code, stderr } = await cli(['generate', '--schema', MINIMAL, ...ARTIFACTS, '--out', out]);
    expect(code).toBe(2);
    const errors = stderr.split('\n').filter((l) => l.startsWith('error: '));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(join(out, 'types.ts'));
    expect(errors[0]).toContain('not generated by mcp-typegen');
    expect(snapshotDir(out)).toEqual(before);
  });

  it('into a fresh dir holding only a user index.ts: exit 2, no generated file appears', async () => {
    const out = join(tempDir('bad-user-index'), 'out');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'index.ts'), '// my index\nexport {};\n');
    const before = snapshotDir(out);
    const { code, stderr } = await cli(['generate', '--schema', MINIMAL, ...ARTIFACTS, '--out', out]);
    expect(code).toBe(2);
    expect(stderr).toContain(join(out, 'index.ts'));
    expect(snapshotDir(out)).toEqual(before);
  });
});
