/**
 * Checking a tools/call result's `structuredContent` against the `outputSchema` its tool was listed with: the
 * client's `validateStructuredContent` option, made by `checkStructuredContentWith(validate)`. The runtime
 * compiles no schemas, so `validate` is the caller's (e.g. built on ajv). A function to import, like
 * `checkWith`, so that a client without the option bundles none of this.
 *
 * Hand-written runtime copied unchanged into generated output. No
 * dependencies.
 */
import { ErrorCode, ProtocolError, isPlainObject } from '../core/jsonrpc.js';

type JsonObject = { [key: string]: unknown };

/** Checks `structuredContent` against a tool's `outputSchema`: what is wrong, or undefined. */
export type OutputSchemaValidator = (outputSchema: JsonObject, structuredContent: unknown) => string | undefined;

/** What the client tells the check (`McpClientOptions.validateStructuredContent`). */
export interface StructuredContentCheck {
  /** A tools/list result: each tool's `outputSchema` is kept. */
  listed(result: unknown): void;
  /** A tools/call result: throws when its `structuredContent` does not match its tool's `outputSchema`. */
  called(params: JsonObject | undefined, result: unknown): void;
}

/**
 * The check for one client (it remembers the tools that client listed): a result without structured content
 * fails too, unless it is an error (`isError`); a tool never listed, or listed without an `outputSchema`, is
 * not checked.
 */
export function checkStructuredContentWith(validate: OutputSchemaValidator): StructuredContentCheck {
  const outputSchemas = new Map<string, JsonObject>();
  return {
    listed(result) {
      if (!isPlainObject(result) || !Array.isArray(result['tools'])) return;
      for (const tool of result['tools']) {
        if (isPlainObject(tool) && typeof tool['name'] === 'string' && isPlainObject(tool['outputSchema'])) {
          outputSchemas.set(tool['name'], tool['outputSchema']);
        }
      }
    },
    called(params, result) {
      const name = params?.['name'];
      const schema = typeof name === 'string' ? outputSchemas.get(name) : undefined;
      if (schema === undefined || !isPlainObject(result)) return;
      const problem =
        result['structuredContent'] === undefined
          ? result['isError'] === true
            ? undefined
            : 'missing (the tool declares an outputSchema)'
          : validate(schema, result['structuredContent']);
      if (problem !== undefined) {
        throw new ProtocolError(ErrorCode.InternalError, `tools/call ${String(name)}: structuredContent ${problem}`);
      }
    },
  };
}
