/**
 * Bad extension files beyond the name rules: meta-schema errors, invalid JSON, duplicate keys, hostile
 * nesting, `$ref` cycles, cross-file refs and augmentations that do not fit the target. Each row: the
 * `--ext` values, the file the error names, its JSON pointer (undefined: none applies), the exact
 * reason, and the target version. cli-exit.test.ts runs every row through the CLI.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FIXTURES, ROOT } from './helpers.js';

export interface BadCase {
  name: string;
  /** Absolute paths of the extension files, in `--ext` order. */
  files: string[];
  /** The file the error line names (absolute). */
  file: string;
  pointer: string | undefined;
  reason: string;
  spec: string;
}

const B = resolve(ROOT, FIXTURES, 'bad');
const L = resolve(ROOT, FIXTURES, 'load');

function fixture(
  name: string,
  pointer: string | undefined,
  reason: string,
  spec = '2026-07-28',
  also: string[] = [],
): BadCase {
  const file = join(B, name);
  return { name, files: [file, ...also.map((f) => join(B, f))], file, pointer, reason, spec };
}

function load(name: string, pointer: string | undefined, reason: string): BadCase {
  const file = join(L, name);
  return { name: `load/${name}`, files: [file], file, pointer, reason, spec: '2025-11-25' };
}

/** Files written at test time (texts too odd or too large to check in), in a fresh temp dir. */
function written(): BadCase[] {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-typegen-bad-ext-'));
  mkdirSync(dir, { recursive: true });
  const head = '{"extension": "com.acme/x", "description": "d", ';
  const cases: [name: string, text: string, pointer: string | undefined, reason: string][] = [
    [
      'syntax-bare-word.json',
      '{\n  "extension": "acme/x",\n  "description": nope\n}',
      undefined,
      'invalid JSON at line 3, column 19: unexpected character "o"',
    ],
    [
      'syntax-array-trailing-comma.json',
      '{"a": [1, 2,]}',
      undefined,
      'invalid JSON at line 1, column 13: trailing comma',
    ],
    [
      'syntax-control-character.json',
      '{"a": "x\ny"}',
      undefined,
      'invalid JSON at line 1, column 9: control character in string',
    ],
    ['syntax-bad-escape.json', '{"a": "\\q"}', undefined, 'invalid JSON at line 1, column 9: invalid escape'],
    ['syntax-leading-zero.json', '{"a": 01}', undefined, 'invalid JSON at line 1, column 8: unexpected character "1"'],
    [
      'syntax-trailing-text.json',
      '{"a": 1} x',
      undefined,
      'invalid JSON at line 1, column 10: unexpected character "x"',
    ],
    ['syntax-single-quotes.json', "{'a': 1}", undefined, 'invalid JSON at line 1, column 2: unexpected character "\'"'],
    [
      'syntax-crlf.json',
      '\r\n\r\n  {"a": tru}',
      undefined,
      'invalid JSON at line 3, column 12: unexpected character "}"',
    ],
    ['syntax-empty.json', '', undefined, 'invalid JSON at line 1, column 1: unexpected end of input'],
    [
      'duplicate-top-level.json',
      '{"extension": "com.acme/x",\n "description": "d",\n "extension": "com.acme/y"}',
      '/extension',
      'duplicate key "extension" at line 3, column 2 (JSON.parse would silently keep the last one)',
    ],
    [
      'duplicate-method.json',
      `${head}"methods": {"com.acme/x.a": {"kind": "notification", "direction": "both"}, "com.acme/x.a": {"kind": "notification", "direction": "both"}}}`,
      '/methods/com.acme~1x.a',
      'duplicate key "com.acme/x.a" at line 1, column 124 (JSON.parse would silently keep the last one)',
    ],
    [
      'duplicate-definition.json',
      `${head}"definitions": {"AcmeA": {"type": "string"}, "AcmeB": {}, "AcmeA": {"type": "number"}}}`,
      '/definitions/AcmeA',
      'duplicate key "AcmeA" at line 1, column 107 (JSON.parse would silently keep the last one)',
    ],
    [
      'duplicate-in-array-item.json',
      `${head}"definitions": {"AcmeA": {"anyOf": [{"type": "string"}, {"type": "number", "type": "string"}]}}}`,
      '/definitions/AcmeA/anyOf/1/type',
      'duplicate key "type" at line 1, column 124 (JSON.parse would silently keep the last one)',
    ],
    [
      'duplicate-escaped-key.json',
      `${head}"definitions": {"AcmeA": {"properties": {"a/b": {}, "a\\/b": {}}}}}`,
      '/definitions/AcmeA/properties/a~1b',
      'duplicate key "a/b" at line 1, column 101 (JSON.parse would silently keep the last one)',
    ],
    [
      'channel-handshake-not-declared.json',
      `${head}"channel": {"client": "view", "server": "host", "handshake": "com.acme/x.open"}}`,
      '/channel/handshake',
      '"com.acme/x.open" is not a client->server request of this extension',
    ],
    [
      'channel-initialized-is-a-request.json',
      `${head}"methods": {"com.acme/x.open": {"kind": "request", "direction": "client->server", "result": {"type": "object"}}}, "channel": {"client": "view", "server": "host", "handshake": "com.acme/x.open", "initialized": "com.acme/x.open"}}`,
      '/channel/initialized',
      '"com.acme/x.open" is not a client->server notification of this extension',
    ],
    [
      'channel-same-ends.json',
      `${head}"methods": {"com.acme/x.open": {"kind": "request", "direction": "client->server", "result": {"type": "object"}}}, "channel": {"client": "view", "server": "view", "handshake": "com.acme/x.open"}}`,
      '/channel/server',
      'the two ends of the channel need different names',
    ],
    [
      'channel-carries-own-method.json',
      `${head}"methods": {"com.acme/x.open": {"kind": "request", "direction": "client->server", "result": {"type": "object"}}}, "channel": {"client": "view", "server": "host", "handshake": "com.acme/x.open", "mcpMethods": ["ping", "com.acme/x.open"]}}`,
      '/channel/mcpMethods/1',
      '"com.acme/x.open" is a method of this extension',
    ],
    [
      'deep-20000.json',
      `${head}"definitions": {"AcmeDeep": ${'{"not": '.repeat(20_000)}{}${'}'.repeat(20_000)}}}`,
      `/definitions/AcmeDeep${'/not'.repeat(198)}`,
      'nested deeper than 200 levels',
    ],
    [
      'deep-arrays.json',
      `${head}"definitions": {"AcmeDeep": {"enum": [${'['.repeat(300)}${']'.repeat(300)}]}}}`,
      `/definitions/AcmeDeep/enum${'/0'.repeat(197)}`,
      'nested deeper than 200 levels',
    ],
  ];
  return cases.map(([name, text, pointer, reason]) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return { name, files: [file], file, pointer, reason, spec: '2025-11-25' };
  });
}

const TASK_RESULT_REF = '/augment/results/tools~1call/0';

export function badCases(): BadCase[] {
  return [
    // meta-schema errors: the first one, at its pointer; an unknown property at its own pointer, named
    load('missing-extension.json', '', 'missing required property "extension"'),
    load('unknown-property.json', '/method', 'unknown property "method": did you mean "methods"?'),
    load('method-unknown-property.json', '/methods/acme~1jobs.start/response', 'unknown property "response"'),
    load('bad-kind.json', '/methods/acme~1jobs.start/kind', 'must be one of "request", "notification"'),
    load(
      'bad-direction.json',
      '/methods/acme~1jobs.start/direction',
      'must be one of "client->server", "server->client", "both", "input"',
    ),
    load('request-without-result.json', '/methods/acme~1jobs.start', 'missing required property "result"'),
    load('notification-with-result.json', '/methods/acme~1jobs.done/result', 'a notification has no result'),
    load('params-required-without-params.json', '/methods/acme~1jobs.ping', '"paramsRequired" requires "params"'),
    load(
      'name-from-not-a-param.json',
      '/methods/acme~1jobs.get/nameFrom',
      '"jobId" is not a property of the params of acme/jobs.get',
    ),
    load('params-not-object.json', '/methods/acme~1jobs.start/params', 'must be a JSON Schema object'),
    load(
      'bad-nested-schema.json',
      '/methods/acme~1jobs.start/params/properties/n/type',
      'must be one of "array", "boolean", "integer", "null", "number", "object", "string"',
    ),
    load('settings-not-object.json', '/settings/type', 'settings must be an object schema ("type": "object")'),
    load('bad-target.json', '/targets/1', 'must match pattern "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"'),
    load('invalid-json-trailing-comma.json', undefined, 'invalid JSON at line 4, column 1: trailing comma'),
    load('invalid-json-truncated.json', undefined, 'invalid JSON at line 4, column 1: unexpected end of input'),
    load('does-not-exist.json', undefined, 'extension file not found'),
    // invalid JSON, duplicate keys, nesting
    ...written(),
    // $ref cycles (recursion only through properties/items is fine)
    fixture(
      'cycle-self.json',
      '/definitions/AcmeA/$ref',
      '"$ref" cycle AcmeA → AcmeA: a definition cannot be only itself (recursion must go through a property or an array item)',
    ),
    fixture(
      'cycle-two.json',
      '/definitions/AcmeB/$ref',
      '"$ref" cycle AcmeA → AcmeB → AcmeA: a definition cannot be only itself (recursion must go through a property or an array item)',
    ),
    fixture(
      'cycle-anyof.json',
      '/definitions/AcmeA/anyOf/1/$ref',
      '"$ref" cycle AcmeA → AcmeA: a definition cannot be only itself (recursion must go through a property or an array item)',
    ),
    fixture(
      'cycle-allof-method.json',
      '/definitions/AcmeB/oneOf/0/$ref',
      '"$ref" cycle AcmeA → AcmeB → AcmeA: a definition cannot be only itself (recursion must go through a property or an array item)',
    ),
    {
      ...fixture(
        'cycle-cross-a.json',
        '/definitions/AcmeB/$ref',
        '"$ref" cycle AcmeA → AcmeB → AcmeA: a definition cannot be only itself (recursion must go through a property or an array item)',
      ),
      file: join(B, 'cycle-cross-b.json'),
    },
    // cross-file refs
    fixture(
      'cross-file-missing-definition.json',
      '/definitions/AcmeA/$ref',
      `"../augment/shared.extension.json#/definitions/Nope" does not resolve: no definition "Nope" in ${resolve(B, '../augment/shared.extension.json')}`,
    ),
    // Reported where the $ref is: the referring file and pointer, then the file that is missing.
    fixture(
      'cross-file-missing-file.json',
      '/definitions/AcmeA/$ref',
      `$ref names "nowhere.extension.json": extension file not found (${join(B, 'nowhere.extension.json')})`,
    ),
    fixture(
      'cross-file-not-enabled.json',
      '/definitions/AcmeA/$ref',
      `"cross-file-old-shared.json#/definitions/AcmeOld" refers to ${join(B, 'cross-file-old-shared.json')}, which is not an extension enabled for MCP 2026-07-28`,
    ),
    // augmentations that do not fit the target
    fixture(
      'augment-unknown-method.json',
      '/augment/results/tools~1frobnicate/0',
      'no MCP method "tools/frobnicate" in MCP 2026-07-28 to add a result to',
    ),
    fixture(
      'augment-notification.json',
      '/augment/results/notifications~1progress/0',
      '"notifications/progress" is a notification: it has no result',
    ),
    fixture(
      'augment-no-const.json',
      `${TASK_RESULT_REF}/discriminant`,
      'AcmeTaskResult must declare resultType with "const": "task" (the discriminant of this variant)',
    ),
    fixture(
      'augment-wrong-const.json',
      `${TASK_RESULT_REF}/discriminant`,
      'AcmeTaskResult must declare resultType with "const": "job" (the discriminant of this variant)',
    ),
    fixture(
      'augment-same-discriminant.json',
      '/augment/results/tools~1call/1/discriminant',
      '"tools/call" already has a result with resultType "task" (AcmeTaskResult)',
    ),
    fixture(
      'augment-bad-ref.json',
      `${TASK_RESULT_REF}/$ref`,
      '"#/definitions/Missing" does not resolve: no definition "Missing" in this file',
    ),
    fixture('augment-missing-discriminant.json', TASK_RESULT_REF, 'missing required property "discriminant"'),
    fixture(
      'augment-two-discriminants.json',
      `${TASK_RESULT_REF}/discriminant`,
      'must NOT have more than 1 properties',
    ),
    fixture('augment-unknown-section.json', '/augment/methods', 'unknown property "methods"'),
    fixture(
      'augment-property-unknown-definition.json',
      '/augment/properties/NoSuchDefinition/acme',
      'no definition "NoSuchDefinition" in MCP 2026-07-28 to add properties to',
    ),
    fixture(
      'augment-property-exists.json',
      '/augment/properties/SubscriptionFilter/toolsListChanged',
      '"SubscriptionFilter" in MCP 2026-07-28 already has a property "toolsListChanged"',
    ),
    fixture(
      'augment-property-no-properties.json',
      '/augment/properties/ResultType/acme',
      '"ResultType" in MCP 2026-07-28 declares no properties to add to',
    ),
    fixture(
      'augment-property-not-schema.json',
      '/augment/properties/SubscriptionFilter/acme',
      'must be a JSON Schema object',
    ),
    fixture(
      'augment-property-empty.json',
      '/augment/properties/SubscriptionFilter',
      'must NOT have fewer than 1 properties',
    ),
    fixture(
      'augment-meta-no-meta.json',
      '/augment/meta/SubscriptionFilter/acme',
      'no definition "SubscriptionFilter" with a _meta property in MCP 2026-07-28',
    ),
    fixture(
      'augment-meta-unknown-definition.json',
      '/augment/meta/NoSuchDefinition/acme',
      'no definition "NoSuchDefinition" with a _meta property in MCP 2026-07-28',
    ),
    {
      ...fixture(
        'augment-meta-a.json',
        '/augment/meta/Tool/acme',
        '"Tool._meta" already has a key "acme"',
        '2026-07-28',
        ['augment-meta-b.json'],
      ),
      file: join(B, 'augment-meta-b.json'),
    },
    fixture(
      'augment-ref-mcp-unknown.json',
      '/augment/properties/SubscriptionFilter/acme/$ref',
      '"mcp:NoSuchThing" refers to "NoSuchThing", which is not an MCP definition in 2026-07-28',
    ),
    // input requests, odd definition names
    fixture(
      'input-notification.json',
      '/methods/com.acme~1x.asked/direction',
      'direction "input" is for requests only',
    ),
    // namespaces an official extension owns (issue 35, item 5)
    fixture(
      'namespaces-not-official.json',
      '/namespaces',
      '"namespaces" is for official MCP extensions ("official": true); a vendor names its methods under its own prefix',
    ),
    fixture(
      'namespaces-outside-mcp.json',
      '/namespaces/0',
      '"widgets/things/" is not inside one of MCP\'s namespaces: a method there needs no declaration',
    ),
    fixture(
      'namespaces-undeclared.json',
      '/methods/resources~1directory~1read',
      'method "resources/directory/read" is in the namespace "resources/", which MCP 2026-07-28 defines',
    ),
    fixture(
      'namespaces-taken.json',
      '/methods/resources~1templates~1read',
      'method "resources/templates/read" is in "resources/templates/", where MCP 2026-07-28 defines "resources/templates/list" itself',
    ),
    // per-version rules (issue 35, item 4)
    fixture(
      'server-request-on-2026.json',
      '/methods/com.acme~1x.ask/direction',
      'MCP 2026-07-28 has no server->client requests (a server answers requests, it sends none)',
    ),
    fixture(
      'server-request-both-on-2026.json',
      '/methods/com.acme~1x.ping/direction',
      'MCP 2026-07-28 has no server->client requests (a server answers requests, it sends none)',
    ),
    fixture(
      'params-array.json',
      '/methods/com.acme~1x.add/params',
      'the params of com.acme/x.add are "array", not an object',
      '2025-11-25',
    ),
    // issue 46: what was accepted and then ignored or overridden
    fixture(
      'cacheable-notification.json',
      '/methods/com.acme~1x.changed/cacheable',
      '"cacheable" is for requests: com.acme/x.changed is a notification, which has no result to cache',
      '2025-11-25',
    ),
    fixture(
      'mandatory-server-request.json',
      '/methods/com.acme~1x.ask/mandatory',
      '"mandatory" is for client->server requests: com.acme/x.ask is a server->client request',
      '2025-11-25',
    ),
    fixture(
      'setting-not-boolean.json',
      '/methods/com.acme~1x.list/setting',
      '"listing" is not a boolean property of this extension\'s settings',
      '2025-11-25',
    ),
    fixture(
      'settings-unsatisfiable.json',
      '/settings/required',
      'no settings can satisfy this schema: "mode" is required and "additionalProperties": false leaves it out',
      '2025-11-25',
    ),
    fixture(
      'settings-required-false.json',
      '/settings/properties/mode',
      'no settings can satisfy this schema: the required "mode" accepts no value',
      '2025-11-25',
    ),
    fixture(
      'cacheable-own-cache-scope.json',
      '/methods/com.acme~1x.list/result/properties/cacheScope',
      'the result of com.acme/x.list declares cacheScope: in MCP 2026-07-28 a "cacheable" result\'s cacheScope and ttlMs are the protocol\'s (CacheableResult), which the runtime fills in',
    ),
    fixture(
      'result-type-integer.json',
      '/methods/com.acme~1x.count/result/properties/resultType',
      'the result of com.acme/x.count declares resultType as "integer": in MCP 2026-07-28 resultType is the protocol\'s string ("complete", "input_required", "task")',
    ),
    // issue 46: params that may be something else than an object
    fixture(
      'params-object-or-array.json',
      '/methods/com.acme~1x.add/params',
      'the params of com.acme/x.add may be "array" (anyOf[1]): params are an object, never anything else',
      '2025-11-25',
    ),
    fixture(
      'params-object-or-null.json',
      '/methods/com.acme~1x.add/params',
      'the params of com.acme/x.add may be "object" or "null": params are an object, never anything else',
      '2025-11-25',
    ),
    fixture(
      'params-string-through-ref.json',
      '/methods/com.acme~1x.said/params',
      'the params of com.acme/x.said are "string" or "null" (through #/definitions/AcmeText), not an object',
    ),
    fixture(
      'augment-meta-retypes-core.json',
      '/augment/meta/CallToolRequestParams/progressToken',
      '"CallToolRequestParams._meta" in MCP 2025-11-25 already declares "progressToken": an extension adds keys, it does not retype MCP\'s',
      '2025-11-25',
    ),
    fixture(
      'augment-meta-retypes-core-ref.json',
      '/augment/meta/CallToolRequestParams/io.modelcontextprotocol~1protocolVersion',
      '"CallToolRequestParams._meta" in MCP 2026-07-28 already declares "io.modelcontextprotocol/protocolVersion": an extension adds keys, it does not retype MCP\'s',
    ),
    fixture(
      'input-on-2025.json',
      '/methods/com.acme~1x.ask/direction',
      'direction "input" needs input requests (InputRequiredResult), which MCP 2025-11-25 does not have',
      '2025-11-25',
    ),
    fixture(
      'settings-proto-key.json',
      '/definitions/constructor',
      'definition name "constructor" is not a PascalCase identifier, which generated names must be (rename it "Constructor")',
    ),
  ];
}
