/**
 * The client side of the official MCP conformance suite for 2026-07-28, built only from generated code
 * (`--spec 2026-07-28 --ext io.modelcontextprotocol/tasks --ext io.modelcontextprotocol/skills`): the typed
 * `McpClient` over the runtime's Streamable HTTP client transport. It probes the server with
 * `server/discover`, sends its `_meta` and the request headers with every request, answers input-required
 * results with its handlers and retries, and hosts skills (verifying what it reads). The suite's `auth/*`
 * scenarios, at every version they are for, go to auth.ts (the runtime's OAuth client).
 *
 *   MCP_CONFORMANCE_SCENARIO=<scenario> node client-2026-07-28.js <server-url>
 *
 * The runner passes the URL of its test server as the last argument, and the version to speak as
 * MCP_CONFORMANCE_PROTOCOL_VERSION. Exits 0 when the scenario's steps all succeeded, 1 otherwise.
 */
import {
  McpClient,
  StreamableHttpClientTransport,
  type CallToolResult,
  type CreateMessageResult,
  type ElicitResult,
  type Tool,
} from '../.generated/2026-07-28/index.js';
import { isAuthScenario, runAuthScenario } from './auth.js';
import { loadSkill } from './skills-host.js';

type Scenario = (client: McpClient) => Promise<void>;

/** Calls a tool and fails unless it completed (a task handle is no answer here). */
async function call(client: McpClient, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = await client.tools.call({ name, arguments: args });
  if (result.resultType === 'task') throw new Error(`${name} answered with a task`);
  log(`${name}: ${JSON.stringify(result.content)}`);
  return result;
}

/** Every tool of the server, all pages. */
async function allTools(client: McpClient): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.tools.list(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

const SCENARIOS: Record<string, Scenario> = {
  async tools_call(client) {
    const tools = await allTools(client);
    if (!tools.some((tool) => tool.name === 'add_numbers')) throw new Error('the server has no add_numbers tool');
    await call(client, 'add_numbers', { a: 5, b: 3 });
  },

  /** server/discover (in connect), then a request carrying the per-request _meta. */
  async 'request-metadata'(client) {
    log(`tools: ${(await allTools(client)).map((tool) => tool.name).join(', ')}`);
  },

  /** Each tool answers input_required first: the client answers, echoes requestState and retries. */
  async 'sep-2322-client-request-state'(client) {
    await call(client, 'test_mrtr_echo_state');
    await call(client, 'test_mrtr_unrelated');
    await call(client, 'test_mrtr_no_state');
    await call(client, 'test_mrtr_no_result_type');
  },

  /** One request of each kind, so each carries its Mcp-Method (and Mcp-Name) header. */
  async 'http-standard-headers'(client) {
    const [tool] = await allTools(client);
    if (tool) await call(client, tool.name);
    const { resources } = await client.resources.list();
    if (resources[0]) await client.resources.read({ uri: resources[0].uri });
    const { prompts } = await client.prompts.list();
    if (prompts[0]) await client.prompts.get({ name: prompts[0].name });
  },

  /** Arguments whose x-mcp-header values need plain, Base64 and no encoding, and one call with nulls. */
  async 'http-custom-headers'(client) {
    await allTools(client);
    await call(client, 'test_custom_headers', {
      region: 'us-west1',
      priority: 42,
      verbose: false,
      debug: true,
      empty_val: '',
      method_val: 'tools/call',
      float_val: 3.14,
      non_ascii_val: 'Grüße',
      whitespace_val: '  padded  ',
      leading_space_val: ' leading',
      trailing_space_val: 'trailing ',
      internal_space_val: 'inner space',
      control_char_val: 'bell\u0007',
      crlf_val: 'line1\r\nline2',
      tab_val: '\tindented',
      query: 'not mirrored',
    });
    await call(client, 'test_custom_headers_null', { region: 'eu', priority: 1, verbose: null, query: 'q' });
  },

  /** Tools with invalid x-mcp-header annotations are listed; the client refuses to call them. */
  async 'http-invalid-tool-headers'(client) {
    const tools = await allTools(client);
    for (const tool of tools) {
      try {
        await call(client, tool.name);
      } catch (error) {
        log(`${tool.name} not called: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  },

  /** Lists the tools; a network `$ref` in a schema is never fetched. */
  async 'json-schema-ref-no-deref'(client) {
    await allTools(client);
  },

  /** The focal tool's inputSchema, sent back verbatim: nothing of JSON Schema 2020-12 is lost. */
  async 'json-schema-2020-12-preservation'(client) {
    const focal = (await allTools(client)).find((tool) => tool.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('the server does not list json_schema_2020_12_tool');
    await call(client, 'json_schema_echo', { schema: focal.inputSchema });
  },

  /** Lists the skills and loads none: no file is read before a skill is used. */
  async 'sep-2640-client-no-prefetch'(client) {
    const { skills } = await client.skills.list();
    log(`skills: ${skills.map((skill) => skill.uri).join(', ')}`);
  },
  'sep-2640-client-verify-digest': useFirstSkill,
  'sep-2640-client-verify-size': useFirstSkill,
  'sep-2640-client-verify-frontmatter': useFirstSkill,
};

/** Loads the first skill listed, verifying each file against its entry before using it. */
async function useFirstSkill(client: McpClient): Promise<void> {
  const { skills } = await client.skills.list();
  const [skill] = skills;
  if (!skill) throw new Error('the server lists no skill');
  const files = await loadSkill(skill, async (uri) => (await client.resources.read({ uri })).contents);
  log(`loaded ${skill.uri}: ${[...files.keys()].join(', ')}`);
}

function log(message: string): void {
  console.log(`[client] ${message}`);
}

function createConformanceClient(url: string): McpClient {
  const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
  const client = new McpClient(new StreamableHttpClientTransport(url), {
    clientInfo: { name: 'mcp-typegen-conformance-client-2026', version: '0.1.0' },
    ...(version ? { supportedProtocolVersions: [version] } : {}),
    onDiagnostic: (diagnostic) => console.error(`[client] ${diagnostic.kind}: ${diagnostic.message}`),
  });
  // The handlers declare the capabilities (elicitation, sampling, roots) and answer input requests.
  client.setRequestHandler('elicitation/create', (params): ElicitResult => {
    if (params.mode === 'url') return { action: 'decline' };
    return { action: 'accept', content: { confirmed: true, name: 'Conformance', ok: true } };
  });
  client.setRequestHandler('sampling/createMessage', (): CreateMessageResult => ({
    role: 'assistant',
    content: { type: 'text', text: 'Hello from the conformance client' },
    model: 'conformance-model',
    stopReason: 'endTurn',
  }));
  client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///conformance', name: 'conformance' }] }));
  return client;
}

async function main(): Promise<number> {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const url = process.argv[process.argv.length - 1];
  if (isAuthScenario(scenario) && url) {
    return runAuthScenario(scenario, url).then(
      () => 0,
      (error: unknown) => (console.error(`[client] ${scenario} failed:`, error), 1),
    );
  }
  const run = SCENARIOS[scenario];
  if (!run) {
    console.error(`[client] unknown scenario ${JSON.stringify(scenario)}; known: ${Object.keys(SCENARIOS).join(', ')}`);
    return 1;
  }
  if (!url || !/^https?:\/\//.test(url)) {
    console.error('[client] usage: client-2026-07-28.js <server-url>');
    return 1;
  }
  const client = createConformanceClient(url);
  try {
    await client.connect();
    log(`connected to ${client.serverInfo?.name ?? '?'} (protocol ${client.negotiatedVersion}, ${client.era})`);
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
