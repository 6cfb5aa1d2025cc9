/**
 * Never "No changes" from blindness: a schema the model does not understand is exit 2 with one line
 * saying what could not be found, and schemas renamed throughout still diff like the originals.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { diffSources } from '../../src/diff/index.js';
import { InputError } from '../../src/errors.js';
import { generate } from '../../src/index.js';
import type { JsonSchema } from '../../src/load/schema-types.js';
import { runCli, tempDir } from '../cli/helpers.js';
import { rewriteRefs, SCHEMA_DIR, versionJson } from './helpers.js';

/** Every definition renamed by `rename` (refs rewritten). */
function renamed(version: string, rename: (name: string) => string): JsonSchema {
  const doc = versionJson(version);
  const kw = doc.$defs ? '$defs' : 'definitions';
  const defs = doc[kw] as Record<string, JsonSchema>;
  const prefix = `#/${kw}/`;
  const out = { ...doc, [kw]: Object.fromEntries(Object.entries(defs).map(([k, s]) => [rename(k), s])) };
  return rewriteRefs(out, (ref) => {
    if (!ref.startsWith(prefix)) return ref;
    const [head, ...tail] = ref.slice(prefix.length).split('/');
    return prefix + [rename(head ?? ''), ...tail].join('/');
  }) as JsonSchema;
}

/** The schema without some definitions (nothing refers to the message unions). */
function without(version: string, names: string[]): JsonSchema {
  const doc = versionJson(version);
  const defs = { ...(doc.$defs as Record<string, JsonSchema>) };
  for (const n of names) delete defs[n];
  return { ...doc, $defs: defs };
}

const dir = tempDir('blindness');
function file(name: string, doc: JsonSchema): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(doc, null, 2));
  return path;
}

const summary = (facts: { rule: string; location: { key: string }; verdicts: object }[]) =>
  facts.map((f) => `${f.rule} ${f.location.key.replace(/Def>/g, '>')} ${JSON.stringify(f.verdicts)}`);

describe('renamed throughout, the same facts as the real pair', () => {
  const real = diffSources('2025-06-18', '2025-11-25', { schemaDir: SCHEMA_DIR, cwd: dir });
  test.each([
    ['every definition <X> → <X>Def', (n: string) => `${n}Def`],
    ['every request <X>Request → <X>Call', (n: string) => (n.endsWith('Request') ? `${n.slice(0, -7)}Call` : n)],
  ])('%s', async (_name, rename) => {
    const { report } = await diffSources(
      file('old.json', renamed('2025-06-18', rename)),
      file('new.json', renamed('2025-11-25', rename)),
      { schemaDir: SCHEMA_DIR, cwd: dir },
    );
    const expected = (await real).report.facts;
    expect(expected.length).toBe(71);
    expect(summary(report.facts)).toEqual(summary(expected));
  });
});

describe('blind models are input errors, never an empty answer', () => {
  const noRequests = () => file('no-requests.json', without('2025-11-25', ['ClientRequest', 'ServerRequest']));

  test('generate: a schema in which no request is found is an InputError naming the file', async () => {
    const schema = noRequests();
    const error = await generate({ schema, cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      `${schema}#: no request found (11 notifications): no union of request messages was recognised, so no client or server could be generated from it`,
    );
  });

  test('methods and diff: exit 2, one error line and the --pairing hint', async () => {
    const schema = noRequests();
    const methods = await runCli(['methods', '--schema', schema]);
    expect(methods.code).toBe(2);
    expect(methods.stdout).toBe('');
    expect(methods.stderr).toContain(`error: ${schema}#: no request found`);
    expect(methods.stderr).toContain('--pairing');
    const diff = await runCli(['diff', schema, schema]);
    expect(diff.code).toBe(2);
    expect(diff.stdout).toBe('');
    expect(diff.stderr.split('\n')[0]).toMatch(/^error: .*no-requests\.json#: no request found/);
  });

  test('diff: a side with fewer than half the methods of the other is exit 2', async () => {
    const blind = file('half.json', without('2025-11-25', ['ClientRequest', 'ServerNotification']));
    const r = await runCli(['diff', '2025-11-25', blind, '--schema-dir', SCHEMA_DIR]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(
      /^error: .*half\.json#: only \d+ methods found, fewer than half of the \d+ in 2025-11-25: /,
    );
  });

  test('diff --allow-shrink: a side that really lost most of its methods is reported, not refused', async () => {
    // 2025-11-25 with all but two of its client requests gone (the unions list what is left).
    const doc = versionJson('2025-11-25');
    const defs = doc.$defs as Record<string, JsonSchema>;
    const kept = new Set(['#/$defs/InitializeRequest', '#/$defs/PingRequest']);
    defs.ClientRequest = {
      anyOf: (defs.ClientRequest!.anyOf as JsonSchema[]).filter((m) => kept.has(m.$ref as string)),
    };
    defs.ClientNotification = { anyOf: [] };
    defs.ServerNotification = { anyOf: [] };
    const shrunk = file('shrunk.json', doc);
    const refused = await runCli(['diff', '2025-11-25', shrunk, '--schema-dir', SCHEMA_DIR]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/fewer than half of the \d+ in 2025-11-25/);
    expect(refused.stderr).toContain('if the schema really dropped them, --allow-shrink reports them removed');
    const r = await runCli([
      'diff',
      '2025-11-25',
      shrunk,
      '--schema-dir',
      SCHEMA_DIR,
      '--allow-shrink',
      '--format',
      'json',
    ]);
    expect(r.code).toBe(1);
    const facts = (JSON.parse(r.stdout) as { facts: { rule: string; location: { method: string } }[] }).facts;
    expect(facts.filter((f) => f.rule === 'method-removed').map((f) => f.location.method)).toContain('tools/call');
    expect(facts.filter((f) => f.rule === 'notification-removed').length).toBeGreaterThan(0);
  });

  test('diff: results found on neither side for most requests is exit 2, with the way out in the hint', async () => {
    // Results renamed to names no rule knows: requests are found, their results are not.
    const old = file('old-outcomes.json', renamed('2025-06-18', outcome));
    const blind = file('outcomes.json', renamed('2025-11-25', outcome));
    const r = await runCli(['diff', old, blind]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    // After the warning naming each unpaired request, the error line.
    expect(r.stderr).toMatch(
      /^error: .*\/outcomes\.json#: the results of 20 of 20 requests were found on neither side \(/m,
    );
    expect(r.stderr).toContain('--pairing');
  });
});

/** Results renamed to names no rule knows (`CallToolResult` → `CallToolOutcome`). */
const outcome = (n: string) => (n.endsWith('Result') && n !== 'Result' ? `${n.slice(0, -6)}Outcome` : n);

describe('blindness on one side only is exit 2 too, naming the blind side and what it could not pair', () => {
  const args = ['--schema-dir', SCHEMA_DIR];

  test.each([
    ['new side', 'client'],
    ['new side', 'server'],
    ['old side', 'client'],
    ['old side', 'server'],
  ])('%s blind, --side %s: exit 2, not the result-became-unknown facts it used to pass with', async (which, side) => {
    const blind = file(`one-side-${which.replace(' ', '-')}.json`, renamed('2025-11-25', outcome));
    const sides = which === 'new side' ? ['2025-11-25', blind] : [blind, '2025-11-25'];
    const r = await runCli(['diff', ...sides, ...args, '--side', side, '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const error = r.stderr.split('\n').find((line) => line.startsWith('error: '));
    expect(error).toMatch(
      /^error: .*one-side-(new|old)-side\.json#: the results of 20 of 20 requests were not found in it \(only in 2025-11-25\) \(completion\/complete, elicitation\/create, initialize, … \(17 more\)\): their changes would not be seen$/,
    );
    expect(r.stderr).toContain('hint: pair requests with their results in a file given with --pairing');
  });

  test('a few requests unpaired on one side are facts, not blindness: result-became-unknown, exit by their verdicts', async () => {
    // Two results renamed: 2 of 20 requests lose their pairing.
    const two = (n: string) => (n === 'CallToolResult' || n === 'ListToolsResult' ? outcome(n) : n);
    const r = await runCli([
      'diff',
      '2025-11-25',
      file('two.json', renamed('2025-11-25', two)),
      ...args,
      '--format',
      'json',
    ]);
    expect(r.code).toBe(0);
    const facts = (JSON.parse(r.stdout) as { facts: { rule: string; location: { method: string } }[] }).facts;
    expect(facts.map((f) => `${f.rule} ${f.location.method}`)).toEqual([
      'result-became-unknown tools/call',
      'result-became-unknown tools/list',
    ]);
  });
});
