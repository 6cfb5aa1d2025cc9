/**
 * What an MCP client remembers about the tools a server listed: the `x-mcp-header` rules of each tool (its
 * arguments mirrored into `Mcp-Param-*` headers on Streamable HTTP from 2026-07-28 on). The `outputSchema`s
 * are kept by the `validateStructuredContent` option (structured-content.ts) when it is given.
 *
 * Hand-written runtime copied unchanged into generated output. No dependencies.
 */
import { isPlainObject } from '../core/jsonrpc.js';
import type { MetadataHeaders, ParamHeaderRule } from './http-headers.js';
import type { RequestOptions } from '../core/peer.js';

type JsonObject = { [key: string]: unknown };

export class ListedTools {
  /** Which arguments each tool mirrors into `Mcp-Param-*` headers. */
  readonly #headerRules = new Map<string, readonly ParamHeaderRule[]>();

  /**
   * Remembers each listed tool's `x-mcp-header` rules and leaves out tools whose annotations are invalid
   * (the transport requires it: one malformed tool must not break the others); `report` hears why.
   */
  screen(result: unknown, headers: MetadataHeaders, report: (message: string) => void): unknown {
    if (!isPlainObject(result) || !Array.isArray(result['tools'])) return result;
    const kept: unknown[] = [];
    for (const tool of result['tools']) {
      if (!isPlainObject(tool) || typeof tool['name'] !== 'string') continue;
      const rules = headers.toolRules(tool['inputSchema']);
      if (!rules.ok) {
        report(`Tool ${JSON.stringify(tool['name'])} left out: ${rules.reason}`);
        continue;
      }
      this.#headerRules.set(tool['name'], rules.rules);
      kept.push(tool);
    }
    return { ...result, tools: kept };
  }

  /** The request options of a tools/call, with the `Mcp-Param-*` headers its tool asks for. */
  withParamHeaders(
    params: JsonObject | undefined,
    options: RequestOptions | undefined,
    headers: MetadataHeaders,
  ): RequestOptions | undefined {
    const name = params?.['name'];
    const rules = typeof name === 'string' ? this.#headerRules.get(name) : undefined;
    if (rules === undefined || rules.length === 0) return options;
    return { ...options, headers: { ...options?.headers, ...headers.toolHeaders(rules, params?.['arguments']) } };
  }
}
