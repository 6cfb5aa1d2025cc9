/**
 * The documentation site: docs/*.md built by VitePress (`npm run docs:build`, `npm run docs:dev`). Every page
 * is one task (the sidebar lists every page: test/docs/site.test.ts); the build fails on a dead internal link
 * (VitePress checks them), and the suite runs it. index.md includes the README's landing part (its `landing`
 * region), so the two say the same. Every snippet on the pages is compiled by test/docs/readme-snippets.test.ts.
 */
import { defineConfig } from 'vitepress';

export default defineConfig({
  title: 'mcp-typegen',
  description: 'TypeScript code generation for the Model Context Protocol',
  // Served from a folder of the project's site, not the domain's root.
  base: process.env['DOCS_BASE'] ?? '/',
  cleanUrls: true,
  srcExclude: ['**/README.md'],
  themeConfig: {
    sidebar: [
      {
        text: 'Guides by task',
        items: [
          { text: 'In a build', link: '/build' },
          { text: 'Vendor extensions', link: '/extensions' },
          { text: 'With the official SDK', link: '/sdk' },
          { text: 'Tools and snapshots', link: '/tools' },
          { text: 'diff in CI', link: '/diff' },
          { text: 'The runtime, transports and versions', link: '/transports-and-versions' },
          { text: 'Scaling: several processes', link: '/scaling' },
          { text: 'Authorization: the OAuth client', link: '/authorization' },
          { text: 'Authorization: the server', link: '/authorization-server' },
          { text: 'In a browser', link: '/browser' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'Type fidelity', link: '/type-fidelity' },
          { text: 'Conformance', link: '/conformance' },
          { text: 'Layout and layers', link: '/architecture' },
          { text: 'Benchmark', link: '/benchmark' },
        ],
      },
    ],
    search: { provider: 'local' },
  },
});
