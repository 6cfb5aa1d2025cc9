/**
 * What an editor shows: the TypeScript language service's quick info (hover) for a client call, a maps
 * lookup and a server handler's params names the params type (`CallToolRequestParams`), never
 * `ClientCalls["tools/call"]["params"]`. 2024-11-05 writes params inline, so the name is the alias
 * types.ts declares for them; 2026-07-28 wraps it in CallerParams (the client fills in `_meta`).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { built } from '../client/helpers/build.js';
import { tempDir } from '../helpers/generate.js';

const USAGE = `import { McpClient, createServer, type ParamsOf } from './index.js';
declare const client: McpClient;
export const called = client.tools.call({ name: 'x' });
export const pinged = client.ping();
declare const lookedUp: ParamsOf<'tools/call'>;
export const server = createServer({ 'tools/call': (handled) => ({ content: [], handled }) }, { serverInfo: { name: 's', version: '1' } });
export { lookedUp };
`;

/** Quick info at the first occurrence of each marker in the usage file, placed in a copy of a build. */
function hover(build: string, markers: string[]): string[] {
  const dir = tempDir('hover');
  cpSync(build, dir, { recursive: true });
  const file = join(dir, 'hover-usage.ts');
  writeFileSync(file, USAGE);
  const options: ts.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
    skipLibCheck: true,
  };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) =>
      ts.sys.fileExists(name) ? ts.ScriptSnapshot.fromString(readFileSync(name, 'utf8')) : undefined,
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
  };
  const service = ts.createLanguageService(host);
  return markers.map((marker) => {
    const at = USAGE.indexOf(marker);
    if (at < 0) throw new Error(`${marker} not in the usage file`);
    const info = service.getQuickInfoAtPosition(file, at);
    return ts.displayPartsToString(info?.displayParts);
  });
}

describe('hovering a method shows the named params type', () => {
  it('2024-11-05 (params written inline): client call, ParamsOf and server handler say CallToolRequestParams', async () => {
    const { dir } = await built('2024-11-05');
    const [call, ping, lookedUp, handled] = hover(dir, ['call(', 'ping(', 'lookedUp:', 'handled)']);
    expect(call).toContain('params: CallToolRequestParams,');
    expect(call).toContain('Promise<CallToolResult>');
    expect(ping).toContain('params?: PingRequestParams');
    expect(lookedUp).toMatch(/lookedUp: CallToolRequestParams$/);
    expect(handled).toMatch(/handled: CallToolRequestParams$/);
    for (const text of [call, ping, lookedUp, handled]) expect(text).not.toMatch(/ClientCalls|\["params"\]/);
  });

  it('2026-07-28: the client call says CallerParams<CallToolRequestParams>', async () => {
    const { dir } = await built('2026-07-28');
    const [call, lookedUp] = hover(dir, ['call(', 'lookedUp:']);
    expect(call).toContain('params: CallerParams<CallToolRequestParams>');
    expect(lookedUp).toMatch(/lookedUp: CallToolRequestParams$/);
    expect(call).not.toMatch(/ClientCalls|\["params"\]/);
  });
});
