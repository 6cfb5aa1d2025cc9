/** generate --watch: a schema edit, an extension edit and a config edit regenerate; a broken edit reports and the next good one recovers; abort stops cleanly. */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { resolveTargets } from '../../src/run/targets.js';
import { startWatch } from '../../src/run/watch.js';
import { captureOut, REPO_ROOT, SCHEMA_DIR, tempDir } from './helpers.js';

it('regenerates on schema, extension and config edits, survives a broken edit, stops on abort', async () => {
  const dir = tempDir('watch');
  const schemaDir = join(dir, 'schemas');
  mkdirSync(join(schemaDir, '2025-11-25'), { recursive: true });
  const schemaFile = join(schemaDir, '2025-11-25', 'schema.json');
  cpSync(join(SCHEMA_DIR, '2025-11-25', 'schema.json'), schemaFile);
  const extFile = join(dir, 'acme.extension.json');
  cpSync(join(REPO_ROOT, 'schema', 'examples', 'acme-jobs.extension.json'), extFile);
  const ext = JSON.parse(readFileSync(extFile, 'utf8')) as Record<string, unknown>;
  ext.$schema = join(REPO_ROOT, 'schema', 'extension.schema.json');
  writeFileSync(extFile, JSON.stringify(ext, null, 2));
  const configFile = join(dir, 'mcp-typegen.config.json');
  const config = {
    schemaDir: 'schemas',
    format: false,
    targets: [{ name: 'w', spec: '2025-11-25', out: 'out', extensions: ['acme.extension.json'], artifacts: ['types'] }],
  };
  writeFileSync(configFile, JSON.stringify(config));

  const out = captureOut();
  const controller = new AbortController();
  const runs: { ok: boolean; changed: string[] }[] = [];
  let wake: (() => void) | undefined;
  const nextRun = () =>
    new Promise<{ ok: boolean; changed: string[] }>((r) => (wake = () => r(runs[runs.length - 1]!)));
  let waiting = nextRun();
  const flags = { config: configFile, options: {}, policy: {} };
  const done = startWatch(async () => (await resolveTargets(flags, dir)).targets, {
    signal: controller.signal,
    out,
    configFile,
    onRun: (o) => {
      runs.push(o);
      wake?.();
    },
  });
  const step = async () => {
    const r = await waiting;
    waiting = nextRun();
    return r;
  };
  const types = () => readFileSync(join(dir, 'out', 'types.ts'), 'utf8');

  expect((await step()).ok).toBe(true);
  expect(types()).toContain('AcmePriority');

  // Schema edit.
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as { $defs: Record<string, unknown> };
  schema.$defs.WatchProbe = { type: 'object', properties: { probe: { type: 'string' } } };
  writeFileSync(schemaFile, JSON.stringify(schema, null, 2));
  let r = await step();
  expect(r).toEqual({ ok: true, changed: [schemaFile] });
  expect(types()).toContain('WatchProbe');
  expect(out.text()).toMatch(/watch: .*schema\.json changed; regenerating/);
  expect(out.text()).toMatch(/watch: done in \d+ ms/);

  // A broken edit is reported; the watcher keeps running.
  writeFileSync(schemaFile, '{ "broken": ');
  r = await step();
  expect(r.ok).toBe(false);
  expect(out.errors.at(-1)).toMatch(/schema\.json: invalid JSON at line 1/);
  expect(types()).toContain('WatchProbe');

  // The next good edit recovers.
  delete schema.$defs.WatchProbe;
  schema.$defs.WatchProbeFixed = { type: 'object', properties: { fixed: { type: 'boolean' } } };
  writeFileSync(schemaFile, JSON.stringify(schema, null, 2));
  r = await step();
  expect(r.ok).toBe(true);
  expect(types()).toContain('WatchProbeFixed');

  // Extension edit.
  (ext.definitions as Record<string, unknown>).AcmeWatchProbe = {
    type: 'object',
    properties: { probe: { type: 'number' } },
  };
  writeFileSync(extFile, JSON.stringify(ext, null, 2));
  r = await step();
  expect(r).toEqual({ ok: true, changed: [extFile] });
  expect(types()).toContain('AcmeWatchProbe');

  // Config edit: add the maps artifact.
  writeFileSync(configFile, JSON.stringify({ ...config, targets: [{ ...config.targets[0], artifacts: ['maps'] }] }));
  r = await step();
  expect(r).toEqual({ ok: true, changed: [configFile] });
  expect(readFileSync(join(dir, 'out', 'maps.ts'), 'utf8')).toContain('acme/jobs.start');

  controller.abort();
  await expect(done).resolves.toBeUndefined();
  expect(runs).toHaveLength(6);
}, 180_000);

it('is watching when it says "waiting for changes": a save made on that line is seen', async () => {
  const dir = tempDir('watch-waiting');
  const extFile = join(dir, 'acme.extension.json');
  cpSync(join(REPO_ROOT, 'schema', 'examples', 'acme-jobs.extension.json'), extFile);
  const ext = JSON.parse(readFileSync(extFile, 'utf8')) as { definitions: Record<string, unknown> };
  const configFile = join(dir, 'mcp-typegen.config.json');
  const target = { spec: '2025-11-25', out: 'out', extensions: ['acme.extension.json'], artifacts: ['types'] };
  writeFileSync(configFile, JSON.stringify({ schemaDir: SCHEMA_DIR, format: false, targets: [target] }));

  const controller = new AbortController();
  const out = captureOut();
  let saved = false;
  let secondRun: (() => void) | undefined;
  const second = new Promise<void>((resolve) => (secondRun = resolve));
  let runs = 0;
  const flags = { config: configFile, options: {}, policy: {} };
  const done = startWatch(async () => (await resolveTargets(flags, dir)).targets, {
    signal: controller.signal,
    configFile,
    // The user saves the moment the line is printed, before anything else of the watcher runs.
    out: {
      ...out,
      info: (line) => {
        out.info(line);
        if (saved || !line.includes('waiting for changes')) return;
        saved = true;
        ext.definitions.AcmeSavedOnTheLine = { type: 'object', properties: { at: { type: 'string' } } };
        writeFileSync(extFile, JSON.stringify(ext, null, 2));
      },
    },
    onRun: () => {
      if (++runs === 2) secondRun?.();
    },
  });
  await second;
  expect(readFileSync(join(dir, 'out', 'types.ts'), 'utf8')).toContain('AcmeSavedOnTheLine');
  controller.abort();
  await done;
}, 120_000);
