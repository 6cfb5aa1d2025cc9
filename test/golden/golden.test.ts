/**
 * Golden output: every file `generate` writes for a tiny MCP-shaped schema (test/fixtures/golden) plus
 * one vendor extension and a tool snapshot (`tools`: tools.ts, tool-validators.js and tool-schemas.js + .d.ts), kept as files under __golden__/ and reviewed like code. A change to any emitter
 * shows up here as a diff of its output; accept it with `npx vitest run test/golden -u` in the same commit.
 *
 * A vendored runtime/ (`runtime: 'copy'`) is the templates copied verbatim (reviewed in templates/ itself), so
 * only its file lists are kept: without a server and with one.
 * One in-process generate; no formatting differences across machines (prettier runs with the repo's
 * own config, which equals the emitter defaults).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/index.js';
import { ROOT } from '../helpers/paths.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'golden');
const GOLDEN = join(ROOT, 'test', 'golden', '__golden__');

const result = generate({
  schema: join(FIXTURE, 'schema.json'),
  extensions: [join(FIXTURE, 'golden.extension.json')],
  tools: join(FIXTURE, 'tools.snapshot.json'),
  outDir: join(ROOT, 'test', '.tmp', 'golden-out'),
  cwd: ROOT,
});

describe('golden output of the fixture schema plus one extension and a tool snapshot', () => {
  it('the file list', async () => {
    const { files } = await result;
    await expect(`${files.map((f) => f.path).join('\n')}\n`).toMatchFileSnapshot(join(GOLDEN, 'FILES.txt'));
  });

  it("the snapshot's prompt is left out with a warning: the fixture schema has no prompts/get", async () => {
    const { warnings } = await result;
    expect(warnings).toContainEqual(
      expect.stringMatching(/prompts left out \(the schema has no prompts\/list or prompts\/get request\)/),
    );
  });

  it('every generated file outside runtime/', async () => {
    const { files } = await result;
    const own = files.filter((f) => !f.path.startsWith('runtime/'));
    expect(own.map((f) => f.path)).toContain('client.ts');
    // Sequential: each mismatch is reported with its own file name.
    for (const file of own)
      await expect(file.contents, file.path).toMatchFileSnapshot(join(GOLDEN, `${file.path}.golden`));
  });
});

describe('golden output of the SDK adapters (opt-in artifacts), same inputs', () => {
  it('sdk.js, sdk.d.ts, sdk-v1.ts and, with the tool snapshot, tool-schemas-v1.js + .d.ts', async () => {
    const { files } = await generate({
      schema: join(FIXTURE, 'schema.json'),
      extensions: [join(FIXTURE, 'golden.extension.json')],
      tools: join(FIXTURE, 'tools.snapshot.json'),
      outDir: join(ROOT, 'test', '.tmp', 'golden-out-sdk'),
      cwd: ROOT,
      artifacts: ['sdk', 'sdk-v1'],
    });
    for (const path of ['sdk.js', 'sdk.d.ts', 'sdk-v1.ts', 'tool-schemas-v1.js', 'tool-schemas-v1.d.ts']) {
      const file = files.find((f) => f.path === path);
      await expect(file?.contents, path).toMatchFileSnapshot(join(GOLDEN, `${path}.golden`));
    }
  });
});

describe('golden output of the TypeScript shape (`jsModules: "ts"`, .ts specifiers), same inputs', () => {
  it('validators.ts, tool-validators.ts, tool-schemas.ts, tool-schemas-v1.ts and sdk.ts, and the files that import them', async () => {
    const { files } = await generate({
      schema: join(FIXTURE, 'schema.json'),
      extensions: [join(FIXTURE, 'golden.extension.json')],
      tools: join(FIXTURE, 'tools.snapshot.json'),
      outDir: join(ROOT, 'test', '.tmp', 'golden-out-ts-modules'),
      cwd: ROOT,
      artifacts: ['client', 'server', 'sdk', 'sdk-v1'],
      jsModules: 'ts',
      importExtension: '.ts',
    });
    expect(files.filter((f) => /\.(js|d\.ts)$/.test(f.path))).toEqual([]);
    for (const path of [
      'validators.ts',
      'tool-validators.ts',
      'tool-schemas.ts',
      'tool-schemas-v1.ts',
      'sdk.ts',
      'index.ts',
      'server.ts',
      'sdk-v1.ts',
    ]) {
      const file = files.find((f) => f.path === path);
      await expect(file?.contents, path).toMatchFileSnapshot(join(GOLDEN, 'ts-modules', `${path}.golden`));
    }
  });
});

describe('the vendored runtime (`runtime: copy`), same inputs: its file list', () => {
  it.each([
    ['client only', ['client'] as const, 'runtime-copy.client.txt'],
    ['client and server', ['client', 'server'] as const, 'runtime-copy.server.txt'],
  ])('%s', async (_, artifacts, golden) => {
    const { files } = await generate({
      schema: join(FIXTURE, 'schema.json'),
      outDir: join(ROOT, 'test', '.tmp', `golden-out-${golden}`),
      cwd: ROOT,
      artifacts: [...artifacts],
      runtime: 'copy',
    });
    const vendored = files.map((f) => f.path).filter((path) => path.startsWith('runtime/'));
    await expect(`${vendored.join('\n')}\n`).toMatchFileSnapshot(join(GOLDEN, golden));
  });
});
