/**
 * `diff` of two hand-written snapshots: what a client of the server and the server's implementation each
 * lose when tools, prompts and templates are added or removed, arguments made required, argument and
 * structured-result types narrowed or widened; exit codes, the annotations' lines, bad input.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/diff/render.js';
import { diffSnapshots } from '../../src/snapshot/diff.js';
import { parseSnapshot, renderSnapshot, type Snapshot } from '../../src/load/snapshot-file.js';
import { templateVariables } from '../../src/load/snapshot-arguments.js';
import type { Fact } from '../../src/diff/types.js';
import { REPO_ROOT, runCli, tempDir } from '../cli/helpers.js';

const base = (): Snapshot => ({
  mcpSnapshot: 1,
  server: { name: 'demo', version: '1.0.0' },
  protocolVersion: '2025-11-25',
  tools: {
    echo: {
      name: 'echo',
      inputSchema: { type: 'object', properties: { message: { type: 'string' }, times: { type: 'integer' } } },
      outputSchema: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      },
    },
    gone: { name: 'gone', inputSchema: { type: 'object' } },
  },
  prompts: { greet: { name: 'greet', arguments: [{ name: 'who' }] } },
  resourceTemplates: { 'file:///{path}': { name: 'file', uriTemplate: 'file:///{path}' } },
});

function changed(): Snapshot {
  const s = base();
  const echo = s.tools.echo as { inputSchema: any; outputSchema: any };
  echo.inputSchema.required = ['message']; // an argument made required
  echo.inputSchema.properties.times = { type: ['integer', 'string'] }; // an argument type widened
  echo.outputSchema.properties.text = { type: ['string', 'null'] }; // a structured-result type widened
  delete s.tools.gone;
  s.tools.added = { name: 'added', inputSchema: { type: 'object' } };
  s.prompts = { greet: { name: 'greet', arguments: [{ name: 'who', required: true }] } };
  s.resourceTemplates = { 'db://{table}/{id}': { name: 'row', uriTemplate: 'db://{table}/{id}' } };
  return s;
}

const brief = (f: Fact) =>
  `${f.location.method} ${f.rule} ${f.location.path} ${f.verdicts.client}/${f.verdicts.server}`;

describe('diff of two snapshots', () => {
  it('each change once, with its verdict for the client and for the server', () => {
    const report = diffSnapshots(base(), changed(), { oldName: 'old', newName: 'new' });
    expect(report.facts.map(brief)).toEqual([
      'prompt greet request-param-required-added params.who breaking/non-breaking',
      'resource template db://{table}/{id} method-added  non-breaking/non-breaking',
      'resource template file:///{path} method-removed  breaking/non-breaking',
      'tool added method-added  non-breaking/non-breaking',
      'tool echo request-param-required-added params.message breaking/non-breaking',
      'tool echo request-param-type-widened params.times non-breaking/breaking',
      'tool echo result-type-widened result.text breaking/non-breaking',
      'tool gone method-removed  breaking/non-breaking',
    ]);
  });

  it('its JSON report is valid against schema/diff-report.schema.json', () => {
    const schema = JSON.parse(readFileSync(join(REPO_ROOT, 'schema', 'diff-report.schema.json'), 'utf8')) as object;
    const validate = new Ajv2020Module.default({ strict: true, allErrors: true }).compile(schema);
    const data: unknown = JSON.parse(renderJson(diffSnapshots(base(), changed(), { oldName: 'a', newName: 'b' })));
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
  });

  it('the other way round: a narrowed result or a requirement dropped breaks the server (its code relied on them)', () => {
    const report = diffSnapshots(changed(), base(), {});
    expect(report.facts.filter((f) => f.location.method === 'tool echo').map(brief)).toEqual([
      'tool echo request-param-required-removed params.message non-breaking/breaking',
      'tool echo request-param-type-narrowed params.times breaking/non-breaking',
      'tool echo result-type-narrowed result.text non-breaking/breaking',
    ]);
  });

  it('a tool that gains an outputSchema promises a shape (the server must now keep it); losing it breaks clients', () => {
    const without = base();
    delete (without.tools.echo as { outputSchema?: unknown }).outputSchema;
    expect(diffSnapshots(base(), without, {}).facts.map((f) => f.verdicts)).toEqual(
      expect.arrayContaining([{ client: 'breaking', server: 'non-breaking' }]),
    );
    expect(diffSnapshots(without, base(), {}).facts.every((f) => f.verdicts.client === 'non-breaking')).toBe(true);
  });

  it('a tool schema with its own $defs is compared through them', () => {
    const withDefs = (type: string): Snapshot => ({
      ...base(),
      tools: {
        t: {
          name: 't',
          inputSchema: {
            type: 'object',
            properties: { p: { $ref: '#/$defs/P' } },
            $defs: { P: { type: 'object', properties: { q: { type } } } },
          },
        },
      },
    });
    expect(diffSnapshots(withDefs('string'), withDefs('number'), {}).facts.map(brief)).toEqual([
      'tool t request-param-type-changed params.p.q breaking/breaking',
    ]);
  });

  it('URI template variables: query expansions optional, the rest required', () => {
    expect(templateVariables('db://{table}/{+path}{?q,limit}')).toEqual({
      type: 'object',
      properties: {
        table: { type: 'string' },
        path: { type: 'string' },
        q: { type: 'string' },
        limit: { type: 'string' },
      },
      required: ['path', 'table'],
    });
  });
});

describe('diff <old.snapshot.json> <new.snapshot.json> (the CLI)', () => {
  const dir = tempDir('snapshot-diff');
  const oldFile = join(dir, 'old.snapshot.json');
  const newFile = join(dir, 'new.snapshot.json');
  writeFileSync(oldFile, renderSnapshot(base()));
  writeFileSync(newFile, renderSnapshot(changed()));

  it('exit 1 on breaking changes; --side server sees only its own; no blindness error for a small surface', async () => {
    const both = await runCli(['diff', oldFile, newFile]);
    expect(both.code).toBe(1);
    expect(both.stdout).toContain('tool gone');
    const server = await runCli(['diff', oldFile, newFile, '--side', 'server', '--format', 'json']);
    expect(server.code).toBe(1); // params.times widened: an old implementation rejects strings
    const only = await runCli(['diff', oldFile, oldFile]);
    expect(only.code).toBe(0);
    expect(only.stderr).toBe('');
  });

  it('github annotations point at the line of the file each fact lives on', async () => {
    const run = await runCli(['diff', oldFile, newFile, '--format', 'github']);
    const lines = run.stdout.trim().split('\n');
    const texts = { old: readFileSync(oldFile, 'utf8'), new: readFileSync(newFile, 'utf8') };
    const located = lines.filter((l) => l.includes('file='));
    expect(located.length).toBeGreaterThanOrEqual(6);
    for (const line of located) {
      const [, file, at] = /file=([^,]+),line=(\d+)/.exec(line) ?? [];
      const which = file === relative(REPO_ROOT, oldFile) ? 'old' : file === relative(REPO_ROOT, newFile) ? 'new' : '';
      expect(which).not.toBe('');
      const lineText = texts[which as 'old' | 'new'].split('\n')[Number(at) - 1] ?? '';
      // Each annotation sits on the key it is about (or, for a prompt argument, on its prompt's arguments).
      const about = unescapeProperty(/\(([^)]*)\)::/.exec(line)?.[1] ?? '');
      const key = about.includes('params.')
        ? (about.split('params.')[1]?.split('.')[0] ?? '')
        : about.includes('result.')
          ? (about.split('result.')[1] ?? '')
          : about.replace(/^(?:tool|prompt|resource template) /, '');
      expect(lineText, line).toMatch(new RegExp(`"(${escapeRe(key)}|arguments)"`));
    }
  });

  it('a snapshot against a schema, or a malformed snapshot: one line naming the file and pointer, exit 2', async () => {
    const mixed = await runCli(['diff', oldFile, '2025-11-25']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/2025-11-25#: not a snapshot/);
    const bad = join(dir, 'bad.snapshot.json');
    const text = JSON.parse(renderSnapshot(base())) as { tools: { echo: { inputSchema: unknown } } };
    text.tools.echo.inputSchema = 'object';
    writeFileSync(bad, JSON.stringify(text));
    const run = await runCli(['diff', oldFile, bad]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')[0]).toBe(`error: ${bad}#/tools/echo/inputSchema: must be object`);
  });

  it('an entry stored under a key other than its name is refused with its pointer', () => {
    const wrong = base();
    wrong.tools = { echo: { name: 'echo2', inputSchema: { type: 'object' } } };
    expect(() => parseSnapshot(renderSnapshot(wrong), 'x.json')).toThrow(
      'x.json#/tools/echo/name: must be "echo", the key this entry is stored under',
    );
  });
});

/** Undo GitHub's escaping of a workflow-command property (`:` → `%3A`, `,` → `%2C`, `%` → `%25`). */
function unescapeProperty(s: string): string {
  return s.replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
