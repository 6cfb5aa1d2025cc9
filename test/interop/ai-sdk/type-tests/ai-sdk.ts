/**
 * What the AI SDK infers from the generated tool-schemas.js (issue 44, item 2): `mcpClient.tools({ schemas })`
 * types each tool's `execute` from the generated types. Compiled with tsc --strict beside the weather
 * snapshot's output by ai-sdk.test.ts, then again with the tool's types loosened to any, when every tagged
 * directive must be unused.
 */
import type { MCPClient } from '@ai-sdk/mcp';
import type { InferToolInput, InferToolOutput } from 'ai';
import { toolSchemas } from './generated/tool-schemas.js';
import type * as T from './generated/tools.js';

type Equals<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

export async function typed(mcp: MCPClient): Promise<string> {
  const tools = await mcp.tools({ schemas: toolSchemas });
  const forecast = tools.forecast;
  const input: Equals<InferToolInput<typeof forecast>, T.ForecastArguments> = true;
  const output: Equals<InferToolOutput<typeof forecast>, T.ForecastStructuredContent> = true;
  const options = { toolCallId: 'call-1', messages: [] };
  await forecast.execute({ city: 'Porto', unit: 'celsius' }, options);
  // @ts-expect-error [wrong-input]
  await forecast.execute({ city: 3 }, options);
  const result = (await forecast.execute({ city: 'Porto' }, options)) as InferToolOutput<typeof forecast>;
  // @ts-expect-error [wrong-output]
  const wrong: string = result.temperature;
  return `${input} ${output} ${result.conditions} ${wrong}`;
}
