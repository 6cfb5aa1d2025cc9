/** Renderers, exit codes and ignore files. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import {
  diffModels,
  exitCodeFor,
  parseIgnoreFile,
  renderGithub,
  renderJson,
  renderMarkdown,
  renderReport,
  renderText,
  REPORT_FORMATS,
  rules,
  type DiffReport,
  type FailOn,
  type SideFilter,
} from '../../src/diff/index.js';
import { escapeGithubData, escapeGithubProperty } from '../../src/diff/render.js';
import { InputError } from '../../src/errors.js';
import { fixture, modelOf, REPO_ROOT, versionModel, type FixtureSpec } from './helpers.js';

const reportSchema = JSON.parse(readFileSync(join(REPO_ROOT, 'schema', 'diff-report.schema.json'), 'utf8')) as Record<
  string,
  unknown
>;
const ajv = new Ajv2020Module.default({ strict: true, allErrors: true });
const validateReport = ajv.compile(reportSchema);

const real = diffModels(versionModel('2025-11-25'), versionModel('2026-07-28'), {
  ignore: [{ rule: 'required-method-added', location: 'server/discover/method', reason: 'known' }],
});
const batching = diffModels(versionModel('2025-03-26'), versionModel('2025-06-18'));
const empty = diffModels(versionModel('2025-06-18'), versionModel('2025-06-18'));

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});
function run(o: FixtureSpec, n: FixtureSpec): DiffReport {
  return diffModels(modelOf(fixture(o)), modelOf(fixture(n)), { oldName: 'old.json', newName: 'new.json' });
}

/** One fact per verdict class for each side, to exercise every threshold. */
const onlyPotentialForClient = run(
  { requests: { 'x/do': { result: obj({ e: { enum: ['a'] } }) } } },
  { requests: { 'x/do': { result: obj({ e: { enum: ['a', 'b'] } }) } } },
);
const onlyBreakingForServer = run(
  { requests: { 'x/do': { result: obj({ a: { type: 'string' } }) } } },
  { requests: { 'x/do': { result: obj({ a: { type: 'string' } }, ['a']) } } },
);
const onlyNonBreaking = run(
  { requests: { 'x/do': { params: obj({}) } } },
  { requests: { 'x/do': { params: obj({ b: { type: 'string' } }) } } },
);

describe('json', () => {
  test.each([
    ['2025-11-25 → 2026-07-28', real],
    ['2025-03-26 → 2025-06-18', batching],
    ['no changes', empty],
    ['fixture', onlyBreakingForServer],
  ])('%s: valid against schema/diff-report.schema.json', (_name, report) => {
    const data = JSON.parse(renderJson(report)) as unknown;
    expect(validateReport(data), JSON.stringify(validateReport.errors)).toBe(true);
  });

  test('the schema lists exactly the rule ids', () => {
    const defs = reportSchema.$defs as { ruleId: { enum: string[] } };
    expect(defs.ruleId.enum).toEqual(rules().map((r) => r.id));
  });

  test('stable: same input, same bytes; fixed key order; sorted facts', () => {
    const a = renderJson(diffModels(versionModel('2025-11-25'), versionModel('2026-07-28')));
    const b = renderJson(diffModels(versionModel('2025-11-25'), versionModel('2026-07-28')));
    expect(a).toBe(b);
    const data = JSON.parse(a) as { facts: { location: Record<string, unknown> }[] } & Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['formatVersion', 'old', 'new', 'summary', 'notes', 'facts', 'ignored']);
    expect(Object.keys(data.facts[0]!)).toEqual(['rule', 'location', 'verdicts', 'message', 'details']);
    expect(Object.keys(data.facts[0]!.location)).toEqual([
      'method',
      'methods',
      'kind',
      'directions',
      'part',
      'path',
      'key',
      'oldPointer',
      'newPointer',
      'side',
    ]);
    const parts = data.facts.map((f) => f.location.part);
    expect(parts.lastIndexOf('protocol')).toBeLessThan(parts.findIndex((p) => p !== 'protocol'));
    const perMethod = data.facts.filter((f) => f.location.part !== 'protocol' && f.location.part !== 'envelope');
    const methods = perMethod.map((f) => f.location.method as string);
    expect(methods).toEqual([...methods].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    expect(a.endsWith('\n')).toBe(true);
  });

  test('ignored facts and counts are carried', () => {
    const data = JSON.parse(renderJson(real)) as DiffReport & { ignored: { fact: { rule: string }; reason: string }[] };
    expect(data.summary.ignored).toBe(1);
    expect(data.ignored).toEqual([
      expect.objectContaining({ reason: 'known', fact: expect.objectContaining({ rule: 'required-method-added' }) }),
    ]);
    expect(data.summary.facts).toBe(data.facts.length);
    expect(data.summary.client.breaking).toBe(data.facts.filter((f) => f.verdicts.client === 'breaking').length);
  });
});

describe('text', () => {
  test('grouped by method, with verdicts for each side and a summary', () => {
    const text = renderText(batching);
    expect(text).toMatch(/^mcp-typegen diff: 2025-03-26 → 2025-06-18\n/);
    expect(text).toContain(
      '\nprotocol\n  [client: BREAKING, server: BREAKING] batching-removed  JSON-RPC batch support removed\n',
    );
    expect(text).toContain(
      '\nelicitation/create (request, server->client)\n  [client: ok, server: ok] method-added  request added (server->client)\n',
    );
    expect(text).toContain('tools/call (request, client->server)\n');
    expect(text).toMatch(
      /\n32 changes \(client: 1 breaking, 2 potentially breaking, 29 non-breaking; server: 1 breaking, 0 potentially breaking, 31 non-breaking\)\n$/,
    );
    // Each method heading appears once.
    expect(text.match(/^tools\/call /gm)).toHaveLength(1);
  });

  test('one side only', () => {
    const text = renderText(onlyBreakingForServer, { side: 'server' });
    expect(text).toContain('  [server: BREAKING] result-required-added  result.a: property "a" is now required\n');
    expect(text).not.toContain('client:');
  });

  test('no changes', () => {
    expect(renderText(empty)).toContain('\nNo changes.\n');
  });
});

describe('markdown', () => {
  test('the header names the extension files of each side and how many results were paired by name', () => {
    const withExtensions: DiffReport = {
      ...real,
      old: { ...real.old, extensions: [] },
      new: { ...real.new, extensions: ['io.modelcontextprotocol/tasks', 'acme.extension.json'] },
    };
    const named = `results paired by definition name: old ${real.old.pairedByName.length}, new ${real.new.pairedByName.length} requests (listed in the JSON report)`;
    const extensions = 'extensions: old none; new io.modelcontextprotocol/tasks, acme.extension.json';
    expect(renderText(withExtensions).split('\n').slice(0, 3)).toEqual([
      'mcp-typegen diff: 2025-11-25 → 2026-07-28',
      extensions,
      named,
    ]);
    expect(renderMarkdown(withExtensions)).toContain(`- ${extensions}\n- ${named}\n`);
    expect(renderText(real)).not.toContain('extensions:');
  });

  test('summary first (breaking counts per side), breaking facts open, the rest collapsed', () => {
    const md = renderMarkdown(real);
    const lines = md.split('\n');
    expect(lines[0]).toBe('## MCP schema diff: `2025-11-25` → `2026-07-28`');
    const c = real.summary.client;
    const s = real.summary.server;
    expect(lines[2]).toBe(`Breaking: client **${c.breaking}**, server **${s.breaking}**.`);
    expect(md).toContain(`| client | ${c.breaking} | ${c['potentially-breaking']} | ${c['non-breaking']} |`);
    expect(md).toContain(`| server | ${s.breaking} | ${s['potentially-breaking']} | ${s['non-breaking']} |`);
    expect(md).toContain(', 1 ignored.');
    const breaking = real.facts.filter((f) => f.verdicts.client === 'breaking' || f.verdicts.server === 'breaking');
    expect(md).toContain(`### Breaking (${breaking.length})`);
    expect(md).toContain('<details><summary>Potentially breaking (');
    expect(md).toContain('<details><summary>Non-breaking (');
    expect(md.indexOf('### Breaking')).toBeGreaterThan(md.indexOf('| server |'));
    expect(md.indexOf('### Breaking')).toBeLessThan(md.indexOf('<details>'));
    expect(md.match(/<details>/g)!.length).toBe(md.match(/<\/details>/g)!.length);
    expect(md).toContain(
      '| `method-removed` | `ping` | 🔴 breaking | 🔴 breaking | request removed (was client->server, server->client) |',
    );
    expect(md).not.toContain('Truncated');
  });

  test('never over 60,000 characters: what does not fit is counted and the JSON report named', () => {
    const many: DiffReport = { ...real, facts: Array.from({ length: 40 }, () => real.facts).flat() };
    many.summary = { ...real.summary, facts: many.facts.length };
    const md = renderMarkdown(many);
    expect(md.length).toBeLessThanOrEqual(60_000);
    expect(md.length).toBeGreaterThan(50_000);
    expect(md).toMatch(/> \*\*Truncated:\*\* \d+ of \d+ facts are not shown/);
    expect(md).toContain('--format json');
    expect(md.match(/<details>/g)?.length ?? 0).toBe(md.match(/<\/details>/g)?.length ?? 0);
    // Breaking facts come first, so they are what is shown.
    expect(md.indexOf('### Breaking')).toBeGreaterThan(0);
    const small = renderMarkdown(real, {}, 3_000);
    expect(small.length).toBeLessThanOrEqual(3_000);
    expect(small).toContain('Truncated');
  });

  test('pipes in cells are escaped', () => {
    const r = run(
      { requests: { 'x/do': { params: obj({ a: { type: ['string', 'null'] } }) } } },
      { requests: { 'x/do': { params: obj({ a: { type: 'string' } }) } } },
    );
    expect(renderMarkdown(r)).toContain('type narrowed: null\\|string → string');
  });
});

describe('github', () => {
  test('error for breaking, warning for potential, nothing for non-breaking; then one summary notice', () => {
    const out = renderGithub(batching, { maxAnnotations: 1000 }).trimEnd().split('\n');
    const worst = batching.facts.filter(
      (f) => f.verdicts.client !== 'non-breaking' || f.verdicts.server !== 'non-breaking',
    );
    expect(out).toHaveLength(worst.length + 1);
    expect(out[0]).toBe(
      '::error title=batching-removed (protocol)::protocol: JSON-RPC batch support removed [client: breaking, server: breaking]',
    );
    expect(out.slice(0, -1).every((l) => /^::(error|warning) /.test(l))).toBe(true);
    const lastError = out.map((l) => l.startsWith('::error')).lastIndexOf(true);
    expect(out.findIndex((l) => l.startsWith('::warning'))).toBeGreaterThan(lastError);
    expect(out.some((l) => l.includes('method-added'))).toBe(false);
    expect(out.at(-1)).toMatch(/^::notice title=MCP schema diff::2025-03-26 → 2025-06-18: \d+ changes/);
  });

  test('at most maxAnnotations (default 10) plus the summary, which counts the rest', () => {
    const all = real.facts.filter((f) => f.verdicts.client !== 'non-breaking' || f.verdicts.server !== 'non-breaking');
    expect(all.length).toBeGreaterThan(10);
    const out = renderGithub(real).trimEnd().split('\n');
    expect(out).toHaveLength(11);
    expect(out.at(-1)).toContain(`; ${all.length - 10} more not annotated`);
    expect(renderGithub(real, { maxAnnotations: 0 }).trimEnd().split('\n')).toHaveLength(1);
  });

  test('file= and line= of the changed schema location', () => {
    const seen: [string, string][] = [];
    const out = renderGithub(batching, {
      locate: (side, pointer) => {
        seen.push([side, pointer]);
        return { file: 'schema/a b,c.json', line: 42, source: 'a b,c.json' };
      },
    });
    expect(out).toContain('::warning file=schema/a b%2Cc.json,line=42,title=');
    expect(seen.some(([side, p]) => side === 'new' && p.startsWith('#/definitions/'))).toBe(true);
  });

  test('severity follows the chosen side', () => {
    expect(renderGithub(onlyBreakingForServer, { side: 'server' })).toMatch(/^::error /);
    expect(renderGithub(onlyBreakingForServer, { side: 'client' })).toMatch(/^::notice title=MCP schema diff::/);
    expect(renderGithub(onlyPotentialForClient, { side: 'both' })).toMatch(/^::warning /);
  });

  test('escaping per GitHub rules: % CR LF in data; also : and , in properties', () => {
    expect(escapeGithubData('50% a\r\nb: c, d')).toBe('50%25 a%0D%0Ab: c, d');
    expect(escapeGithubProperty('50% a\r\nb: c, d')).toBe('50%25 a%0D%0Ab%3A c%2C d');
    const r = run(
      { requests: { 'x/do': { params: obj({ 'a:b,c%': { type: 'string' } }, ['a:b,c%']) } } },
      { requests: { 'x/do': { params: obj({}) } } },
    );
    const line = renderGithub(r).split('\n')[0]!;
    expect(line).toBe(
      '::error title=request-param-required-property-removed (x/do params["a%3Ab%2Cc%25"])::x/do params["a:b,c%25"]: required property "a:b,c%25" removed [client: potentially-breaking, server: breaking]',
    );
  });
});

test('renderReport dispatches every format', () => {
  for (const f of REPORT_FORMATS) expect(renderReport(batching, f).length).toBeGreaterThan(0);
  expect(renderReport(batching, 'json')).toBe(renderJson(batching));
  expect(renderReport(batching, 'markdown')).toBe(renderMarkdown(batching));
});

describe('exitCodeFor', () => {
  // [report, failOn, side, expected]
  const table: [string, DiffReport, FailOn, SideFilter, 0 | 1][] = [];
  const add = (
    name: string,
    report: DiffReport,
    codes: Record<FailOn, [client: 0 | 1, server: 0 | 1, both: 0 | 1]>,
  ): void => {
    for (const [failOn, [c, s, b]] of Object.entries(codes) as [FailOn, [0 | 1, 0 | 1, 0 | 1]][]) {
      table.push(
        [name, report, failOn, 'client', c],
        [name, report, failOn, 'server', s],
        [name, report, failOn, 'both', b],
      );
    }
  };
  add('breaking for server only', onlyBreakingForServer, {
    breaking: [0, 1, 1],
    potential: [0, 1, 1],
    any: [1, 1, 1],
    none: [0, 0, 0],
  });
  add('potentially breaking for client only', onlyPotentialForClient, {
    breaking: [0, 0, 0],
    potential: [1, 0, 1],
    any: [1, 1, 1],
    none: [0, 0, 0],
  });
  add('non-breaking only', onlyNonBreaking, {
    breaking: [0, 0, 0],
    potential: [0, 0, 0],
    any: [1, 1, 1],
    none: [0, 0, 0],
  });
  add('no facts', empty, { breaking: [0, 0, 0], potential: [0, 0, 0], any: [0, 0, 0], none: [0, 0, 0] });
  add('batching removed', batching, { breaking: [1, 1, 1], potential: [1, 1, 1], any: [1, 1, 1], none: [0, 0, 0] });

  test.each(table)('%s, --fail-on %s --side %s → %i', (_name, report, failOn, side, code) => {
    expect(exitCodeFor(report, failOn, side)).toBe(code);
  });

  test('defaults: breaking, both sides', () => {
    expect(exitCodeFor(onlyBreakingForServer)).toBe(1);
    expect(exitCodeFor(onlyPotentialForClient)).toBe(0);
  });

  test('bad arguments are InputErrors', () => {
    expect(() => exitCodeFor(empty, 'sometimes' as FailOn)).toThrow(InputError);
    expect(() => exitCodeFor(empty, 'breaking', 'peer' as SideFilter)).toThrow(
      /--side must be one of client, server, both/,
    );
  });

  test('ignored facts do not count', () => {
    const ignore = parseIgnoreFile(
      JSON.stringify([{ rule: 'result-required-added', location: 'x/do/result/a' }]),
      'ignore.json',
    );
    const r = diffModels(
      modelOf(fixture({ requests: { 'x/do': { result: obj({ a: { type: 'string' } }) } } })),
      modelOf(fixture({ requests: { 'x/do': { result: obj({ a: { type: 'string' } }, ['a']) } } })),
      { ignore },
    );
    expect(r.facts).toEqual([]);
    expect(r.summary.ignored).toBe(1);
    expect(exitCodeFor(r, 'any', 'both')).toBe(0);
  });
});

describe('ignore file', () => {
  const o = modelOf(fixture({ requests: { 'a/keep': {}, 'b/old': {}, 'c/old': {} } }));
  const n = modelOf(fixture({ requests: { 'a/keep': {} } }));

  test('exact location, glob, rule-wide; reasons kept', () => {
    const cases: [string, number][] = [
      ['[{"rule":"method-removed","location":"b/old/method","reason":"gone on purpose"}]', 1],
      ['[{"rule":"method-removed","location":"*/old/method"}]', 2],
      ['[{"rule":"method-removed"}]', 2],
      ['[{"rule":"method-removed","location":"b/old"}]', 0],
      ['[{"rule":"method-added","location":"b/old/method"}]', 0],
      ['[]', 0],
    ];
    for (const [text, ignored] of cases) {
      const r = diffModels(o, n, { ignore: parseIgnoreFile(text, 'ignore.json') });
      expect(r.summary.ignored, text).toBe(ignored);
      expect(r.facts.length + r.ignored.length).toBe(2);
    }
    const r = diffModels(o, n, { ignore: parseIgnoreFile(cases[0]![0], 'ignore.json') });
    expect(r.ignored[0]!.reason).toBe('gone on purpose');
    expect(r.ignored[0]!.fact.location.method).toBe('b/old');
  });

  test.each([
    ['[{"rule":"no-such-rule","location":"x"}]', '/0/rule', /unknown rule "no-such-rule"/],
    ['[{"rule":"method-removed"},{"rule":"metod-removed"}]', '/1/rule', /unknown rule "metod-removed"/],
    ['{"rule":"method-removed"}', '', /must be a JSON array/],
    ['[{"rule":"method-removed","location":3}]', '/0/location', /location must be a string/],
    ['[{"rule":"method-removed","where":"x"}]', '/0/where', /unknown key "where"/],
    ['["method-removed"]', '/0', /must be an object/],
    ['[{"rule":', '', /not valid JSON/],
  ])('%s → InputError at %s', (text, pointer, reason) => {
    let error: unknown;
    try {
      parseIgnoreFile(text, 'diff-ignore.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).file).toBe('diff-ignore.json');
    expect((error as InputError).pointer).toBe(pointer);
    expect((error as InputError).reason).toMatch(reason);
  });
});
