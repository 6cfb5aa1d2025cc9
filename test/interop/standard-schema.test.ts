/**
 * Issue 29, item 1: every generated validator is also a Standard Schema v1 (standardschema.dev). The acme-jobs
 * example extension's output on 2025-11-25 is generated and its validators.js imported as a user's code would;
 * the validators then go to two consumers that accept any Standard Schema: the official v2 SDK (a vendor request
 * registered with `setRequestHandler(method, { params, result }, handler)` and sent with
 * `client.request(req, resultSchema)`, over its in-memory transport) and vitest's `expect.schemaMatching`.
 * Type tests (type-tests/standard-schema.ts): what the SDK infers from a validator is the generated type.
 */
import { Client, InMemoryTransport, ProtocolError } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, generated, tempDir, writeFiles, type RunResult } from '../helpers/generate.js';
import { tscProjects } from '../helpers/tsc-build.js';
import { replaceDeclaration, taggedDirectives } from '../helpers/type-tests.js';

interface Issue {
  message: string;
  path: PropertyKey[];
}
type Result = { value: unknown; issues?: undefined } | { issues: Issue[] };
interface Schema {
  (data: unknown): boolean;
  '~standard': { version: 1; vendor: string; validate: (value: unknown) => Result };
}
let v: Record<string, Schema>;
let dir: string;

const ACME = join(ROOT, 'schema', 'examples', 'acme-jobs.extension.json');

beforeAll(async () => {
  const out = await generated('2025-11-25', { extensions: [ACME], artifacts: ['validators'] });
  dir = tempDir('standard-schema');
  writeFiles(dir, out.files);
  v = (await import(pathToFileURL(join(dir, 'validators.js')).href)) as Record<string, Schema>;
});

const start = { pipeline: 'nightly-report', inputs: { day: 'monday' } };

describe('the Standard Schema member', () => {
  it('is version 1 from mcp-typegen on the validator function itself', () => {
    const schema = v['AcmeJobsStartRequestParams']!;
    expect(typeof schema).toBe('function');
    expect(schema['~standard']).toMatchObject({ version: 1, vendor: 'mcp-typegen' });
    expect(schema(start)).toBe(true);
  });

  it('a valid value comes back as { value }, the same object', () => {
    const result = v['AcmeJobsStartRequestParams']!['~standard'].validate(start);
    expect(result).toEqual({ value: start });
    expect((result as { value: unknown }).value).toBe(start);
  });

  it('issues carry the validator message and the path: a missing property named last, keys unescaped, array indexes as numbers', () => {
    const validate = (name: string, value: unknown) => v[name]!['~standard'].validate(value).issues;
    expect(validate('AcmeJobsStartRequestParams', { inputs: {} })).toEqual([
      { message: "must have required property 'pipeline'", path: ['pipeline'] },
    ]);
    expect(validate('AcmeJobsStartRequestParams', { pipeline: 'p', inputs: { 'a/b~c': 1 } })).toEqual([
      { message: 'must be string', path: ['inputs', 'a/b~c'] },
    ]);
    const [issue] =
      validate('AcmeJobsListResult', {
        jobs: [{ id: 'a', pipeline: 'p', state: 'queued', createdAt: 't' }, { id: 2 }],
      }) ?? [];
    expect(issue?.path.slice(0, 2)).toEqual(['jobs', 1]);
  });

  it('vitest accepts it as a Standard Schema (expect.schemaMatching)', () => {
    expect({ job: 'x', ...start }).not.toEqual(expect.schemaMatching(v['AcmeJobsStartRequestParams']!));
    expect(start).toEqual(expect.schemaMatching(v['AcmeJobsStartRequestParams']!));
    expect({ params: start }).toEqual({ params: expect.schemaMatching(v['AcmeJobsStartRequestParams']!) });
  });
});

it('a bundler keeps only the validators a program uses (every export is pure)', async () => {
  const { build } = await import('esbuild');
  writeFileSync(
    join(dir, 'entry.js'),
    "import { AcmeJobsStartRequestParams } from './validators.js';\nconsole.log(AcmeJobsStartRequestParams({}));\n",
  );
  const bundle = await build({ entryPoints: [join(dir, 'entry.js')], bundle: true, format: 'esm', write: false });
  const text = bundle.outputFiles[0]!.text;
  const whole = readFileSync(join(dir, 'validators.js'), 'utf8');
  // The params validator with the definitions it references (AcmeRequestMeta, AcmePriority), nothing else.
  expect(text).toContain('"pipeline"');
  expect(text).not.toContain('acme/jobs.cancel');
  expect(text).not.toContain('table$');
  expect(text.length).toBeLessThan(whole.length / 20);
});

describe('the official v2 SDK takes the generated validators for a vendor method', () => {
  let client: Client;
  let server: Server;
  const received: unknown[] = [];

  beforeAll(async () => {
    server = new Server({ name: 'sdk2-acme', version: '1.0.0' }, { capabilities: {} });
    server.setRequestHandler(
      'acme/jobs.start',
      { params: v['AcmeJobsStartRequestParams']!, result: v['AcmeJobsStartResult']! },
      (params) => {
        received.push(params);
        const pipeline = (params as { pipeline: string }).pipeline;
        // A result that breaks the schema, for the client's check below.
        if (pipeline === 'broken') return { job: { id: 7 } } as never;
        return { job: { id: 'job-1', pipeline, state: 'queued', createdAt: '2026-12-01T00:00:00Z' } } as never;
      },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'sdk2-client', version: '1.0.0' });
    await server.connect(serverSide);
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('valid params reach the handler, and the result passes the result schema', async () => {
    const result = await client.request({ method: 'acme/jobs.start', params: start }, v['AcmeJobsStartResult']!);
    expect(result).toEqual({
      job: { id: 'job-1', pipeline: 'nightly-report', state: 'queued', createdAt: '2026-12-01T00:00:00Z' },
    });
    expect(received.at(-1)).toMatchObject(start);
  });

  it('bad params are refused by the SDK with the validator message and path, before the handler', async () => {
    const before = received.length;
    const error = await client
      .request({ method: 'acme/jobs.start', params: { inputs: {} } }, v['AcmeJobsStartResult']!)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    // The SDK joins an issue's path with dots before its message.
    expect((error as Error).message).toContain("acme/jobs.start: pipeline: must have required property 'pipeline'");
    expect(received).toHaveLength(before);
  });

  it('a result that breaks the result schema is refused by the client', async () => {
    const error = await client
      .request({ method: 'acme/jobs.start', params: { pipeline: 'broken' } }, v['AcmeJobsStartResult']!)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("job.pipeline: must have required property 'pipeline'");
  });
});

describe('types: the generated type is what a consumer infers', () => {
  const TYPE_TESTS = join(ROOT, 'test', 'interop', 'type-tests');
  /** The program, and a copy with the validators typed loosely, compiled by one tsc process. */
  let results: Promise<readonly [RunResult, RunResult]>;
  beforeAll(async () => {
    const out = await generated('2025-11-25', { extensions: [ACME] });
    const dir = tempDir('standard-schema-types');
    writeFiles(join(dir, 'generated'), out.files);
    for (const name of readdirSync(TYPE_TESTS)) cpSync(join(TYPE_TESTS, name), join(dir, name));
    const loose = tempDir('standard-schema-types-loose');
    cpSync(dir, loose, { recursive: true });
    replaceDeclaration(
      join(loose, 'generated', 'validators.d.ts'),
      'Validator',
      'export interface Validator<Type> extends CompiledValidator, StandardSchemaV1<any> { (data: unknown): data is any; }',
    );
    results = tscProjects([
      [dir, { skipLibCheck: true }],
      [loose, { skipLibCheck: true }],
    ]);
  });
  const errors = (result: RunResult) =>
    (result.stdout + result.stderr).split('\n').filter((l) => /error TS\d+/.test(l));

  it('compiles with tsc --strict: every expected error happens, nothing else fails', async () => {
    expect([...taggedDirectives(TYPE_TESTS).values()].sort()).toEqual(
      ['narrowed', 'other-type', 'result-member-type', 'unknown-param', 'wrong-result'].sort(),
    );
    const [result] = await results;
    expect(errors(result)).toEqual([]);
  });

  it('with the validators typed loosely, every @ts-expect-error is unused', async () => {
    const [, loose] = await results;
    const unused = errors(loose)
      .map((line) => /^(.+?)\((\d+),\d+\): error TS2578/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}:${m[2]}`);
    expect(unused.sort()).toEqual([...taggedDirectives(TYPE_TESTS).keys()].sort());
  });
});
