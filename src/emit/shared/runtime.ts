/**
 * The hand-written runtime in templates/ reaches generated code in one of two ways:
 *
 * - `package` (default): generated code imports `@mcp-typegen/runtime` (browser-safe core) and
 *   `@mcp-typegen/runtime/node` (stdio, Streamable HTTP server), a package built from templates/ and
 *   versioned on its own; the output records the range it needs and checks it when it loads.
 * - `copy`: the templates are vendored as runtime/*.ts, byte for byte but for the import specifiers (which
 *   follow the user's module resolution), and only the modules the output uses: no Node module without a
 *   server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolPackage } from '../../load/package-root.js';

export const RUNTIME_MODES = ['package', 'copy'] as const;
export type RuntimeMode = (typeof RUNTIME_MODES)[number];

export const RUNTIME_PACKAGE = '@mcp-typegen/runtime';

/** The runtime modules that need Node (or Deno/Bun): left out of output without a server. */
export const NODE_ONLY_TEMPLATES: readonly string[] = [
  'cluster-state.ts',
  'http-channel.ts',
  'http-cluster-link.ts',
  'http-cluster-resume.ts',
  'http-cluster.ts',
  'http-replies.ts',
  'http-request-transport.ts',
  'http-request.ts',
  'http-server-checks.ts',
  'http-server-options.ts',
  'http-server.ts',
  'http-session-link.ts',
  'http-session-store.ts',
  'http-session.ts',
  'node.ts',
  'redis-state.ts',
  'sse-legacy-server.ts',
  'stdio-command.ts',
  'stdio-frames.ts',
  'stdio.ts',
  'websocket-server.ts',
];

export interface TemplateFile {
  name: string;
  text: string;
}

let cache: TemplateFile[] | undefined;

export function runtimeTemplates(): TemplateFile[] {
  if (cache) return cache;
  const dir = join(toolPackage().root, 'templates');
  cache = readdirSync(dir)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
  return cache;
}

/** The runtime version these templates are (templates/version.ts, equal to the package's version). */
export function runtimeVersion(): string {
  const file = runtimeTemplates().find((t) => t.name === 'version.ts');
  const version = file && /RUNTIME_VERSION: string = '([^']+)'/.exec(file.text)?.[1];
  if (!version) throw new Error('templates/version.ts does not declare RUNTIME_VERSION');
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

/** The vendored files (`copy`): the browser-safe modules, and the Node ones only when asked. */
export function vendoredRuntime(importExt: string, withNode: boolean): { path: string; text: string }[] {
  return runtimeTemplates()
    .filter((t) => withNode || !NODE_ONLY_TEMPLATES.includes(t.name))
    .map((t) => ({ path: `runtime/${t.name}`, text: withImportExtension(t.text, importExt) }));
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
export const SERVER_RUNTIME_EXPORTS = { types: ['McpServerOptions', 'SessionInfo'], values: [] };
/** Re-exported from the Node subpath only by outputs with a server (a client-only index stays browser-safe). */
export const NODE_EXPORTS = {
  types: [],
  values: ['StdioClientTransport', 'StdioServerTransport', 'createStreamableHttpServer'],
};
