/**
 * Issue 46: a result variant an extension adds to a core request, told apart by a property MCP's own result does
 * not carry (`kind`, on 2025-11-25, where results have no `resultType`), narrows with `===` as a discriminated
 * union does: MCP's own variant is typed without the property (`kind?: undefined`), on the client and in handlers.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, generated, tempDir, writeFiles } from '../helpers/generate.js';
import { buildJs, diagnostics } from './helpers.js';

const EXTENSION = join(ROOT, 'test', 'fixtures', 'extensions', 'augment', 'deferred-call.extension.json');

it('a 2025-11-25 tools/call result narrows on the variant’s kind (tsc --strict)', async () => {
  const dir = tempDir('augment-narrowing');
  writeFiles(join(dir, 'generated'), (await generated('2025-11-25', { extensions: [EXTENSION] })).files);
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'probe.ts'),
    [
      "import type { Transport } from '@mcp-typegen/runtime';",
      "import { createClient } from './generated/client.js';",
      "import { createServer } from './generated/server.js';",
      'declare const transport: Transport;',
      "const client = createClient(transport, { clientInfo: { name: 'c', version: '1' } });",
      'export async function call(): Promise<string | number> {',
      "  const result = await client.tools.call({ name: 'build' });",
      "  if (result.kind === 'deferred') return result.jobId;",
      '  return result.content.length;',
      '}',
      'export const server = createServer(',
      '  {',
      "    'tools/call': (params) =>",
      "      params.name === 'build' ? { kind: 'deferred' as const, jobId: 'j1' } : { content: [] },",
      '  },',
      "  { serverInfo: { name: 's', version: '1' } },",
      ');',
      'export const mixed = createServer(',
      '  {',
      "    // @ts-expect-error -- MCP's own result does not carry the variant's kind",
      "    'tools/call': () => ({ content: [], kind: 'deferred' as const }),",
      '  },',
      "  { serverInfo: { name: 's', version: '1' } },",
      ');',
      '',
    ].join('\n'),
  );
  expect(diagnostics(await buildJs(dir))).toEqual([]);
}, 120_000);
