/**
 * The conformance examples, built as a user builds them: each spec version generated with the built CLI into
 * `.generated/<version>/` of a fresh temp directory, the examples copied beside it and compiled with tsc
 * under strict settings. Generated code imports `@mcp-typegen/runtime`: the workspace package, linked as an
 * app that installed it has it.
 */
import { cp, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './processes.mjs';

/** What each version is generated with: the extensions its example server and client use. */
export const GENERATE = {
  '2025-11-25': [],
  '2026-07-28': ['io.modelcontextprotocol/tasks', 'io.modelcontextprotocol/skills'],
};

/** The compiled example of each side and version, relative to the workspace. */
export const EXAMPLES = {
  server: {
    '2025-11-25': 'build/conformance-server/server.js',
    '2026-07-28': 'build/conformance-server/server-2026-07-28.js',
  },
  client: {
    '2025-11-25': 'build/conformance-client/client.js',
    '2026-07-28': 'build/conformance-client/client-2026-07-28.js',
  },
};

/** Packages the examples import besides the runtime (linked from the repository's node_modules). */
const EXAMPLE_DEPENDENCIES = ['yaml'];

/**
 * Generates every version, copies and compiles the examples; resolves to the workspace directory.
 * @param {{ root: string, log: (line: string) => void, started: number }} context
 */
export async function buildWorkspace({ root, log, started }) {
  const work = await mkdtemp(join(tmpdir(), 'mcp-typegen-conformance-'));
  await linkDependencies(root, work);
  await Promise.all(Object.entries(GENERATE).map(([version, extensions]) => generate(root, work, version, extensions)));
  log(`generated ${Object.keys(GENERATE).join(', ')} into ${join(work, '.generated')} (${seconds(started)})`);
  for (const name of ['conformance-server', 'conformance-client']) {
    await cp(join(root, 'examples', name), join(work, name), { recursive: true });
  }
  await writeFile(join(work, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  await writeFile(join(work, 'tsconfig.json'), JSON.stringify(tsconfig(root)));
  const compiled = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd: work,
    timeoutMs: 180_000,
  });
  if (compiled.code !== 0) throw new Error(`tsc failed:\n${compiled.stdout}${compiled.stderr}`);
  log(`compiled the examples (${seconds(started)})`);
  return work;
}

async function linkDependencies(root, work) {
  await mkdir(join(work, 'node_modules', '@mcp-typegen'), { recursive: true });
  await symlink(join(root, 'packages', 'runtime'), join(work, 'node_modules', '@mcp-typegen', 'runtime'), 'dir');
  for (const name of EXAMPLE_DEPENDENCIES) {
    await symlink(join(root, 'node_modules', name), join(work, 'node_modules', name), 'dir');
  }
}

async function generate(root, work, version, extensions) {
  const args = ['generate', '--spec', version, '--out', join(work, '.generated', version)];
  for (const id of extensions) args.push('--ext', id);
  const generated = await run(process.execPath, [join(root, 'dist/cli/main.js'), ...args], {
    cwd: root,
    timeoutMs: 180_000,
  });
  if (generated.code !== 0) throw new Error(`generate ${version} failed:\n${generated.stdout}${generated.stderr}`);
}

/** Strict settings, as the README's quick start. */
function tsconfig(root) {
  return {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2022', 'DOM'],
      types: ['node'],
      typeRoots: [join(root, 'node_modules/@types')],
      strict: true,
      isolatedModules: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      // validators.js is JavaScript beside its .d.ts: tsc copies it into build/ only with allowJs.
      allowJs: true,
      rootDir: '.',
      outDir: 'build',
    },
    // Each validators.js named as a root file: with allowJs tsc then emits it (a folder starting with a dot is
    // skipped by include wildcards, and an import of it resolves to its validators.d.ts).
    include: [
      'conformance-server/**/*.ts',
      'conformance-client/**/*.ts',
      ...Object.keys(GENERATE).map((version) => `.generated/${version}/*.js`),
    ],
  };
}

export function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}
