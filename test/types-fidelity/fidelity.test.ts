/**
 * Generated types.ts against the spec's own schema.ts (the oracle, read from ../shared), for every
 * version: every common exported type must be mutually assignable, except the differences listed in
 * docs/type-fidelity.md. The same program also compiles types generated with one rule left out, for
 * each row of the doc's rule table, to prove each rule is what makes the listed types agree.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { emitTypes, type EmitTypesOptions } from '../../src/emit/types/types.js';
import { ROOT, SCHEMA_DIR, VERSIONS, generated, tempDir, type Version } from '../helpers/generate.js';
import { compare, type Comparison, type Pair } from './oracle.js';

type Rule = NonNullable<EmitTypesOptions['withoutRules']>[number];

const DOC = join(ROOT, 'docs', 'type-fidelity.md');

/** The rows of the markdown table under `## <heading>`, as arrays of trimmed cells (header and rule line skipped). */
function tableRows(markdown: string, heading: string): string[][] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith(`${heading}\n`));
  if (!section) throw new Error(`docs/type-fidelity.md has no "## ${heading}" section`);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

const names = (cell: string) => [...cell.matchAll(/`([A-Za-z0-9_]+)`/g)].map((m) => m[1]!);

const doc = readFileSync(DOC, 'utf8');
/** Allowed differences: version → type → why. */
const differences = tableRows(doc, 'Differences').map(([version, type]) => ({ version, type: names(type!)[0] }));
/** Rule rows: the rule, the version, and the types that disagree with the spec without it. */
const ruleRows = tableRows(doc, 'Rules').map(([rule, , version, types]) => ({
  rule: /`([\w-]+)`/.exec(rule!)?.[1] as Rule,
  version: version as Version,
  types: names(types!),
}));

let base: Map<Version, Comparison>;
let withoutRule: Comparison[];

beforeAll(async () => {
  const dir = tempDir('types-fidelity');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const write = (name: string, contents: string) => {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, 'types.ts'), contents);
    return join(dir, name, 'types.ts');
  };
  const spec = (version: Version) => join(SCHEMA_DIR, version, 'schema.ts');
  const results = await Promise.all(VERSIONS.map((v) => generated(v, { artifacts: ['types'], format: false })));
  const pairs: Pair[] = VERSIONS.map((version, i) => ({
    label: version,
    generated: write(version, results[i]!.files.find((f) => f.path === 'types.ts')!.contents),
    spec: spec(version),
  }));
  for (const row of ruleRows) {
    const { model, schemaFile } = results[VERSIONS.indexOf(row.version)]!;
    const types = await emitTypes(model, schemaFile, { withoutRules: [row.rule] });
    pairs.push({
      label: `${row.version} without ${row.rule}`,
      generated: write(`${row.version}-without-${row.rule}`, types),
      spec: spec(row.version),
    });
  }
  const compared = compare(pairs);
  base = new Map(VERSIONS.map((v, i) => [v, compared[i]!]));
  withoutRule = compared.slice(VERSIONS.length);
});

describe('generated types.ts is mutually assignable with the spec schema.ts', () => {
  it('the doc tables are well-formed', () => {
    for (const d of differences) expect(VERSIONS).toContain(d.version);
    expect(ruleRows.length).toBeGreaterThan(0);
    for (const row of ruleRows) {
      expect(VERSIONS).toContain(row.version);
      expect(row.types.length).toBeGreaterThan(0);
    }
  });

  for (const version of VERSIONS) {
    it(`${version}: every common type agrees both ways, except the documented differences (≥ 98%)`, () => {
      const result = base.get(version)!;
      expect(result.common.length).toBeGreaterThan(50);
      const failing = [...result.failures].map(([name, directions]) => `${name} (${directions.join(', ')})`);
      const allowed = differences.filter((d) => d.version === version).map((d) => d.type);
      expect(failing.filter((f) => !allowed.includes(f.split(' ')[0]))).toEqual([]);
      // A listed difference that went away must leave the table too.
      expect(allowed.filter((a) => !result.failures.has(a!))).toEqual([]);
      expect(1 - result.failures.size / result.common.length).toBeGreaterThanOrEqual(0.98);
    });
  }

  it('each rule in the doc is what makes its listed types agree: without it they do not', () => {
    ruleRows.forEach((row, i) => {
      const failing = withoutRule[i]!.failures;
      expect({ row: withoutRule[i]!.label, notFailing: row.types.filter((t) => !failing.has(t)) }).toEqual({
        row: withoutRule[i]!.label,
        notFailing: [],
      });
    });
  });
});
