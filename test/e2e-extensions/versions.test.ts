/**
 * The example extension across spec versions, and the type tests:
 * - 2025-06-18, 2025-11-25 and 2026-07-28 (its targets) generate with the vendor methods and all three
 *   outputs, with the type tests of test/fixtures/ext-e2e/type-tests/<version>/, compile under
 *   tsc --strict in one run; a loosened copy (every generated name the type tests import becomes
 *   `any`) must report each tagged `@ts-expect-error` unused, so none passes by accident;
 * - 2024-11-05 (not a target) skips the extension with a warning when skipUntargeted is set (else exit 2: test/generate/check-edges).
 */
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type RunResult } from '../helpers/generate.js';
import { tscProjects } from '../helpers/tsc-build.js';
import { taggedDirectives as taggedOf } from '../helpers/type-tests.js';
import {
  ACME,
  ACME_METHODS,
  ACME_TARGETS,
  TYPE_TESTS,
  diagnostics,
  generatedWithAcme,
  layoutVersion,
} from './helpers.js';

const TYPE_TEST_VERSIONS = ['2025-11-25', '2026-07-28'] as const;
const UI = 'io.modelcontextprotocol/ui';

/** What apps-channel.ts exports (it is compiled with the generated code, outside this program). */
interface ChannelFlow {
  viewToTheirBridge(): Promise<Record<string, unknown>>;
  theirAppToHost(): Promise<Record<string, unknown>>;
  refusedBeforeHandshake(): Promise<{ code: number; message: string }>;
}

/** 2025-11-25 also gets MCP Apps, for its channel peers: the fixtures in type-tests/apps join its directory. */
const APPS = join(TYPE_TESTS, 'apps');
function generatedFor(version: (typeof ACME_TARGETS)[number]) {
  return generatedWithAcme(version, version === '2025-11-25' ? { extensions: [ACME, UI] } : {});
}

/** Tagged `@ts-expect-error [tag]` lines: "<version>/<file>:<line>" → tag. */
function taggedDirectives(): Map<string, string> {
  return new Map([
    ...TYPE_TEST_VERSIONS.flatMap((version) => [...taggedOf(join(TYPE_TESTS, version), `${version}/`)]),
    ...taggedOf(APPS, '2025-11-25/'),
  ]);
}

/** Names a type-test file imports from ./generated/index.js. */
function importedNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const names: string[] = [];
  for (const s of source.statements) {
    if (
      !ts.isImportDeclaration(s) ||
      !ts.isStringLiteral(s.moduleSpecifier) ||
      s.moduleSpecifier.text !== './generated/index.js'
    )
      continue;
    const bindings = s.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      names.push(...bindings.elements.map((e) => (e.propertyName ?? e.name).text));
  }
  return names;
}

describe('the example extension in every version it targets', () => {
  let dir: string;
  /** The program and its loosened copy, compiled by one tsc process. */
  let results: Promise<readonly [RunResult, RunResult]>;
  beforeAll(async () => {
    dir = tempDir('ext-e2e-versions');
    // Sequential on purpose: generation is CPU-bound and other test files run beside this one.
    for (const version of ACME_TARGETS) layoutVersion(join(dir, version), version, await generatedFor(version));
    cpSync(APPS, join(dir, '2025-11-25'), { recursive: true });
    // The copy whose generated names the type tests import are all `any`.
    const loose = tempDir('ext-e2e-versions-loose');
    for (const version of TYPE_TEST_VERSIONS) {
      cpSync(join(dir, version), join(loose, version), { recursive: true });
      rmSync(join(loose, version, 'acme-server.ts'), { force: true });
      const names = new Set(
        [join(TYPE_TESTS, version), ...(version === '2025-11-25' ? [APPS] : [])].flatMap((source) =>
          readdirSync(source)
            .filter((n) => n.endsWith('-types.ts'))
            .flatMap((n) => importedNames(join(source, n))),
        ),
      );
      writeFileSync(
        join(loose, version, 'generated', 'index.ts'),
        // Functions (lower case) are values: `any` too, so a call type-checks as anything would.
        [...names]
          .map((n) => (/^[a-z]/.test(n) ? `export declare const ${n}: any;` : `export type ${n} = any;`))
          .join('\n') + '\n',
      );
    }
    // The loose program only has to report unused @ts-expect-error lines: no generated .d.ts in it, so
    // checking Node's declarations there too (≈2 s of CPU) would prove nothing.
    const looseOptions = { include: TYPE_TEST_VERSIONS.map((v) => `${v}/*-types.ts`), skipLibCheck: true };
    results = tscProjects([[dir], [loose, looseOptions]]);
  }, 400_000);

  it.each(ACME_TARGETS)('%s: the vendor methods are in the model and the maps, without warnings', async (version) => {
    const result = await generatedFor(version);
    expect(result.warnings).toEqual([]);
    const acme = result.model.methods.filter((m) => m.source === 'acme/jobs');
    expect(acme.map((m) => m.method)).toEqual(ACME_METHODS);
    expect(acme.find((m) => m.method === 'acme/jobs.finished')).toMatchObject({
      kind: 'notification',
      directions: ['server->client'],
    });
    const maps = result.files.find((f) => f.path === 'maps.ts')!.contents;
    for (const method of ACME_METHODS) expect(maps).toContain(`'${method}'`);
    const types = result.files.find((f) => f.path === 'types.ts')!.contents;
    for (const name of [
      'AcmeJobsStartRequest',
      'AcmeJobsStartRequestParams',
      'AcmeJobsStartResult',
      'AcmeJobsFinishedNotificationParams',
      'AcmeJob',
    ]) {
      expect(types).toMatch(new RegExp(`export (interface|type) ${name}\\b`));
    }
    // _meta is reserved: params closed with additionalProperties: false get it (the runtime sends it).
    for (const name of ['AcmeJobsListRequestParams', 'AcmeJobsCancelRequestParams', 'AcmeJobsStartRequestParams']) {
      expect(types, name).toMatch(new RegExp(`export interface ${name} \\{[^}]*\\b_meta\\?:`));
    }
    // Settings become capabilities.extensions["acme/jobs"] in every version (the model adds the map where
    // the schema has none: SEP-2133 negotiates extensions in initialize too).
    expect(types).toMatch(/extensions\?: \{\s*'acme\/jobs'\?: AcmeJobsSettings;/);
  });

  it('has tagged negative type tests for each case', () => {
    expect(new Set(taggedDirectives().values()).size).toBe(taggedDirectives().size);
    expect([...taggedDirectives().values()]).toEqual(
      expect.arrayContaining([
        'misspelled-stub',
        'misspelled-method',
        'wrong-params',
        'wrong-params-request',
        'missing-required-param',
        'missing-params',
        'missing-result-field',
        'handler-wrong-result',
        'handler-missing-result-field',
        'settings-wrong-type',
        'settings-unknown-field',
        'settings-received-unknown-id',
        'settings-received-wrong-type',
      ]),
    );
  });

  it('all three outputs, the type tests and the fixture server compile under tsc --strict in one run', async () => {
    const [result] = await results;
    expect(diagnostics(result)).toEqual([]);
    expect(result.code).toBe(0);
  }, 300_000);

  it('MCP Apps: our UiView and UiHost against the real ext-apps AppBridge and App (Node, MessageChannel)', async () => {
    const flow = (await import(join(dir, '2025-11-25', 'apps-channel.ts'))) as ChannelFlow;
    const ours = await flow.viewToTheirBridge();
    expect(ours.handshake).toMatchObject({ hostInfo: { name: 'test-host' }, hostCapabilities: { serverTools: {} } });
    expect(ours.toolResult).toEqual({ content: [{ type: 'text', text: 'ran chart with {"n":3}' }] });
    expect(ours.messageResult).toEqual({});
    expect(ours.hostSaw).toEqual(['ui/notifications/initialized', 'tools/call chart', 'ui/message user']);
    expect(ours.viewGot).toEqual({ city: 'Oslo' });
    const theirs = await flow.theirAppToHost();
    expect(theirs.handshake).toEqual({
      hostInfo: { name: 'test-host', version: '1.0.0' },
      hostContext: { theme: 'dark' },
    });
    expect(theirs.toolResult).toEqual({ content: [{ type: 'text', text: 'ran chart' }] });
    expect(theirs.messageResult).toEqual({ isError: false });
    expect(theirs.hostSaw).toEqual([
      expect.stringMatching(/^ui\/initialize test-view \S+$/),
      'ui/notifications/initialized',
      'tools/call chart',
      'ui/message user',
    ]);
    expect(theirs.viewGot).toEqual({ city: 'Oslo' });
    expect(await flow.refusedBeforeHandshake()).toEqual({
      code: -32600,
      message: 'Channel not open: send "ui/initialize" first',
    });
  });

  it('against loosened generated types every tagged @ts-expect-error is reported unused', async () => {
    const [, result] = await results;
    expect(result.code).not.toBe(0);
    const unused = diagnostics(result)
      .map((line) => /^(.+?)\((\d+),\d+\): error TS2578: Unused '@ts-expect-error' directive\./.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}:${m[2]}`)
      .sort();
    expect(unused).toEqual([...taggedDirectives().keys()].sort());
  }, 300_000);
});

describe('a version the extension does not target', () => {
  it('2024-11-05 with skipUntargeted: the extension is skipped with a warning, and no acme method is in the maps', async () => {
    const result = await generatedWithAcme('2024-11-05', { artifacts: ['types', 'maps'], skipUntargeted: true });
    expect(result.warnings).toEqual([`${ACME}: extension acme/jobs does not target MCP 2024-11-05; skipped`]);
    expect(result.model.methods.filter((m) => m.method.startsWith('acme/'))).toEqual([]);
    for (const file of result.files) expect(file.contents, file.path).not.toMatch(/acme|Acme/);
  }, 300_000);
});
