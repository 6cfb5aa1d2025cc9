/**
 * Issue 44, item 6: one truth for verdicts and validation. For each rule of the tool surface, a tool changed
 * between two snapshots: both are generated, and the validators the generated clients and servers run
 * (tool-validators.js: a client checks the structured results it receives and the arguments it sends, a server
 * the arguments it receives) decide, over sample values, who rejects whom. `diff` must call a change breaking
 * for clients exactly when something the old client sends or receives is rejected (the new server refuses its
 * arguments, or it refuses the new server's answers), and for servers likewise.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSnapshot } from '../../src/load/snapshot-file.js';
import { diffSnapshots } from '../../src/snapshot/diff.js';
import { tempDir } from '../helpers/generate.js';
import { buildWithTools, GOLDEN_FIXTURE } from './tools-build.js';

type Schema = Record<string, unknown>;
interface Case {
  rule: string;
  input?: [Schema, Schema];
  output?: [Schema, Schema];
  /** Values tried against the changed schema (arguments or structured results). */
  samples: unknown[];
  /** Whether old writers' values are still accepted cannot be told statically (two patterns): potentially breaking. */
  undecided?: boolean;
}

const object = (properties: Schema, extra: Schema = {}) => ({ type: 'object', properties, ...extra });
const unit = (e: unknown[]) => object({ unit: { type: 'string', enum: e } }, { required: ['unit'] });
const number = (more: Schema) => object({ n: { type: 'number', ...more } }, { required: ['n'] });

const CASES: Record<string, Case> = {
  'output-enum-widened': {
    rule: 'result-enum-value-added',
    output: [unit(['c', 'f']), unit(['c', 'f', 'k'])],
    samples: [{ unit: 'c' }, { unit: 'k' }],
  },
  'output-enum-narrowed': {
    rule: 'result-enum-value-removed',
    output: [unit(['c', 'f', 'k']), unit(['c', 'f'])],
    samples: [{ unit: 'c' }, { unit: 'k' }],
  },
  'output-range-loosened': {
    rule: 'result-numeric-range-loosened',
    output: [number({ maximum: 10 }), number({ maximum: 20 })],
    samples: [{ n: 5 }, { n: 15 }],
  },
  'output-extra-allowed': {
    rule: 'result-additional-properties-widened',
    output: [object({ a: { type: 'string' } }, { additionalProperties: false }), object({ a: { type: 'string' } })],
    samples: [{ a: 'x' }, { a: 'x', b: 1 }],
  },
  'output-type-widened': {
    rule: 'result-type-widened',
    output: [number({ type: 'integer' }), number({})],
    samples: [{ n: 1 }, { n: 1.5 }],
  },
  'output-required-added': {
    rule: 'result-required-added',
    output: [object({ a: { type: 'string' } }), object({ a: { type: 'string' } }, { required: ['a'] })],
    samples: [{}, { a: 'x' }],
  },
  'output-made-optional': {
    rule: 'result-required-removed',
    output: [object({ a: { type: 'string' } }, { required: ['a'] }), object({ a: { type: 'string' } })],
    samples: [{}, { a: 'x' }],
  },
  'input-enum-widened': {
    rule: 'request-param-enum-value-added',
    input: [unit(['c', 'f']), unit(['c', 'f', 'k'])],
    samples: [{ unit: 'c' }, { unit: 'k' }],
  },
  'input-enum-narrowed': {
    rule: 'request-param-enum-value-removed',
    input: [unit(['c', 'f', 'k']), unit(['c', 'f'])],
    samples: [{ unit: 'c' }, { unit: 'k' }],
  },
  'input-length-loosened': {
    rule: 'request-param-length-limit-loosened',
    input: [
      object({ s: { type: 'string', maxLength: 3 } }, { required: ['s'] }),
      object({ s: { type: 'string', maxLength: 9 } }, { required: ['s'] }),
    ],
    samples: [{ s: 'abc' }, { s: 'abcdef' }],
  },
  'input-required-added': {
    rule: 'request-param-required-added',
    input: [object({ a: { type: 'string' } }), object({ a: { type: 'string' } }, { required: ['a'] })],
    samples: [{}, { a: 'x' }],
  },
  'input-extra-refused': {
    rule: 'request-param-additional-properties-narrowed',
    input: [object({ a: { type: 'string' } }), object({ a: { type: 'string' } }, { additionalProperties: false })],
    samples: [{ a: 'x' }, { a: 'x', b: 1 }],
  },
  'input-pattern-changed': {
    rule: 'request-param-pattern-changed',
    input: [
      object({ s: { type: 'string', pattern: '^a' } }, { required: ['s'] }),
      object({ s: { type: 'string', pattern: 'z$' } }, { required: ['s'] }),
    ],
    samples: [{ s: 'ab' }, { s: 'yz' }, { s: 'az' }],
    undecided: true,
  },
};

const OPEN = { type: 'object' };
function snapshot(side: 0 | 1): string {
  const tools = Object.fromEntries(
    Object.entries(CASES).map(([name, c]) => [
      name,
      { name, inputSchema: c.input?.[side] ?? OPEN, ...(c.output ? { outputSchema: c.output[side] } : {}) },
    ]),
  );
  const file = join(tempDir('diff-verdicts'), `${side === 0 ? 'old' : 'new'}.snapshot.json`);
  writeFileSync(file, JSON.stringify({ mcpSnapshot: 1, server: { name: 'verdicts' }, tools }));
  return file;
}

type Validators = Record<string, (value: unknown) => boolean>;
const pascal = (name: string) => name.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase());
let files: [string, string];
let validators: [Validators, Validators];

beforeAll(async () => {
  files = [snapshot(0), snapshot(1)];
  const schema = join(GOLDEN_FIXTURE, 'schema.json');
  const builds = await Promise.all(
    files.map((tools, i) => buildWithTools(`diff-verdicts-${i}`, { spec: undefined, schema, tools })),
  );
  validators = (await Promise.all(builds.map((b) => b.load('tool-validators.js')))) as [Validators, Validators];
});

describe.each(Object.entries(CASES))('%s', (name, c) => {
  it(`diff's verdict per side (${c.rule}) is what the generated validators of both sides do`, () => {
    const [older, newer] = validators;
    const part = c.output ? `${pascal(name)}StructuredContent` : `${pascal(name)}Arguments`;
    const rejects = (reader: Validators, writer: Validators) =>
      c.samples.some((v) => writer[part]!(v) && !reader[part]!(v));
    // Results: the server writes, the client reads; arguments: the other way round.
    const [clientBreaks, serverBreaks] = c.output
      ? [rejects(older, newer), rejects(newer, older)]
      : [rejects(newer, older), rejects(older, newer)];
    const report = diffSnapshots(
      parseSnapshot(readText(files[0]), files[0]),
      parseSnapshot(readText(files[1]), files[1]),
      {},
    );
    const facts = report.facts.filter((f) => f.location.method === `tool ${name}`);
    expect(facts.map((f) => f.rule)).toContain(c.rule);
    // The writer of an undecided change is told "potentially breaking"; a validating reader is rejected either way.
    const writer = c.output ? 'server' : 'client';
    const worst = (side: 'client' | 'server') =>
      facts.some((f) => f.verdicts[side] === 'breaking') ||
      (c.undecided === true && side === writer && facts.some((f) => f.verdicts[side] === 'potentially-breaking'));
    expect({ client: worst('client'), server: worst('server') }).toEqual({
      client: clientBreaks,
      server: serverBreaks,
    });
    // Every case changes something a validator sees.
    expect(clientBreaks || serverBreaks).toBe(true);
  });
});

const readText = (file: string) => readFileSync(file, 'utf8');
