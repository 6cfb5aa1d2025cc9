/**
 * The documentation site: docs/*.md built by VitePress (`npm run docs:build`, `npm run docs:dev`). Every page
 * is one task; the build fails on a dead internal link (VitePress checks them), and the suite runs it
 * (test/docs/site.test.ts). The snippets on the pages are compiled by the suite where they live.
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
        text: 'Guides',
        items: [
          { text: 'Authorization: the OAuth client', link: '/authorization' },
          { text: 'Vendor extensions', link: '/extensions' },
          { text: 'Scaling: several processes', link: '/scaling' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'Type fidelity', link: '/type-fidelity' },
          { text: 'Conformance', link: '/conformance' },
        ],
      },
    ],
    search: { provider: 'local' },
  },
});
