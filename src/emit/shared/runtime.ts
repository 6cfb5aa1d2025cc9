/**
 * The hand-written runtime in templates/ reaches generated code in one of two ways:
 *
 * - `package` (default): generated code imports `@mcp-typegen/runtime` (browser-safe core) and
 *   `@mcp-typegen/runtime/node` (stdio, Streamable HTTP server), a package built from templates/ and
 *   versioned on its own; the output records the range it needs and checks it when it loads.
 * - `copy`: the templates are vendored under runtime/ (their folders kept), byte for byte but for the import
 *   specifiers (which follow the user's module resolution), and only the modules the output uses: what the
 *   browser-safe entry (index.ts) imports, and what the Node-only entries import only with a server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { toolPackage } from '../../load/package-root.js';
import { tsMorph } from './ts-project.js';

export const RUNTIME_MODES = ['package', 'copy'] as const;
export type RuntimeMode = (typeof RUNTIME_MODES)[number];

export const RUNTIME_PACKAGE = '@mcp-typegen/runtime';

/**
 * The runtime's entry points (the package's `exports`): the browser-safe core, and the Node-only ones. Which
 * module is browser-safe follows from them: what index.ts imports, directly or not (tsconfig.templates-browser.json
 * type-checks exactly that without Node's types); nothing else is listed anywhere.
 */
export const BROWSER_ENTRY = 'index.ts';
export const NODE_ENTRIES: readonly string[] = ['node.ts', 'ws.ts', 'redis.ts'];

export interface TemplateFile {
  /** The path under templates/, `/`-separated (`core/engine.ts`): also its path under a vendored runtime/. */
  name: string;
  text: string;
}

let cache: TemplateFile[] | undefined;

export function runtimeTemplates(): TemplateFile[] {
  if (cache) return cache;
  const dir = join(toolPackage().root, 'templates');
  cache = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
    .map((path) => path.split(sep).join('/'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
  return cache;
}

/** The runtime version these templates are (templates/core/version.ts, equal to the package's version). */
export function runtimeVersion(): string {
  const file = runtimeTemplates().find((t) => t.name === 'core/version.ts');
  const version = file && /RUNTIME_VERSION: string = '([^']+)'/.exec(file.text)?.[1];
  if (!version) throw new Error('templates/core/version.ts does not declare RUNTIME_VERSION');
  return version;
}

/** The range of `@mcp-typegen/runtime` generated code works with (what `init` installs too). */
export function runtimeRange(): string {
  return `^${runtimeVersion()}`;
}

/** Where generated modules import the runtime from. */
export interface RuntimeImports {
  /** The browser-safe core. */
  core: string;
  /** The Node-only transports. */
  node: string;
}

export function runtimeImports(mode: RuntimeMode, importExt: string): RuntimeImports {
  return mode === 'package'
    ? { core: RUNTIME_PACKAGE, node: `${RUNTIME_PACKAGE}/node` }
    : { core: `./runtime/index${importExt}`, node: `./runtime/node${importExt}` };
}

/** The vendored files (`copy`): what the browser-safe entry imports, and what the Node ones do only when asked. */
export function vendoredRuntime(importExt: string, withNode: boolean): { path: string; text: string }[] {
  const wanted = reachableTemplates(withNode ? [BROWSER_ENTRY, ...NODE_ENTRIES] : [BROWSER_ENTRY]);
  return runtimeTemplates()
    .filter((t) => wanted.has(t.name))
    .map((t) => ({ path: `runtime/${t.name}`, text: withImportExtension(t.text, importExt) }));
}

/** The templates `entries` import, directly or through others, type-only imports included; the entries too. */
export function reachableTemplates(entries: readonly string[]): Set<string> {
  const byName = new Map(runtimeTemplates().map((t) => [t.name, t.text]));
  const { ts } = tsMorph();
  const seen = new Set<string>();
  const visit = (name: string): void => {
    const text = byName.get(name);
    if (text === undefined || seen.has(name)) return;
    seen.add(name);
    for (const { fileName } of ts.preProcessFile(text, true, false).importedFiles) {
      if (fileName.startsWith('.')) visit(posix.join(posix.dirname(name), fileName.replace(/\.js$/, '.ts')));
    }
  };
  for (const entry of entries) {
    if (!byName.has(entry)) throw new Error(`no runtime template ${entry}`);
    visit(entry);
  }
  return seen;
}

/** Rewrite relative `.js` specifiers to the chosen extension (`.js`, `.ts` or none). */
export function withImportExtension(text: string, importExt: string): string {
  if (importExt === '.js') return text;
  return text.replace(/(from\s+|import\s*\(\s*)(['"])(\.{1,2}\/[^'"]+?)\.js\2/g, `$1$2$3${importExt}$2`);
}

/** Names index.ts re-exports from the runtime: what every client or server output uses. */
export const CORE_EXPORTS = {
  types: [
    'JsonRpcMessage',
    'JsonRpcRequest',
    'JsonRpcNotification',
    'JsonRpcResponse',
    'RequestOptions',
    'HandlerContext',
    'NotificationContext',
    'Progress',
    'Transport',
    'Implementation',
  ],
  values: [
    'ProtocolError',
    'LocalError',
    'ErrorCode',
    'RpcPeer',
    'createInMemoryPair',
    'StreamableHttpClientTransport',
    'sseFallback',
    'sessionStreams',
  ],
};
export const CLIENT_RUNTIME_EXPORTS = {
  types: ['McpClientOptions', 'MessageChecker', 'OutputSchemaValidator'],
  values: ['checkWith', 'checkStructuredContentWith'],
};
export const SERVER_RUNTIME_EXPORTS = { types: ['McpServerOptions', 'SessionInfo', 'AuthInfo'], values: [] };
/** Re-exported from the Node subpath only by outputs with a server (a client-only index stays browser-safe). */
export const NODE_EXPORTS = {
  types: [],
  values: ['StdioClientTransport', 'StdioServerTransport', 'createStreamableHttpServer'],
};
