/**
 * The documentation site builds (VitePress over docs/), and the build fails on a dead internal link: every
 * page becomes an HTML page, and a link to a page that does not exist stops the build, naming it.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/generate.js';

const VITEPRESS = join(ROOT, 'node_modules', 'vitepress', 'bin', 'vitepress.js');
// CI forces colour on; the assertions read the words, not the escapes between them.
const plain = (...streams: string[]) => stripVTControlCharacters(streams.join(''));
const build = (docs: string, outDir: string) =>
  promisify(execFile)(process.execPath, [VITEPRESS, 'build', docs, '--outDir', outDir], { cwd: ROOT }).then(
    (r) => ({ ok: true, output: plain(r.stdout, r.stderr) }),
    (error: { stdout: string; stderr: string }) => ({ ok: false, output: plain(error.stdout, error.stderr) }),
  );

it('builds every page of docs/ into the site', async () => {
  const out = tempDir('site');
  const result = await build(join(ROOT, 'docs'), out);
  expect(result.ok, result.output).toBe(true);
  const pages = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  expect(pages.length).toBeGreaterThan(3);
  for (const page of pages) expect(existsSync(join(out, page.replace(/\.md$/, '.html'))), page).toBe(true);
}, 180_000);

it('a dead internal link fails the build, naming the page and the link', async () => {
  const docs = tempDir('site-dead-link');
  cpSync(join(ROOT, 'docs'), docs, { recursive: true });
  writeFileSync(join(docs, 'index.md'), '# Home\n\n[a page that is not there](./nowhere.md)\n');
  const result = await build(docs, join(docs, '.out'));
  expect(result.ok).toBe(false);
  expect(result.output).toContain('Found dead link ./nowhere in file index.md');
}, 180_000);
