/**
 * The documentation site builds (VitePress over docs/), and the build fails on a dead internal link: every
 * page becomes an HTML page, and a link to a page that does not exist stops the build, naming it. VitePress
 * does not check anchors, so this test does: every `#anchor` a page or the README links to is a heading there.
 * The sidebar, the README's "Where to go next" and the site's landing page each list every page, and the
 * landing page says what the README's landing part says (it includes it).
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/generate.js';

const VITEPRESS = join(ROOT, 'node_modules', 'vitepress', 'bin', 'vitepress.js');
// CI forces colour on; the assertions read the words, not the escapes between them.
const plain = (...streams: string[]) => stripVTControlCharacters(streams.join(''));
const build = (docs: string, outDir: string) =>
  promisify(execFile)(process.execPath, [VITEPRESS, 'build', docs, '--outDir', outDir], { cwd: ROOT }).then(
    (r) => ({ ok: true, output: plain(r.stdout, r.stderr) }),
    (error: { stdout: string; stderr: string }) => ({ ok: false, output: plain(error.stdout, error.stderr) }),
  );

/** The pages of docs/, by name without `.md`. */
const pages = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => name.replace(/\.md$/, ''));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('the site', () => {
  let out: string;
  let built: Awaited<ReturnType<typeof build>>;
  beforeAll(async () => {
    out = tempDir('site');
    built = await build(join(ROOT, 'docs'), out);
  }, 180_000);
  const html = (page: string) => readFileSync(join(out, `${page}.html`), 'utf8');
  /** The ids of a built page's headings (and anything else with an id). */
  const ids = (page: string) => new Set([...html(page).matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));

  it('builds every page of docs/', () => {
    expect(built.ok, built.output).toBe(true);
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) expect(existsSync(join(out, `${page}.html`)), page).toBe(true);
  });

  it('every anchor a page links to is on the page it names (VitePress checks only the page)', () => {
    const dead: string[] = [];
    for (const page of pages) {
      // Links between pages stay relative (`./build#platforms`); the theme's own are absolute.
      for (const [, path, target = '', anchor = ''] of html(page).matchAll(/ href="(\.?\/([\w-]*))?#([^"]+)"/g)) {
        const name = path === undefined ? page : target === '' ? 'index' : target;
        if (anchor === 'VPContent') continue; // the theme's skip link
        if (!pages.includes(name) || !ids(name).has(decodeURIComponent(anchor)))
          dead.push(`${page}: ${target}#${anchor}`);
      }
    }
    expect(dead).toEqual([]);
  });

  it("the README's links into docs/ name pages and anchors that exist", () => {
    const links = [...readme.matchAll(/\]\(docs\/([\w-]+)\.md(?:#([^)]+))?\)/g)];
    expect(links.length).toBeGreaterThan(10);
    const dead = links.filter(
      ([, page = '', anchor]) => !pages.includes(page) || (anchor !== undefined && !ids(page).has(anchor)),
    );
    expect(dead.map((m) => m[0])).toEqual([]);
  });

  it("the landing page includes the README's landing part", () => {
    const landing = /<!-- #region landing -->([\s\S]*)<!-- #endregion landing -->/.exec(readme)?.[1] ?? '';
    expect(landing).toContain('## Quick start');
    expect(readFileSync(join(ROOT, 'docs', 'index.md'), 'utf8')).toContain('<!--@include: ../README.md#landing-->');
    // Included, not left as a comment: the quick start's commands are on the built page.
    const text = html('index').replace(/<[^>]*>/g, '');
    expect(text).toContain('npx mcp-typegen init --spec 2025-11-25');
    expect(text).toContain('A client (src/client.ts) that starts that server, calls it and exits');
    expect(html('index')).not.toContain('@include');
  });

  it('the sidebar, the README\'s "Where to go next" and the landing page list every page', () => {
    // The sidebar as built (docs/.vitepress/config.mts), the same on every page.
    const nav = /<nav class="nav" id="VPSidebarNav"[\s\S]*?<\/nav>/.exec(html('index'))?.[0] ?? '';
    expect([...nav.matchAll(/<h2 class="text"[^>]*>([^<]+)<\/h2>/g)].map((m) => m[1])).toEqual([
      'Guides by task',
      'Reference',
    ]);
    const others = pages.filter((page) => page !== 'index').sort();
    expect([...nav.matchAll(/ href="\/([\w-]+)"/g)].map((m) => m[1]).sort()).toEqual(others);
    const at = readme.indexOf('## Where to go next');
    const next = readme.slice(at, readme.indexOf('\n## ', at + 1));
    expect([...new Set([...next.matchAll(/\]\(docs\/([\w-]+)\.md\)/g)].map((m) => m[1]))].sort()).toEqual(others);
    const index = readFileSync(join(ROOT, 'docs', 'index.md'), 'utf8');
    expect([...new Set([...index.matchAll(/\]\(\.\/([\w-]+)\.md\)/g)].map((m) => m[1]))].sort()).toEqual(others);
  });
});

it('a dead internal link fails the build, naming the page and the link', async () => {
  const docs = tempDir('site-dead-link');
  cpSync(join(ROOT, 'docs'), docs, { recursive: true });
  writeFileSync(join(docs, 'index.md'), '# Home\n\n[a page that is not there](./nowhere.md)\n');
  const result = await build(docs, join(docs, '.out'));
  expect(result.ok).toBe(false);
  expect(result.output).toContain('Found dead link ./nowhere in file index.md');
}, 180_000);
