// The server side of the stdio round-trip bench, one process per side:
//   ours <jsDir>  the generated server over the runtime's StdioServerTransport
//   sdk           the SDK's Server over its StdioServerTransport
//   echo          a raw newline-JSON echo: parse each line, answer it (the floor any stdio stack pays)
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';

const [mode, jsDir] = process.argv.slice(2);
const info = { name: 'bench', version: '1.0.0' };
const echo = (params) => ({ content: [{ type: 'text', text: String(params?.arguments?.text ?? '') }] });

if (mode === 'ours') {
  const gen = (p) => import(pathToFileURL(join(jsDir, p)).href);
  const { createServer } = await gen('server.js');
  const { StdioServerTransport } = await gen('runtime/stdio.js');
  const server = createServer({ 'tools/list': () => ({ tools: [] }), 'tools/call': echo }, { serverInfo: info });
  await server.connect(new StdioServerTransport());
} else if (mode === 'sdk') {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const server = new Server(info, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => echo(request.params));
  await server.connect(new StdioServerTransport());
} else {
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const message = JSON.parse(line);
    if (message.id === undefined) return;
    const result =
      message.method === 'initialize' ? { protocolVersion: message.params.protocolVersion } : echo(message.params);
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\n');
  });
}
