/**
 * SDK v1 registration (issue 44, item 1): `registerSdkToolsV1(server, handlers)` takes the SDK v1 `McpServer` and
 * needs a handler per tool, typed by the snapshot; `toolSchemasV1` types its zod objects by the generated types.
 * Compiled with tsc --strict beside the weather snapshot's output (`sdk-v1` artifact) by sdk-tools-v1.test.ts,
 * then again with the types loosened to any, when every tagged directive must be unused.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { promptSchemasV1, registerSdkToolsV1, toolSchemasV1 } from './generated/tool-schemas-v1.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export function register(server: McpServer): void {
  registerSdkToolsV1<Extra>(server, {
    forecast: async ({ city, unit }, extra) => {
      const id: string | number = extra.requestId;
      const structuredContent = { temperature: unit === 'fahrenheit' ? 70 : 21, conditions: `${city} ${id}` };
      return { content: [{ type: 'text', text: city }], structuredContent };
    },
  });
  // @ts-expect-error [missing-handler]
  registerSdkToolsV1(server, {});
  registerSdkToolsV1(server, {
    // @ts-expect-error [wrong-handler-args]
    forecast: ({ town }: { town: string }) => ({
      content: [],
      structuredContent: { temperature: 1, conditions: town },
    }),
  });
  registerSdkToolsV1(server, {
    // @ts-expect-error [wrong-result]
    forecast: () => ({ content: [], structuredContent: { temperature: 'warm', conditions: 'sunny' } }),
  });
}

export function prompt(server: McpServer): void {
  server.registerPrompt('trip-advice', { argsSchema: promptSchemasV1['trip-advice'] }, (args) => {
    const city: string = args.city;
    // @ts-expect-error [wrong-prompt-argument]
    const town: string = args.town;
    return { messages: [{ role: 'user', content: { type: 'text', text: `${city}${town}` } }] };
  });
}

export function parse(value: unknown): string {
  const args = toolSchemasV1.forecast.inputSchema.parse(value);
  // @ts-expect-error [wrong-schema-type]
  const city: number = args.city;
  return `${args.city}${city}`;
}
