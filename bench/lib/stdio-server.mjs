// A stdio MCP server for the round-trip rows, spawned by roundtrip.mjs: `node stdio-server.mjs <side> <jsDir>`.
// Tools: `echo` (the measured call) and `usage`, which answers with this process's CPU time so far (µs) and
// peak RSS (MB), so the client can charge the server's share of each call too. Sides: ours (the generated server), sdk
// (@modelcontextprotocol/sdk Server), sdk2 (@modelcontextprotocol/server v2), echo (a raw newline-JSON echo that
// splits lines by hand: the fastest honest floor), echo-readline (the same echo splitting lines with node:readline,
// about 10% slower; kept beside it, named, so nobody mistakes it for the floor).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [side, jsDir] = process.argv.slice(2);
const info = { name: 'bench', version: '1.0.0' };
const usage = () => {
  const u = process.resourceUsage();
  return JSON.stringify({ cpuUs: u.userCPUTime + u.systemCPUTime, rssMb: u.maxRSS / 1024 });
};
const answer = (name, args) => ({
  content: [{ type: 'text', text: name === 'usage' ? usage() : String(args?.text ?? '') }],
});
const tools = [{ name: 'echo', inputSchema: { type: 'object' } }];

if (side === 'ours') {
  const gen = (p) => import(pathToFileURL(join(jsDir, p)).href);
  const { createServer } = await gen('server.js');
  const { StdioServerTransport } = await import('@mcp-typegen/runtime/node');
  const server = createServer(
    { 'tools/list': () => ({ tools }), 'tools/call': (params) => answer(params.name, params.arguments) },
    { serverInfo: info },
  );
  await server.connect(new StdioServerTransport());
} else if (side === 'sdk') {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const server = new Server(info, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => answer(request.params.name, request.params.arguments));
  await server.connect(new StdioServerTransport());
} else if (side === 'sdk2') {
  const { Server } = await import('@modelcontextprotocol/server');
  const { StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
  const server = new Server(info, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', (request) => answer(request.params.name, request.params.arguments));
  await server.connect(new StdioServerTransport());
} else if (side === 'echo' || side === 'echo-readline') {
  // No MCP at all: parse each line, answer it with the same result the servers above give.
  const reply = (line) => {
    const message = JSON.parse(line);
    const result = answer(message.params?.name, message.params?.arguments);
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n`);
  };
  if (side === 'echo-readline') {
    const { createInterface } = await import('node:readline');
    createInterface({ input: process.stdin }).on('line', reply);
  } else {
    let buffer = '';
    process.stdin.setEncoding('utf8').on('data', (chunk) => {
      buffer += chunk;
      let start = 0;
      for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n', start)) {
        reply(buffer.slice(start, newline));
        start = newline + 1;
      }
      buffer = buffer.slice(start);
    });
  }
} else {
  throw new Error(`unknown side ${side}`);
}
