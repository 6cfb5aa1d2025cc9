/**
 * The typed tools over the official SDKs (issue 44, item 1): `sdkTools(client)` takes the SDK v1 and v2 `Client`
 * and types every call from the snapshot; `registerSdkTools(server, handlers)` takes the SDK v2 `McpServer` and
 * needs a handler per tool, typed. Compiled with tsc --strict beside the weather snapshot's output by
 * sdk-tools.test.ts, then again with the types loosened to any, when every tagged directive must be unused.
 */
import type { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import type { Client as ClientV2 } from '@modelcontextprotocol/client';
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { sdkTools } from './generated/sdk-tools.js';
import { registerSdkTools } from './generated/tool-schemas.js';

export async function calls(v1: ClientV1, v2: ClientV2): Promise<number> {
  const typed = sdkTools(v1);
  const result = await typed.tool.forecast({ city: 'Porto' });
  const temperature: number = result.isError === true ? 0 : result.structuredContent.temperature;
  // @ts-expect-error [wrong-args]
  await sdkTools(v2).tool.forecast({ city: 3 });
  // @ts-expect-error [wrong-structured]
  const conditions: number = result.isError === true ? 0 : result.structuredContent.conditions;
  // @ts-expect-error [wrong-prompt]
  await sdkTools(v2).prompt['trip-advice']({ town: 'Porto' });
  const drift = await typed.drift.check();
  // @ts-expect-error [drift-name]
  void drift.removed.includes('no-such-tool');
  return temperature + conditions;
}

export function register(server: McpServer): void {
  registerSdkTools<ServerContext>(server, {
    forecast: async ({ city, unit }, ctx) => {
      const id: string | number = ctx.mcpReq.id;
      const structuredContent = { temperature: unit === 'fahrenheit' ? 70 : 21, conditions: `${city} ${id}` };
      return { content: [{ type: 'text', text: city }], structuredContent };
    },
  });
  // @ts-expect-error [missing-handler]
  registerSdkTools(server, {});
  registerSdkTools(server, {
    // @ts-expect-error [wrong-handler-args]
    forecast: ({ town }: { town: string }) => ({
      content: [],
      structuredContent: { temperature: 1, conditions: town },
    }),
  });
  registerSdkTools(server, {
    // @ts-expect-error [wrong-result]
    forecast: () => ({ content: [], structuredContent: { temperature: 'warm', conditions: 'sunny' } }),
  });
}
