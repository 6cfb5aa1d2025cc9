/**
 * Checking messages with the generated validators (validators.ts), shared by the server (params it
 * receives, results its handlers return) and the client (requests and notifications the server sends,
 * results when asked). Browser-safe and dependency-free: the validators are compiled at generation time.
 */
import type { ParamsIssue } from '../core/peer.js';

type JsonObject = { [key: string]: unknown };

/** A compiled validator as emitted in validators.ts. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: null | { instancePath: string; keyword: string; params: Record<string, unknown>; message?: string }[];
}

/** What validators.ts exports that the runtime reads (`import * as validators from '../validators.js'`). */
export interface Validators {
  /** Params validators by method. */
  readonly paramsValidators: Readonly<Record<string, CompiledValidator>>;
  /** Result validators by definition name. */
  readonly resultValidators: Readonly<Record<string, CompiledValidator>>;
  /** Method → the result definitions it may answer with. */
  readonly resultsByMethod?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The first problem with a message's params, or null when they are valid (or nothing validates them).
 * Absent params pass where the schema allows them (`required` false); elsewhere they fail as `{}` would.
 */
export function paramsIssue(
  validators: Validators,
  method: string,
  params: JsonObject | undefined,
  required: boolean,
): ParamsIssue | null {
  const validate = Object.hasOwn(validators.paramsValidators, method) ? validators.paramsValidators[method] : undefined;
  if (!validate) return null;
  if (params === undefined) {
    if (!required || validate({})) return null;
  } else if (validate(params)) return null;
  const first = validate.errors?.[0];
  const pointer = first ? first.instancePath + namedProperty(first.params) : '';
  return { pointer, message: first?.message ?? 'invalid', keyword: first?.keyword };
}

/** Undefined when the result matches one of the definitions named, else what is wrong with it. */
export function resultIssue(validators: Validators, results: readonly string[], result: unknown): string | undefined {
  if (results.length === 0) return undefined;
  const failures: string[] = [];
  for (const name of results) {
    const validate = Object.hasOwn(validators.resultValidators, name) ? validators.resultValidators[name] : undefined;
    if (!validate || validate(result)) return undefined;
    const first = validate.errors?.[0];
    const at = first ? first.instancePath + namedProperty(first.params) : '';
    failures.push(`${name}: ${at || '/'} ${first?.message ?? 'invalid'}`);
  }
  return failures.join('; ');
}

/** ajv reports a missing or an additional property at its parent; point at the property itself. */
export function namedProperty(params: Record<string, unknown>): string {
  const name = params['missingProperty'] ?? params['additionalProperty'];
  return typeof name === 'string' ? `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}` : '';
}

/** Checks a client runs on what it receives (`McpClientOptions.validate`). */
export interface MessageChecker {
  /** The first problem with a request's or notification's params, or null. */
  params(method: string, params: JsonObject | undefined): ParamsIssue | null;
  /** What is wrong with a method's result, or undefined. */
  result(method: string, result: unknown): string | undefined;
}

/**
 * The checker a client takes (`validate: checkWith(validators)`): a separate function, so a client that
 * checks nothing bundles none of this.
 */
export function checkWith(validators: Validators): MessageChecker {
  return {
    params: (method, params) => paramsIssue(validators, method, params, true),
    result: (method, result) => resultIssue(validators, validators.resultsByMethod?.[method] ?? [], result),
  };
}

/**
 * Makes a generated client check the params of the vendor methods the server may send (`params`, by method)
 * before their handler, whatever its `validate` option says: nothing else stands between an extension's message
 * and a handler typed from the extension's schema. The MCP methods stay with `validate` (opt-in, for bundle
 * size), which still checks everything else.
 */
export function checkVendorParams(
  peer: {
    validateParams?: ((method: string, params: JsonObject | undefined) => ParamsIssue | null | undefined) | undefined;
  },
  params: Readonly<Record<string, CompiledValidator>>,
  required: readonly string[],
): void {
  const validators = { paramsValidators: params, resultValidators: {} };
  const others = peer.validateParams;
  peer.validateParams = (method, received) =>
    Object.hasOwn(params, method)
      ? paramsIssue(validators, method, received, required.includes(method))
      : others?.(method, received);
}
