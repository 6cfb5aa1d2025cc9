/**
 * The two tarballs a user installs (`mcp-typegen` and `@mcp-typegen/runtime`), as `npm pack` makes them, for
 * the tests that install them into fresh projects (pack, the platform matrix, the README snippets). Packed
 * once per content of what the packages ship (each package.json, its `files` and README, hashed as
 * scripts/build.mjs hashes a build's inputs) under test/.tmp/packed/<hash>, placed by rename so a concurrent
 * worker sees both tarballs or none; each test gets its own copies.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ROOT, TMP } from './paths.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const PACKAGES = ['.', 'packages/runtime'];

/** Every path a package's tarball is made from, relative to the repository root. */
function shipped(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { files?: string[] };
  return ['package.json', 'README.md', ...(manifest.files ?? [])].map((path) => join(dir, path));
}

let packing: Promise<string> | undefined;

/** The directory holding both tarballs of the packages on disk now, packed when first asked. */
function packed(): Promise<string> {
  packing ??= (async () => {
    // The tool's declarations ship in its tarball but are no eager build (a test run builds only what every
    // run needs): made here, when stale, before the tarball is.
    await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-stale', 'types'], {
      cwd: ROOT,
    });
    const script = (await import(pathToFileURL(join(ROOT, 'scripts', 'build.mjs')).href)) as {
      fingerprint(root: string, inputs: string[]): string;
    };
    const dir = join(TMP, 'packed', script.fingerprint(ROOT, PACKAGES.flatMap(shipped)).slice(0, 16));
    if (existsSync(dir)) return dir;
    const staging = `${dir}.${process.pid}.partial`;
    mkdirSync(staging, { recursive: true });
    const pack = promisify(execFile);
    await pack(npm, ['pack', '--ignore-scripts', '--pack-destination', staging], { cwd: ROOT });
    await pack(npm, ['pack', '-w', '@mcp-typegen/runtime', '--ignore-scripts', '--pack-destination', staging], {
      cwd: ROOT,
    });
    try {
      renameSync(staging, dir);
    } catch {
      // Another worker placed the same tarballs first.
      rmSync(staging, { recursive: true, force: true });
    }
    return dir;
  })();
  packing.catch(() => (packing = undefined));
  return packing;
}

/** Copies both tarballs into `into` (made if missing); their paths there. */
export async function packInto(into: string): Promise<string[]> {
  const from = await packed();
  mkdirSync(into, { recursive: true });
  return readdirSync(from).map((name) => {
    copyFileSync(join(from, name), join(into, name));
    return join(into, name);
  });
}
