/**
 * The hand-written runtime in templates/ ships inside every generated output as runtime/*.ts,
 * byte for byte but for the import specifiers, which follow the user's module resolution.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolPackage } from '../load/package-root.js';

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

/** Rewrite relative `.js` specifiers to the chosen extension (`.js`, `.ts` or none). */
export function withImportExtension(text: string, importExt: string): string {
  if (importExt === '.js') return text;
  return text.replace(/(from\s+|import\s*\(\s*)(['"])(\.{1,2}\/[^'"]+?)\.js\2/g, `$1$2$3${importExt}$2`);
}

/** What generated index.ts re-exports from the runtime, by module. */
export const RUNTIME_EXPORTS: Record<string, { types: string[]; values: string[] }> = {
  './runtime/jsonrpc.js': {
    types: ['JsonRpcMessage', 'JsonRpcRequest', 'JsonRpcNotification', 'JsonRpcResponse'],
    values: ['ProtocolError', 'ErrorCode'],
  },
  './runtime/peer.js': {
    types: ['RequestOptions', 'HandlerContext', 'NotificationContext', 'Progress'],
    values: ['RpcPeer'],
  },
  './runtime/transport.js': { types: ['Transport'], values: ['createInMemoryPair'] },
  './runtime/stdio.js': { types: [], values: ['StdioClientTransport', 'StdioServerTransport'] },
  './runtime/http-server.js': { types: [], values: ['createStreamableHttpServer'] },
  './runtime/http-client.js': { types: [], values: ['StreamableHttpClientTransport'] },
  './runtime/client-base.js': { types: ['McpClientOptions', 'Implementation'], values: [] },
  './runtime/server-base.js': { types: ['McpServerOptions', 'SessionInfo'], values: [] },
};
