/**
 * The messages of issue 34, one row each: the CLI in-process (main() with a capturing Out), each error one
 * line that says what to do (plus at most a hint), exit 2, nothing written.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { COMMAND_ENVIRONMENT } from '../../src/cli/environment.js';
import { captureOut, outsideTempDir, SCHEMA_DIR, tempDir } from './helpers.js';

/** A well-formed pin no schema hashes to. */
const WRONG_PIN = 'ab'.padEnd(64, '0');

interface Row {
  title: string;
  /** The arguments; `dir` is a fresh directory (the output, configs and files go there). */
  args: (dir: string) => string[];
  setup?: (dir: string) => void;
  /** The one error line (a string matches exactly, with `dir` filled in). */
  error: (dir: string) => string | RegExp;
  hint?: string | RegExp;
  /** Run with `dir` as the working directory. */
  inDir?: boolean;
}

const extension = (body: object) => ({
  extension: 'example/x',
  version: '0.1.0',
  description: 'd',
  targets: ['2025-11-25'],
  ...body,
});

const writeConfig = (body: object) => (dir: string) => writeFileSync(join(dir, 'c.json'), JSON.stringify(body));

const ROWS: Row[] = [
  {
    title: 'an unknown command: did you mean, and the commands',
    args: () => ['gen', '--spec', '2025-11-25'],
    error: () => 'unknown command "gen": did you mean "generate"?',
    hint: 'commands: generate, methods, diff, schemas, init, snapshot, completion',
  },
  {
    title: 'a misspelt snapshot: did you mean',
    args: () => ['snapshto'],
    error: () => 'unknown command "snapshto": did you mean "snapshot"?',
    hint: 'commands: generate, methods, diff, schemas, init, snapshot, completion',
  },
  {
    title: 'an unknown option: did you mean (camel case)',
    args: (d) => ['generate', '--spec', '2025-11-25', '--outDir', join(d, 'out')],
    error: () => 'unknown option --outDir: did you mean --out?',
    hint: 'see mcp-typegen generate --help',
  },
  {
    title: 'an unknown option: did you mean (singular)',
    args: (d) => ['generate', '--spec', '2025-11-25', '--artifact', 'client', '-o', join(d, 'out')],
    error: () => 'unknown option --artifact: did you mean --artifacts?',
  },
  {
    title: 'a version as a positional: did you mean --spec',
    args: () => ['generate', '2025-11-25'],
    error: () => 'unexpected argument "2025-11-25": did you mean --spec 2025-11-25?',
  },
  {
    title: 'an unknown schemas subcommand',
    args: () => ['schemas', 'pul'],
    error: () => 'unknown command "schemas pul": did you mean "schemas pull"?',
  },
  {
    title: 'a missing extension file: a close file beside it',
    setup: (d) => writeFileSync(join(d, 'mcp.extension.json'), '{}'),
    args: (d) => ['generate', '--spec', '2025-11-25', '--ext', join(d, 'mcp.extenson.json'), '-o', join(d, 'out')],
    error: (d) =>
      `${join(d, 'mcp.extenson.json')}: extension file not found: did you mean mcp.extension.json (in the same directory)?`,
  },
  {
    title: 'a near-miss of an official extension id: the id, and the ids listed',
    args: (d) => ['generate', '--spec', '2025-11-25', '--ext', 'io.modelcontextprotocol/task', '-o', join(d, 'out')],
    error: () =>
      /io\.modelcontextprotocol\/task: no such extension file, nor official extension "io\.modelcontextprotocol\/task": did you mean io\.modelcontextprotocol\/tasks\?$/,
    hint: 'official extension ids: io.modelcontextprotocol/tasks, io.modelcontextprotocol/ui, io.modelcontextprotocol/skills',
  },
  {
    title: 'a config with outDir: did you mean out (not "missing out")',
    setup: writeConfig({ targets: [{ spec: '2025-11-25', outDir: 'out' }] }),
    args: (d) => ['generate', '-c', join(d, 'c.json')],
    error: (d) => `${join(d, 'c.json')}#/targets/0/outDir: unknown key "outDir": did you mean "out"?`,
  },
  {
    title: 'a spec typo in a config: the file, the pointer, the nearest version',
    setup: writeConfig({ targets: [{ spec: '2025-11-2', out: 'out' }] }),
    args: (d) => ['generate', '-c', join(d, 'c.json')],
    error: (d) => `${join(d, 'c.json')}#/targets/0/spec: unknown spec version "2025-11-2": did you mean 2025-11-25?`,
    hint: /^known versions: 2024-11-05, /,
  },
  {
    title: 'init --spec with an unknown version is refused like generate --spec',
    args: () => ['init', '--spec', '2099-01-01'],
    // Named by where it was looked for: the schema root (MCP_SCHEMA_DIR in the tests), else the version.
    error: () => /(?:^|\/)2099-01-01(?:\/schema\.json)?: unknown spec version "2099-01-01"$/,
  },
  {
    title: '--schema-sha256 must be 64 hex digits',
    args: (d) => ['generate', '--spec', '2025-11-25', '--schema-sha256', 'abc', '-o', join(d, 'out')],
    error: () => '--schema-sha256 abc: a sha256 is 64 hex digits (as sha256sum prints it)',
  },
  {
    title: 'a sha256 mismatch shows both hashes in full',
    args: (d) => ['generate', '--spec', '2025-11-25', '--schema-sha256', WRONG_PIN, '-o', join(d, 'out')],
    error: () =>
      new RegExp(
        `sha256 mismatch: the schema hashes to [0-9a-f]{64}, the pin \\(--schema-sha256 / "sha256"\\) says ${WRONG_PIN}$`,
      ),
    // Not the network's fault: the hint says what to do about a pin.
    hint: 'the file is not what was pinned: if its new bytes are expected, pin the hash above; else restore the file',
  },
  // Issue 47 item 5.
  {
    title: '--check with --watch: which is for what',
    args: (d) => ['generate', '--spec', '2025-11-25', '--check', '--watch', '-o', join(d, 'out')],
    error: () => '--check and --watch cannot be used together',
    hint: '--check compares once and exits (CI); --watch regenerates on every change: pass one of them',
  },
  {
    title: 'methods --format json: did you mean --json',
    args: () => ['methods', '--spec', '2025-11-25', '--format', 'json'],
    error: () => 'unknown option --format: did you mean --json?',
  },
  {
    title: "snapshot with the server's command before --",
    args: (d) => ['snapshot', '--out', join(d, 's.json'), 'node', 'server.js'],
    error: () => 'unexpected argument "node": the server\'s command goes after `--`',
    hint: /^mcp-typegen snapshot --out \S+s\.json -- node server\.js$/,
  },
  {
    title: 'a config file under another name: the name it must have',
    inDir: true,
    setup: (d) => writeFileSync(join(d, 'mcp-typegen.json'), '{ "targets": [] }'),
    args: () => ['generate'],
    error: () => 'no schema given',
    hint: /mcp-typegen\.json is not read: the config file is named mcp-typegen\.config\.json \(rename it, or pass --config mcp-typegen\.json\)$/,
  },
  {
    title: 'an extension key with a did-you-mean, as config keys have',
    setup: (d) => writeFileSync(join(d, 'x.extension.json'), JSON.stringify(extension({ method: {} }))),
    args: (d) => ['generate', '--spec', '2025-11-25', '--ext', join(d, 'x.extension.json'), '-o', join(d, 'out')],
    error: (d) => `${join(d, 'x.extension.json')}#/method: unknown property "method": did you mean "methods"?`,
  },
  {
    title: 'a $ref to a missing extension file never suggests the file that holds the $ref',
    setup: (d) =>
      writeFileSync(
        join(d, 'x.extension.json'),
        JSON.stringify(
          extension({
            methods: {
              'example/x.a': {
                kind: 'request',
                direction: 'client->server',
                params: { $ref: './x.extension.jsn#/definitions/P' },
                result: { type: 'object' },
              },
            },
          }),
        ),
      ),
    args: (d) => ['generate', '--spec', '2025-11-25', '--ext', join(d, 'x.extension.json'), '-o', join(d, 'out')],
    error: (d) =>
      `${join(d, 'x.extension.json')}#/methods/example~1x.a/params/$ref: $ref names "./x.extension.jsn": extension file not found (${join(d, 'x.extension.jsn')})`,
  },
  {
    title: '--artifacts with commas: space-separated or repeated',
    args: (d) => ['generate', '--spec', '2025-11-25', '--artifacts', 'client,server', '-o', join(d, 'out')],
    error: () => '--artifacts "client,server": one value per word, not comma-separated',
    hint: 'pass them space-separated (--artifacts client server) or repeat --artifacts',
  },
  {
    title: "yargs' choice error on one line, with a did-you-mean",
    args: (d) => ['generate', '--spec', '2025-11-25', '--runtime', 'cop', '-o', join(d, 'out')],
    error: () => '--runtime "cop" is not one of package, copy: did you mean "copy"?',
  },
  {
    title: '-v where the command has nothing more to print',
    args: () => ['methods', '--spec', '2025-11-25', '-v'],
    error: () => 'unknown option -v',
  },
];

describe('issue 34: each message is one line that says what to do', () => {
  for (const row of ROWS) {
    it(row.title, async () => {
      // Outside the repository when it is the working directory: its own config would be found upward.
      const dir = row.inDir === true ? outsideTempDir('messages') : tempDir('messages');
      row.setup?.(dir);
      const before = readdirSync(dir);
      const out = captureOut();
      if (row.inDir === true) vi.spyOn(process, 'cwd').mockReturnValue(dir);
      const code = await main(row.args(dir), out).finally(() => vi.restoreAllMocks());
      expect(code).toBe(2);
      expect(out.errors).toHaveLength(1);
      const expected = row.error(dir);
      if (typeof expected === 'string') expect(out.errors[0]).toBe(expected);
      else expect(out.errors[0]).toMatch(expected);
      const hint = /\n {2}hint: (.*)$/.exec(out.text())?.[1];
      if (typeof row.hint === 'string') expect(hint).toBe(row.hint);
      else if (row.hint) expect(hint).toMatch(row.hint);
      expect(readdirSync(dir)).toEqual(before);
    });
  }
});

describe('issue 34: what the CLI says beside errors', () => {
  afterEach(() => vi.restoreAllMocks());

  /** What a run prints on stdout: yargs' help goes through console.log, methods writes to stdout. */
  async function printed(args: string[]): Promise<{ code: number; text: string }> {
    const chunks: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void chunks.push(parts.join(' ')));
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      chunks.push(String(chunk));
      return true;
    });
    const code = await main(args, captureOut());
    vi.restoreAllMocks();
    return { code, text: chunks.join('\n') };
  }

  it('without --out, generate says where output goes', async () => {
    const dir = tempDir('messages-out');
    const cwd = process.cwd();
    const out = captureOut();
    process.chdir(dir);
    try {
      expect(await main(['generate', '--spec', '2025-11-25', '--artifacts', 'types', '--no-format'], out)).toBe(0);
    } finally {
      process.chdir(cwd);
    }
    expect(out.lines[0]).toBe('no --out given: writing to ./generated (pass --out <dir> to choose)');
    expect(existsSync(join(dir, 'generated', 'types.ts'))).toBe(true);
  });

  it("each command's --help names the environment variables it reads, and -v only where it does something", async () => {
    const verbose = new Set(['generate', 'diff']);
    for (const [command, variables] of Object.entries(COMMAND_ENVIRONMENT)) {
      const { code, text } = await printed([...command.split(' '), '--help']);
      expect(code, command).toBe(0);
      // Its own help (schemas pull printed the help of schemas).
      expect(text.split('\n')[0], command).toMatch(new RegExp(`^mcp-typegen ${command}(?: \\[|$)`));
      for (const name of variables) expect(text, command).toContain(`  ${name}  `);
      expect(text.includes('--verbose'), command).toBe(verbose.has(command));
    }
  });

  it('methods shows inline params as <Message>.params, not as pointers', async () => {
    const { code, text } = await printed(['methods', '--spec', '2025-11-25', '--schema-dir', SCHEMA_DIR]);
    expect(code).toBe(0);
    expect(text).toMatch(/^notifications\/elicitation\/complete .* ElicitationCompleteNotification\.params$/m);
    expect(text).not.toContain('#/');
  });
});
