/**
 * A corpus of invalid (and borderline) frames with the answer each transport must give, written from
 * JSON-RPC 2.0 §4–§6 (request, notification, response objects), its §7 examples, and the MCP rules on top
 * (ids are strings or integers, never null; params are objects; batches only in 2025-03-26).
 *
 * Order of checks, the same on every transport (see templates/core/frame.ts):
 *   1. size    a text over maxFrameSize → -32600 (id only when it leads the text), not parsed;
 *   2. parse   not JSON → -32700 id null; then the JSON-RPC shape → -32600 (id when it can be read exactly);
 *   3. headers HTTP only: MCP-Protocol-Version, Mcp-Method, Mcp-Name (2026-07-28: -32020, 400);
 *   4. version HTTP: the header against the supported / negotiated version (-32022 in 2026-07-28);
 *   5. method  unknown → -32601 (HTTP 2026-07-28: status 404).
 * HTTP answers an invalid frame with status 400 and the same JSON-RPC error the engine gives elsewhere;
 * a well-formed notification or a response is accepted with 202 and no body (2026-07-28: a response is
 * refused with 400, clients must not send them).
 *
 * The server behind every transport answers `ping` and `initialize` and nothing else.
 *
 * The JSON-RPC answer (code and id) is the same on every transport; what each transport adds of its own:
 *
 * | case                                   | in-memory, stdio, WebSocket, HTTP+SSE stream | Streamable HTTP (2025)  | Streamable HTTP (2026-07-28) |
 * | -------------------------------------- | -------------------------------------------- | ----------------------- | ---------------------------- |
 * | a request answered (result or error)   | the answer                                   | 200 (JSON or SSE)       | 200; -32601 → 404            |
 * | a frame refused (-32700, -32600)       | the answer                                   | 400                     | 400                          |
 * | a notification, a response             | nothing                                      | 202                     | 202; a response → 400 -32600 |
 * | a batch (2025-03-26)                   | the array                                    | 200; none valid → 400   | — (refused, 400)             |
 * | headers vs body, unsupported version   | —                                            | 400 (-32000)            | 400 (-32020, -32022)         |
 * | request without its `_meta` version    | -32602                                       | —                       | 400 -32602 (generated server)|
 * | frame over the size limit              | -32600 with the leading id, else nothing     | 413 (-32000), unread    | 413 (-32000), unread         |
 * | stdio line over its 10 MiB cap         | -32600 with the leading id                   | —                       | —                            |
 * | second initialize, reused id in flight | -32600 with the id                           | 400 -32600 with the id  | —                            |
 * (HTTP+SSE's POST endpoint answers 202 to whatever it accepts, 413 and 415 like Streamable HTTP; the answers
 * come on its stream.)
 *
 * The generated server's own answers (the lifecycle's and the validators': `_meta`, `initialize`, a batch
 * holding one) are in frame-corpus-server.ts.
 */

export type Version = '2025-03-26' | '2025-11-25' | '2026-07-28';
export const CORPUS_VERSIONS: readonly Version[] = ['2025-03-26', '2025-11-25', '2026-07-28'];
/** The HTTP row is Streamable HTTP; the text transports (stdio, WebSocket, HTTP+SSE's stream) answer alike. */
export type TransportKind = 'memory' | 'stdio' | 'http' | 'websocket' | 'sse';

/** One expected JSON-RPC answer: an error code (or 0 for a result) and the id it carries. */
export interface Answer {
  code: number;
  id: string | number | null;
}

export interface Expected {
  /** The answers, in any order; a batch answer is flattened (and `batch` says it came as an array). */
  answers: Answer[];
  batch?: boolean;
  /** HTTP only: the status code. */
  status?: number;
}

export interface CorpusEntry {
  name: string;
  /** The frame's text, one line (stdio frames are lines). */
  text: string;
  expect: (version: Version, transport: TransportKind) => Expected;
}

const PARSE: Answer = { code: -32700, id: null };
const invalid = (id: string | number | null): Answer => ({ code: -32600, id });
const ok = (id: string | number): Answer => ({ code: 0, id });
const notFound = (id: string | number): Answer => ({ code: -32601, id });

/** The same answer everywhere; HTTP says 400. */
function always(...answers: Answer[]): CorpusEntry['expect'] {
  return (_version, transport) => (transport === 'http' ? { answers, status: 400 } : { answers });
}

/** No answer (a notification or a response); HTTP 202, or 400 with -32600 for a response in 2026-07-28. */
function silent(kind: 'notification' | 'response', id: string | number | null = null): CorpusEntry['expect'] {
  return (version, transport) => {
    if (transport !== 'http') return { answers: [] };
    if (kind === 'response' && version === '2026-07-28') return { answers: [invalid(id)], status: 400 };
    return { answers: [], status: 202 };
  };
}

/** An unknown method: -32601 with the id; HTTP 2026-07-28 says 404, earlier versions 200. */
function methodNotFound(id: string | number): CorpusEntry['expect'] {
  return (version, transport) =>
    transport === 'http'
      ? { answers: [notFound(id)], status: version === '2026-07-28' ? 404 : 200 }
      : { answers: [notFound(id)] };
}

/**
 * A batch: answered item by item in 2025-03-26, refused whole (-32600, id null) elsewhere. HTTP answers every
 * member too (issue 36): 200 with the array, or 400 when no member was valid (`httpStatus` overrides: a batch
 * whose valid members are notifications gets 200 with the invalid members' answers only).
 */
function batch(answersIn2025_03_26: Answer[], httpStatus?: number): CorpusEntry['expect'] {
  return (version, transport) => {
    if (version !== '2025-03-26')
      return transport === 'http' ? { answers: [invalid(null)], status: 400 } : { answers: [invalid(null)] };
    if (transport === 'http') {
      const allInvalid = answersIn2025_03_26.every((a) => a.code === -32600);
      return { answers: answersIn2025_03_26, status: httpStatus ?? (allInvalid ? 400 : 200), batch: true };
    }
    return { answers: answersIn2025_03_26, batch: true };
  };
}

const entries: CorpusEntry[] = [];
const add = (name: string, text: string, expect: CorpusEntry['expect']): void => {
  entries.push({ name, text, expect });
};

// --- 1. Not JSON (§4: parse error, id null) ------------------------------------------------------------
const notJson: [string, string][] = [
  // Issue 43: an empty or blank frame is not JSON on every transport, a stdio line included.
  ['empty frame', ''],
  ['whitespace only', ' \t  '],
  ['plain words', 'not json'],
  ['lone brace', '{'],
  ['unterminated object', '{"jsonrpc":"2.0","id":1,"method":"ping"'],
  ['unterminated string', '{"jsonrpc":"2.0","id":"abc,"method":"ping"}'],
  ['trailing comma', '{"jsonrpc":"2.0","id":1,"method":"ping",}'],
  ['single quotes', "{'jsonrpc':'2.0','id':1,'method':'ping'}"],
  ['unquoted keys', '{jsonrpc:"2.0",id:1,method:"ping"}'],
  ['NaN value', '{"jsonrpc":"2.0","id":NaN,"method":"ping"}'],
  ['Infinity value', '{"jsonrpc":"2.0","id":Infinity,"method":"ping"}'],
  ['hex number', '{"jsonrpc":"2.0","id":0x1,"method":"ping"}'],
  ['leading plus', '{"jsonrpc":"2.0","id":+1,"method":"ping"}'],
  ['leading zero', '{"jsonrpc":"2.0","id":01,"method":"ping"}'],
  ['bare decimal point', '{"jsonrpc":"2.0","id":.5,"method":"ping"}'],
  ['extra closing brace', '{"jsonrpc":"2.0","id":1,"method":"ping"}}'],
  ['trailing garbage', '{"jsonrpc":"2.0","id":1,"method":"ping"} x'],
  ['two objects on one line', '{"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"}'],
  ['byte order mark', '\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}'],
  ['raw control character in a string', '{"jsonrpc":"2.0","id":"a\u0001b","method":"ping"}'],
  ['comment', '// {"jsonrpc":"2.0","id":1,"method":"ping"}'],
  ['undefined', 'undefined'],
  ['truncated literal', 'tru'],
  ['unterminated array', '[{"jsonrpc":"2.0","id":1,"method":"ping"}'],
  ['invalid escape', '{"jsonrpc":"2.0","id":"\\x41","method":"ping"}'],
  ['lone surrogate escape cut', '{"jsonrpc":"2.0","id":"\\ud83","method":"ping"}'],
  ['unclosed deep nesting', '['.repeat(5000)],
  ['§7 invalid JSON', '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]'],
  [
    '§7 batch invalid JSON',
    '[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method"]',
  ],
];
for (const [name, text] of notJson) add(`parse: ${name}`, text, always(PARSE));

// --- 2. JSON, but not an object (§4: a request is an object) ----------------------------------------------
for (const [name, text] of [
  ['number', '42'],
  ['negative zero', '-0'],
  ['float', '1.5'],
  ['string', '"ping"'],
  ['string holding JSON', '"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"method\\":\\"ping\\"}"'],
  ['true', 'true'],
  ['false', 'false'],
  ['null', 'null'],
] as [string, string][]) {
  add(`not an object: ${name}`, text, always(invalid(null)));
}

// --- 3. Batches (§6; MCP allows them only in 2025-03-26) --------------------------------------------------
add('batch: empty (§7)', '[]', always(invalid(null)));
add('batch: one number (§7)', '[1]', batch([invalid(null)]));
add('batch: three numbers (§7)', '[1,2,3]', batch([invalid(null), invalid(null), invalid(null)]));
add('batch: one valid request', '[{"jsonrpc":"2.0","id":"b1","method":"ping"}]', batch([ok('b1')]));
add(
  'batch: valid and invalid',
  '[{"jsonrpc":"2.0","id":"b2","method":"ping"},{"jsonrpc":"1.0","id":"b3","method":"ping"}]',
  batch([ok('b2'), invalid('b3')]),
);
add('batch: nested array', '[[{"jsonrpc":"2.0","id":"b4","method":"ping"}]]', batch([invalid(null)]));
add('batch: only notifications', '[{"jsonrpc":"2.0","method":"notifications/x"}]', (version, transport) => {
  if (version !== '2025-03-26')
    return transport === 'http' ? { answers: [invalid(null)], status: 400 } : { answers: [invalid(null)] };
  return transport === 'http' ? { answers: [], status: 202 } : { answers: [] };
});

// --- 4. The jsonrpc member (§4: MUST be exactly "2.0") -----------------------------------------------------
const badVersions: [string, string | undefined][] = [
  ['missing', undefined],
  ['"1.0"', '"1.0"'],
  ['number 2', '2'],
  ['number 2.0', '2.0'],
  ['"2"', '"2"'],
  ['"2.0 "', '"2.0 "'],
  ['"2.00"', '"2.00"'],
  ['null', 'null'],
  ['true', 'true'],
  ['object', '{}'],
  ['array', '["2.0"]'],
];
for (const [name, value] of badVersions) {
  for (const id of [5, 'j-5']) {
    const member = value === undefined ? '' : `"jsonrpc":${value},`;
    add(
      `jsonrpc ${name} (id ${JSON.stringify(id)})`,
      `{${member}"id":${JSON.stringify(id)},"method":"ping"}`,
      always(invalid(id)),
    );
  }
}

// --- 5. Ids (MCP: a string or an integer; JavaScript reads integers exactly only up to 2^53−1) ---------
const badIds: [string, string][] = [
  ['1.5', '1.5'],
  ['0.1', '0.1'],
  ['-2.5', '-2.5'],
  ['2^53', '9007199254740992'],
  ['2^53 + 1', '9007199254740993'],
  ['-(2^53)', '-9007199254740992'],
  ['1e21', '1e21'],
  ['1e400 (overflows to Infinity)', '1e400'],
  ['-1e400', '-1e400'],
  ['20 digits', '12345678901234567890'],
  ['null', 'null'],
  ['true', 'true'],
  ['false', 'false'],
  ['object', '{}'],
  ['object with member', '{"n":1}'],
  ['empty array', '[]'],
  ['array', '[1]'],
];
for (const [name, id] of badIds) {
  add(`id ${name}`, `{"jsonrpc":"2.0","id":${id},"method":"ping"}`, always(invalid(null)));
}
// The same ids in a batch (2025-03-26 answers the array; the invalid id reads as null).
add(
  'batch: unsafe id next to a valid one',
  '[{"jsonrpc":"2.0","id":1.5,"method":"ping"},{"jsonrpc":"2.0","id":"b5","method":"ping"}]',
  batch([invalid(null), ok('b5')]),
);

// --- 6. The method member (§4: a string) --------------------------------------------------------------------
for (const [name, value] of [
  ['number', '1'],
  ['null', 'null'],
  ['true', 'true'],
  ['object', '{}'],
  ['array', '["ping"]'],
  ['float', '1.5'],
]) {
  add(`method ${name}`, `{"jsonrpc":"2.0","id":7,"method":${value}}`, always(invalid(7)));
}
for (const [name, method] of [
  ['empty string', ''],
  ['unknown', 'tools/nope'],
  ['wrong case', 'PING'],
  ['leading space', ' ping'],
  ['trailing NUL', 'ping\u0000'],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
  ['toString', 'toString'],
  ['rpc. prefix (§4 reserved)', 'rpc.discover'],
]) {
  add(`method ${name}`, JSON.stringify({ jsonrpc: '2.0', id: 'm-1', method }), methodNotFound('m-1'));
}

// --- 7. The params member (§4.2: structured; MCP: an object) -----------------------------------------------
for (const [name, value] of [
  ['string (§7 "bar")', '"bar"'],
  ['number', '1'],
  ['true', 'true'],
  ['null', 'null'],
  ['empty array', '[]'],
  ['positional array', '[1,2]'],
]) {
  add(`params ${name}`, `{"jsonrpc":"2.0","id":8,"method":"ping","params":${value}}`, always(invalid(8)));
}

// --- 8. Frames without an id that are not well-formed notifications (§7: -32600, id null) -------------------
for (const [name, text] of [
  ['§7 method 1, params "bar"', '{"jsonrpc":"2.0","method":1,"params":"bar"}'],
  ['method null', '{"jsonrpc":"2.0","method":null}'],
  ['method object', '{"jsonrpc":"2.0","method":{}}'],
  ['jsonrpc missing', '{"method":"notifications/x"}'],
  ['jsonrpc "1.0"', '{"jsonrpc":"1.0","method":"notifications/x"}'],
  ['params string', '{"jsonrpc":"2.0","method":"notifications/x","params":"x"}'],
  ['params array', '{"jsonrpc":"2.0","method":"notifications/x","params":[]}'],
  ['params null', '{"jsonrpc":"2.0","method":"notifications/x","params":null}'],
] as [string, string][]) {
  add(`bad notification: ${name}`, text, always(invalid(null)));
}

// --- 9. Objects that are neither request, notification nor response ----------------------------------------
add('object: empty', '{}', always(invalid(null)));
add('object: §7 {"foo":"boo"}', '{"foo":"boo"}', always(invalid(null)));
add('object: jsonrpc only', '{"jsonrpc":"2.0"}', always(invalid(null)));
add('object: id only', '{"jsonrpc":"2.0","id":3}', always(invalid(3)));
add('object: string id only', '{"jsonrpc":"2.0","id":"x"}', always(invalid('x')));
add('object: unsafe id only', '{"jsonrpc":"2.0","id":1e400}', always(invalid(null)));
add('object: params without method', '{"jsonrpc":"2.0","id":4,"params":{}}', always(invalid(4)));

// --- 10. Well-formed notifications and responses: never answered -------------------------------------------
add('notification: unknown method', '{"jsonrpc":"2.0","method":"notifications/unknown"}', silent('notification'));
add(
  'notification: with params',
  '{"jsonrpc":"2.0","method":"notifications/unknown","params":{"a":1}}',
  silent('notification'),
);
add(
  'notification: cancel of an unknown request',
  '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"zz"}}',
  silent('notification'),
);
add('response: result for an unknown id', '{"jsonrpc":"2.0","id":99,"result":{}}', silent('response', 99));
add(
  'response: error with id null',
  '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
  silent('response'),
);
add(
  'response: result and error',
  '{"jsonrpc":"2.0","id":98,"result":{},"error":{"code":1,"message":"x"}}',
  silent('response', 98),
);

// --- 8. Issue 36: what transports used to answer differently ----------------------------------------------
add(
  'batch: valid, invalid and a notification (every valid member answered)',
  '[{"jsonrpc":"2.0","id":"b6","method":"ping"},{"jsonrpc":"1.0","id":"b7","method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]',
  batch([ok('b6'), invalid('b7')]),
);
add(
  'batch: an invalid member beside a notification',
  '[{"jsonrpc":"1.0","id":"b8","method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]',
  batch([invalid('b8')], 200),
);
add('response: unsafe id 1.5', '{"jsonrpc":"2.0","id":1.5,"result":{}}', silent('response'));

export const FRAME_CORPUS: readonly CorpusEntry[] = entries;
