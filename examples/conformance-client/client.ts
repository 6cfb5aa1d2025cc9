/**
 * The client side of the official MCP conformance suite (@modelcontextprotocol/conformance), built only from
 * generated 2025-11-25 code: the typed `McpClient` over the generated runtime's Streamable HTTP client transport.
 *
 *   MCP_CONFORMANCE_SCENARIO=<scenario> node client.js <server-url>
 *
 * The runner passes the URL of its test server as the last argument. Exits 0 when the scenario's steps all
 * succeeded, 1 otherwise (the runner then reports the client as failed).
 */
import {
  McpClient,
  StreamableHttpClientTransport,
  sessionStreams,
  type ElicitRequestFormParams,
  type ElicitResult,
  type PrimitiveSchemaDefinition,
} from '../.generated/2025-11-25/index.js';

type Scenario = (client: McpClient) => Promise<void>;

const SCENARIOS: Record<string, Scenario> = {
  /** initialize + notifications/initialized (in connect), then tools/list. */
  async initialize(client) {
    const { tools } = await client.tools.list();
    log(`tools: ${tools.map((tool) => tool.name).join(', ') || '(none)'}`);
  },

  async tools_call(client) {
    const { tools } = await client.tools.list();
    if (!tools.some((tool) => tool.name === 'add_numbers')) throw new Error('the server has no add_numbers tool');
    const result = await client.tools.call({ name: 'add_numbers', arguments: { a: 5, b: 3 } });
    if (result.isError) throw new Error(`add_numbers failed: ${JSON.stringify(result.content)}`);
    log(`add_numbers: ${JSON.stringify(result.content)}`);
  },

  /** The elicitation/create handler (registered before connect) accepts with every default filled in. */
  async 'elicitation-sep1034-client-defaults'(client) {
    const result = await client.tools.call({ name: 'test_client_elicitation_defaults', arguments: {} });
    log(`test_client_elicitation_defaults: ${JSON.stringify(result.content)}`);
  },

  /** The focal tool's inputSchema, sent back verbatim: nothing of JSON Schema 2020-12 is lost. */
  async 'json-schema-2020-12-preservation'(client) {
    const { tools } = await client.tools.list();
    const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('the server does not list json_schema_2020_12_tool');
    const result = await client.tools.call({ name: 'json_schema_echo', arguments: { schema: focal.inputSchema } });
    log(`json_schema_echo: ${JSON.stringify(result.content)}`);
  },

  /** The server closes the tools/call SSE stream; the transport reconnects with Last-Event-ID after `retry`. */
  async 'sse-retry'(client) {
    const result = await client.tools.call({ name: 'test_reconnection', arguments: {} });
    log(`test_reconnection: ${JSON.stringify(result.content)}`);
  },
};

/** SEP-1034: accept, and fill each field the user left out with its schema default. */
function acceptWithDefaults(params: ElicitRequestFormParams, given: Record<string, unknown> = {}): ElicitResult {
  const content: NonNullable<ElicitResult['content']> = {};
  for (const [name, schema] of Object.entries(params.requestedSchema.properties)) {
    const value = name in given ? given[name] : defaultOf(schema);
    if (value !== undefined) content[name] = value as NonNullable<ElicitResult['content']>[string];
  }
  return { action: 'accept', content };
}

function defaultOf(schema: PrimitiveSchemaDefinition): unknown {
  return 'default' in schema ? schema.default : undefined;
}

function log(message: string): void {
  console.log(`[client] ${message}`);
}

async function main(): Promise<number> {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const url = process.argv[process.argv.length - 1];
  const run = SCENARIOS[scenario];
  if (!run) {
    console.error(`[client] unknown scenario ${JSON.stringify(scenario)}; known: ${Object.keys(SCENARIOS).join(', ')}`);
    return 1;
  }
  if (!url || !/^https?:\/\//.test(url)) {
    console.error('[client] usage: client.js <server-url>');
    return 1;
  }
  // The session streams: test servers send requests on the standalone GET stream (elicitation) and close request
  // streams for the client to resume (sse-retry).
  const transport = new StreamableHttpClientTransport(url, {
    streams: sessionStreams(),
    reconnection: { maxRetries: 3 },
  });
  const client = new McpClient(transport, {
    clientInfo: { name: 'mcp-typegen-conformance-client', version: '0.1.0' },
    // Test servers may answer with an older version (sse-retry answers 2025-03-26).
    supportedProtocolVersions: ['2025-11-25', '2025-06-18', '2025-03-26'],
    onDiagnostic: (diagnostic) => console.error(`[client] ${diagnostic.kind}: ${diagnostic.message}`),
  });
  // Registering the handler declares the elicitation capability (form mode).
  client.setRequestHandler('elicitation/create', (params) => {
    if (params.mode === 'url') return { action: 'decline' };
    return acceptWithDefaults(params);
  });
  try {
    await client.connect();
    log(`connected to ${client.serverInfo?.name ?? '?'} (protocol ${client.negotiatedVersion})`);
    await run(client);
    return 0;
  } catch (error) {
    console.error(`[client] ${scenario} failed:`, error);
    return 1;
  } finally {
    await client.close().catch((error: unknown) => console.error('[client] close failed:', error));
  }
}

process.exitCode = await main();
