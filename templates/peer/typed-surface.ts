/**
 * The typed surface of one server (generated with `--tools <snapshot>`): on the client, one call per tool and
 * per prompt that checks the arguments before sending and a tool's `structuredContent` after; on the server,
 * the handlers of tools/list, tools/call, prompts/list, prompts/get and resources/templates/list answered from
 * the snapshot, each call checked and passed to the handler named after it. The generated tools.ts gives the
 * tables (compiled validators, the listed entries) and the types; this module is untyped glue.
 *
 * Resource templates: a typed read per template, its variables expanded into the URI per RFC 6570 by
 * url-template (zero dependencies, browser-safe), and on the server `resources/read` routed to the template's
 * handler.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe;
 * bundled only by code that imports tools.ts.
 */
import { ErrorCode, LocalError, ProtocolError, isPlainObject } from '../core/jsonrpc.js';
import type { HandlerContext, JsonObject, RequestOptions } from '../core/peer-types.js';
import { parseTemplate } from 'url-template';
import { namedProperty, type CompiledValidator } from './validation.js';

/** The validators of one tool: its arguments, and its structured result when it declares an outputSchema. */
export interface ToolCheck {
  readonly arguments: CompiledValidator;
  readonly structuredContent?: CompiledValidator;
}

/** The validators of a surface, by the name the server gives each tool and prompt. */
export interface SurfaceChecks {
  readonly tools: Readonly<Record<string, ToolCheck>>;
  readonly prompts: Readonly<Record<string, CompiledValidator>>;
}

/** The entries as the server listed them; a list the server does not offer (or the version lacks) is absent. */
export interface ListedSurface {
  readonly tools?: readonly JsonObject[];
  readonly prompts?: readonly JsonObject[];
  readonly resourceTemplates?: readonly JsonObject[];
}

/** Sends one request (`tools/call`, `prompts/get`) with the client. */
export type SurfaceSend = (method: string, params: JsonObject, options: RequestOptions | undefined) => Promise<unknown>;

/** Any handler fits (its arguments are the generated types): the runtime passes checked arguments on. */
type Handler = (args: never, ctx: never) => unknown;
type Call = (args?: JsonObject, options?: RequestOptions) => Promise<unknown>;

/** `/message must be string`: the first problem ajv found, at its JSON pointer; undefined when valid. */
function problemOf(validate: CompiledValidator, data: unknown): string | undefined {
  if (validate(data)) return undefined;
  const first = validate.errors?.[0];
  const at = first ? first.instancePath + namedProperty(first.params) : '';
  return `${at || '/'} ${first?.message ?? 'is invalid'}`;
}

function own<V>(table: Readonly<Record<string, V>> | undefined, name: unknown): V | undefined {
  return table !== undefined && typeof name === 'string' && Object.hasOwn(table, name) ? table[name] : undefined;
}

/**
 * The client's calls, one per tool (`Calls` is the generated type of the object). Bad arguments reject before
 * anything is sent (-32602, LocalError); a `structuredContent` that does not match the tool's outputSchema
 * rejects (-32603), as the `validateStructuredContent` option would.
 */
export function toolCallers<Calls>(send: SurfaceSend, checks: SurfaceChecks['tools']): Calls {
  const calls = Object.create(null) as Record<string, Call>;
  for (const [name, check] of Object.entries(checks)) {
    calls[name] = async (args = {}, options) => {
      refuseBadArguments(check.arguments, args, `tool ${name}`);
      const result = await send('tools/call', { name, arguments: args }, options);
      const problem = check.structuredContent && structuredContentProblem(check.structuredContent, result);
      if (problem) throw new ProtocolError(ErrorCode.InternalError, `tools/call ${name}: structuredContent ${problem}`);
      return result;
    };
  }
  return Object.freeze(calls) as Calls;
}

/** The client's calls, one per prompt (prompts/get), its arguments checked before sending. */
export function promptCallers<Calls>(send: SurfaceSend, checks: SurfaceChecks['prompts']): Calls {
  const calls = Object.create(null) as Record<string, Call>;
  for (const [name, validate] of Object.entries(checks)) {
    calls[name] = async (args = {}, options) => {
      refuseBadArguments(validate, args, `prompt ${name}`);
      return send('prompts/get', { name, arguments: args }, options);
    };
  }
  return Object.freeze(calls) as Calls;
}

/** A result without structured content passes only as an error (`isError`). */
function structuredContentProblem(validate: CompiledValidator, result: unknown): string | undefined {
  if (!isPlainObject(result)) return undefined;
  const content = result['structuredContent'];
  if (content !== undefined) return problemOf(validate, content);
  return result['isError'] === true ? undefined : 'missing (the tool declares an outputSchema)';
}

function refuseBadArguments(validate: CompiledValidator, args: unknown, what: string): void {
  const problem = problemOf(validate, args);
  if (problem !== undefined)
    throw new LocalError(ErrorCode.InvalidParams, `${what}: invalid arguments, ${problem} (not sent)`);
}

const toolError = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

/**
 * A handler's result whose `structuredContent` breaks the tool's outputSchema is never sent: the caller gets a
 * tool error naming the problem instead (a task, answered later, is passed on).
 */
async function checkedResult(validate: CompiledValidator, name: string, pending: unknown): Promise<unknown> {
  const result = await pending;
  if (isPlainObject(result) && result['task'] !== undefined) return result;
  const problem = structuredContentProblem(validate, result);
  return problem === undefined ? result : toolError(`tool ${name}: structuredContent ${problem} (not sent)`);
}

/** What the server implements: a handler per tool and per prompt, by name. */
export interface SurfaceImplementation {
  readonly tools: Readonly<Record<string, Handler>>;
  readonly prompts?: Readonly<Record<string, Handler>>;
  /** A handler per resource template, by template: given, `resources/read` is answered by them. */
  readonly resources?: Readonly<Record<string, Handler>>;
}

/**
 * The server's handlers of the surface (`Handlers` is the generated type). An unknown tool or prompt is a
 * protocol error (-32602); a tool's invalid arguments are a tool execution error (`isError: true`, the pointer
 * and the problem in its text), which the model can read and correct, as the 2025-11-25 tools page says; a
 * prompt's are -32602. A handler's `structuredContent` is checked against the tool's outputSchema before it is
 * sent.
 */
export function surfaceHandlers<Handlers>(
  listed: ListedSurface,
  checks: SurfaceChecks,
  implementation: SurfaceImplementation,
  templates?: TemplateVariableNames,
): Handlers {
  const handlers: Record<string, (params: JsonObject | undefined, ctx: HandlerContext) => unknown> = {
    'tools/call': (params, ctx) => {
      const name = params?.['name'];
      const check = own(checks.tools, name);
      const handler = own(implementation.tools, name);
      if (check === undefined || handler === undefined)
        throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${String(name)}`);
      const args = isPlainObject(params?.['arguments']) ? params['arguments'] : {};
      const problem = problemOf(check.arguments, args);
      if (problem !== undefined) return toolError(`Invalid arguments for tool ${String(name)}: ${problem}`);
      const result = handler(args as never, ctx as never);
      return check.structuredContent ? checkedResult(check.structuredContent, String(name), result) : result;
    },
  };
  if (listed.tools) handlers['tools/list'] = () => ({ tools: listed.tools });
  if (listed.prompts) {
    handlers['prompts/list'] = () => ({ prompts: listed.prompts });
    handlers['prompts/get'] = (params, ctx) => {
      const name = params?.['name'];
      const validate = own(checks.prompts, name);
      const handler = own(implementation.prompts, name);
      if (validate === undefined || handler === undefined)
        throw new ProtocolError(ErrorCode.InvalidParams, `Unknown prompt: ${String(name)}`);
      const args = isPlainObject(params?.['arguments']) ? params['arguments'] : {};
      const problem = problemOf(validate, args);
      if (problem !== undefined)
        throw new ProtocolError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${String(name)}: ${problem}`);
      return handler(args as never, ctx as never);
    };
  }
  if (listed.resourceTemplates) {
    handlers['resources/templates/list'] = () => ({ resourceTemplates: listed.resourceTemplates });
  }
  if (implementation.resources !== undefined && templates !== undefined)
    handlers['resources/read'] = templateReadHandler(templates, implementation.resources);
  return Object.freeze(handlers) as Handlers;
}

/**
 * How the server's tools differ from the snapshot: tools it lists that the snapshot lacks (`added`), tools of
 * the snapshot it no longer lists (`removed`), and tools listed differently (`changed`, with the members that
 * differ: `inputSchema`, `description`, … — every listed member but `_meta`).
 */
export interface ToolDrift<Name extends string = string> {
  readonly added: readonly string[];
  readonly removed: readonly Name[];
  readonly changed: readonly { readonly name: Name; readonly members: readonly string[] }[];
}

/** Receives each drift found after a `notifications/tools/list_changed` (or the error that prevented the check). */
export type DriftListener<Name extends string = string> = (drift: ToolDrift<Name>, error?: unknown) => void;

/** Every tool the server lists now, page after page (a cursor seen before ends the walk). */
async function currentTools(send: SurfaceSend, options: RequestOptions | undefined): Promise<JsonObject[]> {
  const tools: JsonObject[] = [];
  const seen = new Set<string>();
  let cursor: unknown;
  do {
    if (typeof cursor === 'string') seen.add(cursor);
    const page = await send('tools/list', typeof cursor === 'string' ? { cursor } : {}, options);
    const list = isPlainObject(page) && Array.isArray(page['tools']) ? page['tools'] : [];
    for (const tool of list) if (isPlainObject(tool)) tools.push(tool);
    cursor = isPlainObject(page) ? page['nextCursor'] : undefined;
  } while (typeof cursor === 'string' && !seen.has(cursor));
  return tools;
}

/** JSON with object keys sorted: two listings that differ only in key order are the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (!isPlainObject(value)) return JSON.stringify(value) ?? 'null';
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
}

/** The members of two listings of one tool that differ (`_meta` aside). */
function changedMembers(was: JsonObject, now: JsonObject): string[] {
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter((k) => k !== '_meta').sort();
  return keys.filter((k) => canonical(was[k]) !== canonical(now[k]));
}

/** The drift of the server's tools from the snapshot's. */
export function toolDrift<Name extends string>(
  snapshot: readonly JsonObject[],
  current: readonly JsonObject[],
): ToolDrift<Name> {
  const byName = (list: readonly JsonObject[]) => new Map(list.map((t) => [String(t['name']), t] as const));
  const was = byName(snapshot);
  const now = byName(current);
  const changed: { name: Name; members: string[] }[] = [];
  for (const [name, tool] of was) {
    const listed = now.get(name);
    const members = listed === undefined ? [] : changedMembers(tool, listed);
    if (members.length > 0) changed.push({ name: name as Name, members });
  }
  return {
    added: [...now.keys()].filter((name) => !was.has(name)).sort(),
    removed: [...was.keys()].filter((name) => !now.has(name)).sort() as Name[],
    changed,
  };
}

const drifted = (d: ToolDrift): boolean => d.added.length + d.removed.length + d.changed.length > 0;

/**
 * The typed client's drift watch: `check()` compares the server's tools with the snapshot on demand; `on(listener)`
 * checks again on every `notifications/tools/list_changed` and calls the listener when the tools drifted (the
 * client's own handler of that notification: setting another replaces it).
 */
export class DriftWatch<Name extends string = string> {
  readonly #snapshot: readonly JsonObject[];
  readonly #send: SurfaceSend;
  readonly #subscribe: ((handler: () => Promise<void>) => void) | undefined;
  readonly #listeners = new Set<DriftListener<Name>>();

  constructor(snapshot: readonly JsonObject[], send: SurfaceSend, subscribe?: (handler: () => Promise<void>) => void) {
    this.#snapshot = snapshot;
    this.#send = send;
    this.#subscribe = subscribe;
  }

  /** The server's tools (tools/list, every page) compared with the snapshot. */
  async check(options?: RequestOptions): Promise<ToolDrift<Name>> {
    return toolDrift<Name>(this.#snapshot, await currentTools(this.#send, options));
  }

  /** Calls `listener` with each drift found after the server says its tools changed; returns a function that stops it. */
  on(listener: DriftListener<Name>): () => void {
    if (this.#subscribe === undefined) throw new LocalError(ErrorCode.InternalError, 'drift.on: no notifications here');
    if (this.#listeners.size === 0) this.#subscribe(() => this.#recheck());
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  async #recheck(): Promise<void> {
    let drift: ToolDrift<Name>;
    try {
      drift = await this.check();
    } catch (error) {
      for (const listener of this.#listeners) listener({ added: [], removed: [], changed: [] }, error);
      return;
    }
    if (drifted(drift)) for (const listener of this.#listeners) listener(drift);
  }
}

/** The URI variables of each resource template, by template (the generated table). */
export type TemplateVariableNames = Readonly<Record<string, readonly string[]>>;

/**
 * The client's reads, one per resource template (`Reads` is the generated type): the variables expanded into
 * the URI per RFC 6570, then `resources/read`.
 */
export function templateReaders<Reads>(send: SurfaceSend, templates: TemplateVariableNames): Reads {
  const reads = Object.create(null) as Record<string, (variables?: JsonObject, options?: RequestOptions) => unknown>;
  for (const template of Object.keys(templates)) {
    const parsed = parseTemplate(template);
    reads[template] = (variables = {}, options) =>
      send('resources/read', { uri: parsed.expand(variables as Record<string, string>) }, options);
  }
  return Object.freeze(reads) as Reads;
}

/** Marks no expansion encodes (unreserved characters only), one per variable and one per query expression. */
const mark = (i: number) => `mcptypegen${i}mark`;
const queryMark = (i: number) => `mcptypegenq${i}mark`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A query expression (`{?q,page}`, `{&q}`) and its variable names, without modifiers. */
const QUERY_EXPRESSION = /\{[?&]([^}]*)\}/g;
const variableNames = (list: string) => list.split(',').map((raw) => raw.replace(/\*$|:\d+$/, '').trim());

/** `name=value` pairs of the query text an expansion wrote (`?q=x&page=2`), decoded; the first of a name wins. */
function queryPairs(text: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const pair of text.split(/[?&]/)) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = decodeURIComponent(at === -1 ? pair : pair.slice(0, at));
    if (!pairs.has(name)) pairs.set(name, at === -1 ? '' : decodeURIComponent(pair.slice(at + 1)));
  }
  return pairs;
}

/**
 * Reads a URI's variables back by the template. The template, its query expressions set aside, is expanded by
 * url-template with a mark per variable, so the literal text, the operators' prefixes and separators are the
 * library's; a variable whose expansion keeps a `/` (`{+path}`, `{#frag}`) may span segments, and every such
 * variable must be present. A query expression's variables (`{?q,page}`, `{&q}`) are optional, as RFC 6570
 * expands an undefined one to nothing: read from the URI's `name=value` pairs, in any order, absent when
 * omitted.
 */
export function templateMatcher(
  template: string,
  names: readonly string[],
): (uri: string) => Record<string, string> | undefined {
  const queryNames = new Set([...template.matchAll(QUERY_EXPRESSION)].flatMap((m) => variableNames(m[1] ?? '')));
  const pathNames = names.filter((name) => !queryNames.has(name));
  let queries = 0;
  const parsed = parseTemplate(template.replace(QUERY_EXPRESSION, () => queryMark(queries++)));
  const marks = Object.fromEntries(pathNames.map((name, i) => [name, mark(i)]));
  const keepsSlash = pathNames.map((name) => parsed.expand({ ...marks, [name]: 'a/b' }).includes('a/b'));
  const expanded = escapeRegExp(parsed.expand(marks));
  // The capture groups in the order their marks stand in the URI: a path variable's, or a query expression's.
  const groups = [
    ...pathNames.map((name, i) => ({ text: mark(i), name, slash: keepsSlash[i] === true })),
    ...Array.from({ length: queries }, (_, i) => ({ text: queryMark(i), name: undefined, slash: false })),
  ].sort((a, b) => expanded.indexOf(a.text) - expanded.indexOf(b.text));
  let pattern = expanded;
  for (const group of groups) {
    const capture = group.name === undefined ? '((?:[?&][^#]*)?)' : group.slash ? '([^?#]*?)' : '([^/?#&,;=]*)';
    pattern = pattern.replace(group.text, capture);
  }
  const regex = new RegExp(`^${pattern}$`);
  return (uri) => {
    const found = regex.exec(uri);
    if (found === null) return undefined;
    try {
      const entries: [string, string][] = [];
      const query: string[] = [];
      groups.forEach((group, i) => {
        const text = found[i + 1] ?? '';
        if (group.name === undefined) query.push(text);
        else entries.push([group.name, decodeURIComponent(text)]);
      });
      const pairs = queryPairs(query.join('&'));
      for (const name of names)
        if (queryNames.has(name) && pairs.has(name)) entries.push([name, pairs.get(name) ?? '']);
      // Object.fromEntries: own members whatever the names (`__proto__` too).
      return Object.fromEntries(entries);
    } catch {
      return undefined;
    }
  };
}

/** `resources/read` routed to the handler of the first template (in name order) the URI matches; else -32002. */
export function templateReadHandler(
  templates: TemplateVariableNames,
  handlers: Readonly<Record<string, Handler>>,
): (params: JsonObject | undefined, ctx: HandlerContext) => unknown {
  const routes = Object.keys(templates).flatMap((template) => {
    const handler = own(handlers, template);
    return handler === undefined ? [] : [{ match: templateMatcher(template, templates[template] ?? []), handler }];
  });
  return (params, ctx) => {
    const uri = typeof params?.['uri'] === 'string' ? params['uri'] : '';
    for (const { match, handler } of routes) {
      const variables = match(uri);
      if (variables !== undefined) return handler(variables as never, ctx as never);
    }
    throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
  };
}

/** MCP's "resource not found" (the spec's resources page). */
const RESOURCE_NOT_FOUND = -32002;
