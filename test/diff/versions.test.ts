/** The diff on the official MCP schemas (read from ../shared/mcp-schema or MCP_SCHEMA_DIR). */
import { describe, expect, test } from 'vitest';
import { diffModels, type DiffReport, type Fact } from '../../src/diff/index.js';
import type { JsonSchema } from '../../src/load/schema-types.js';
import { modelOf, rewriteRefs, versionJson, versionModel } from './helpers.js';

function find(report: DiffReport, rule: string, method: string, path = ''): Fact | undefined {
  // Facts are deduplicated: one fact may stand for several methods (location.methods).
  return report.facts.find((f) => f.rule === rule && f.location.methods.includes(method) && f.location.path === path);
}

function expectFact(
  report: DiffReport,
  rule: string,
  method: string,
  path: string,
  client: string,
  server: string,
): Fact {
  const fact = find(report, rule, method, path);
  expect(
    fact,
    `${rule} ${method} ${path}\n${report.facts.map((f) => `${f.rule} ${f.location.method} ${f.location.path}`).join('\n')}`,
  ).toBeDefined();
  expect(fact!.verdicts, `${rule} ${method} ${path}`).toEqual({ client, server });
  return fact!;
}

const diff = (a: string, b: string): DiffReport => diffModels(versionModel(a), versionModel(b));

describe('consecutive official versions', () => {
  test('2024-11-05 → 2025-03-26: batches, audio content, tool annotations; nothing breaking', () => {
    const r = diff('2024-11-05', '2025-03-26');
    expectFact(r, 'batching-added', 'batches', '', 'potentially-breaking', 'potentially-breaking');
    const audio = expectFact(
      r,
      'result-union-member-added',
      'tools/call',
      'result.content[]',
      'potentially-breaking',
      'non-breaking',
    );
    expect(audio.details).toEqual({ member: 'AudioContent' });
    expect(audio.location.key).toBe('tools/call/result/content[]');
    // sampling/createMessage is server->client: the client writes the result, the server reads it.
    expectFact(
      r,
      'result-union-member-added',
      'sampling/createMessage',
      'result.content',
      'non-breaking',
      'potentially-breaking',
    );
    expectFact(
      r,
      'request-param-union-member-added',
      'sampling/createMessage',
      'params.messages[].content',
      'potentially-breaking',
      'non-breaking',
    );
    expectFact(r, 'result-property-added', 'tools/list', 'result.tools[].annotations', 'non-breaking', 'non-breaking');
    expectFact(
      r,
      'notification-payload-property-added',
      'notifications/progress',
      'params.message',
      'non-breaking',
      'non-breaking',
    );
    expect(r.summary.client.breaking + r.summary.server.breaking).toBe(0);
    expect(r.facts.filter((f) => f.location.part === 'method')).toEqual([]);
  });

  test('2025-03-26 → 2025-06-18: batching removed (breaking for both), elicitation added, structuredContent added', () => {
    const r = diff('2025-03-26', '2025-06-18');
    const batching = expectFact(r, 'batching-removed', 'batches', '', 'breaking', 'breaking');
    expect(batching.location.key).toBe('protocol/batches');
    expect(r.facts[0]).toBe(batching); // protocol facts first
    const elicit = expectFact(r, 'method-added', 'elicitation/create', '', 'non-breaking', 'non-breaking');
    expect(elicit.location.directions).toEqual(['server->client']);
    expect(elicit.location.newPointer).toBe('#/definitions/ElicitRequest');
    expectFact(r, 'result-property-added', 'tools/call', 'result.structuredContent', 'non-breaking', 'non-breaking');
    expectFact(
      r,
      'result-union-member-added',
      'tools/call',
      'result.content[]',
      'potentially-breaking',
      'non-breaking',
    );
    expectFact(
      r,
      'request-param-property-added',
      'completion/complete',
      'params.context',
      'non-breaking',
      'non-breaking',
    );
    // Only batching is breaking.
    expect(
      r.facts.filter((f) => f.verdicts.client === 'breaking' || f.verdicts.server === 'breaking').map((f) => f.rule),
    ).toEqual(['batching-removed']);
  });

  test('2025-06-18 → 2025-11-25: tasks, elicitation modes matched structurally, cancelled requestId optional', () => {
    const r = diff('2025-06-18', '2025-11-25');
    for (const m of ['tasks/get', 'tasks/list', 'tasks/cancel', 'tasks/result']) {
      const f = expectFact(r, 'method-added', m, '', 'non-breaking', 'non-breaking');
      expect(f.location.directions).toEqual(['client->server', 'server->client']);
    }
    expectFact(r, 'notification-added', 'notifications/tasks/status', '', 'non-breaking', 'non-breaking');
    expectFact(r, 'notification-added', 'notifications/elicitation/complete', '', 'non-breaking', 'non-breaking');
    // The inline 2025-06-18 elicitation params match the form-mode member; URL mode is a new member.
    const url = expectFact(
      r,
      'request-param-union-member-added',
      'elicitation/create',
      'params',
      'potentially-breaking',
      'non-breaking',
    );
    expect(url.details).toEqual({ member: 'ElicitRequestURLParams' });
    expect(
      r.facts.some(
        (f) =>
          f.rule === 'request-param-union-member-removed' &&
          f.location.method === 'elicitation/create' &&
          f.location.path === 'params',
      ),
    ).toBe(false);
    // notifications/cancelled goes both ways: both sides read it, and read requestId unconditionally.
    expectFact(
      r,
      'notification-payload-required-removed',
      'notifications/cancelled',
      'params.requestId',
      'breaking',
      'breaking',
    );
    expectFact(
      r,
      'result-union-member-added',
      'sampling/createMessage',
      'result.content',
      'non-breaking',
      'potentially-breaking',
    );
    expect(r.facts.filter((f) => f.location.part === 'protocol')).toEqual([]);
    // The 2025-06-18 EnumSchema (with enumNames) is matched to LegacyTitledEnumSchema, the closest new member.
    const enumFacts = r.facts.filter((f) =>
      f.location.path.startsWith('params<ElicitRequestFormParams>.requestedSchema.properties{}'),
    );
    expect(
      enumFacts.map((f) => [
        f.rule,
        f.location.path.replace('params<ElicitRequestFormParams>.requestedSchema.properties{}', ''),
        f.details.member ?? f.details.property,
      ]),
    ).toEqual([
      ['request-param-union-member-added', '', 'TitledMultiSelectEnumSchema'],
      ['request-param-union-member-added', '', 'TitledSingleSelectEnumSchema'],
      ['request-param-union-member-added', '', 'UntitledMultiSelectEnumSchema'],
      ['request-param-union-member-added', '', 'UntitledSingleSelectEnumSchema'],
      ['request-param-property-added', '<LegacyTitledEnumSchema>.default', 'default'],
      ['request-param-property-added', '<NumberSchema>.default', 'default'],
      ['request-param-property-added', '<StringSchema>.default', 'default'],
    ]);
    // Breaking: cancelled's requestId made optional (both read it), and elicitation/create's result
    // content values may now be arrays (the server reads them) — so may sampling/createMessage's content,
    // spelt as an array member added to a union of objects: the same verdict as a widened type list.
    expectFact(r, 'result-type-widened', 'elicitation/create', 'result.content{}', 'non-breaking', 'breaking');
    expectFact(r, 'result-type-widened', 'sampling/createMessage', 'result.content', 'non-breaking', 'breaking');
    expectFact(
      r,
      'request-param-type-widened',
      'sampling/createMessage',
      'params.messages[].content',
      'breaking',
      'non-breaking',
    );
    // The envelope: an error response's id is no longer required — both sides read error responses.
    expectFact(r, 'envelope-required-removed', 'error-response', 'envelope.id', 'breaking', 'breaking');
    expect(r.summary.client.breaking + r.summary.server.breaking).toBe(7);
  });

  test('2025-11-25 → 2026-07-28: removed methods, required request _meta, input requests, union results', () => {
    const r = diff('2025-11-25', '2026-07-28');
    expectFact(r, 'initialize-removed', 'initialize', '', 'breaking', 'breaking');
    expectFact(r, 'per-request-meta-added', 'per-request-meta', '', 'breaking', 'potentially-breaking');
    expectFact(r, 'input-requests-added', 'input-requests', '', 'breaking', 'non-breaking');
    expectFact(r, 'capability-extensions-added', 'capability-extensions', '', 'non-breaking', 'non-breaking');
    // Protocol facts point at the definition carrying the feature, on the side that has it.
    const carriers = r.facts
      .filter((f) => f.location.part === 'protocol')
      .map((f) => [f.rule, f.location.side, f.location.oldPointer ?? f.location.newPointer]);
    expect(carriers).toEqual([
      ['capability-extensions-added', 'new', '#/$defs/ClientCapabilities'],
      ['initialize-removed', 'old', '#/$defs/InitializeRequest'],
      ['input-requests-added', 'new', '#/$defs/InputRequiredResult'],
      ['per-request-meta-added', 'new', '#/$defs/RequestMetaObject'],
    ]);
    for (const m of ['initialize', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']) {
      expectFact(r, 'method-removed', m, '', 'breaking', 'non-breaking');
    }
    // Sent both ways: each side is a caller.
    for (const m of ['ping', 'tasks/get', 'tasks/list', 'tasks/cancel', 'tasks/result']) {
      expectFact(r, 'method-removed', m, '', 'breaking', 'breaking');
    }
    expectFact(r, 'notification-removed', 'notifications/initialized', '', 'potentially-breaking', 'breaking');
    expectFact(r, 'notification-removed', 'notifications/tasks/status', '', 'breaking', 'breaking');
    expectFact(r, 'notification-direction-removed', 'notifications/progress', '', 'potentially-breaking', 'breaking');
    // Its result declares the server's capabilities: every server must answer it.
    expectFact(r, 'required-method-added', 'server/discover', '', 'non-breaking', 'breaking');
    // The now-required request _meta breaks clients (they must send it), not servers.
    for (const m of ['tools/call', 'tools/list', 'prompts/get', 'resources/read', 'completion/complete']) {
      const f = expectFact(r, 'request-param-required-added', m, 'params._meta', 'breaking', 'non-breaking');
      expect(f.details).toEqual({ newProperty: false, property: '_meta' });
    }
    expectFact(
      r,
      'request-param-required-added',
      'tools/call',
      'params._meta["io.modelcontextprotocol/protocolVersion"]',
      'breaking',
      'non-breaking',
    );
    expectFact(r, 'request-params-became-required', 'tools/list', '', 'breaking', 'non-breaking');
    // Input requests: no longer JSON-RPC requests from the server, now embedded input requests.
    for (const m of ['sampling/createMessage', 'roots/list', 'elicitation/create']) {
      expectFact(r, 'method-direction-removed', m, '', 'non-breaking', 'breaking');
      expectFact(r, 'method-direction-added', m, '', 'non-breaking', 'non-breaking');
    }
    // Results became unions with InputRequiredResult; the old result is matched by structure. The
    // variant added is the input-requests feature: the protocol fact's verdict (breaking for the client).
    const asking = expectFact(r, 'result-union-member-added', 'tools/call', 'result', 'breaking', 'non-breaking');
    expect(asking.details.member).toBe('InputRequiredResult');
    const resultType = expectFact(
      r,
      'result-required-added',
      'tools/call',
      'result<CallToolResult>.resultType',
      'non-breaking',
      'breaking',
    );
    expect(resultType.location.newPointer).toBe('#/$defs/CallToolResult/properties/resultType');
    expect(resultType.location.oldPointer).toBe('#/$defs/CallToolResult');
    expectFact(
      r,
      'result-type-widened',
      'tools/call',
      'result<CallToolResult>.structuredContent',
      'breaking',
      'non-breaking',
    );
    // An optional param removed: the server already handled its absence; a client sending it is ignored.
    expectFact(
      r,
      'request-param-property-removed',
      'tools/call',
      'params.task',
      'potentially-breaking',
      'non-breaking',
    );
    expectFact(
      r,
      'request-param-type-narrowed',
      'sampling/createMessage',
      'params.metadata{}',
      'non-breaking',
      'breaking',
    );
  });

  test('2025-11-25 → 2026-07-28 is fast after load', () => {
    const a = versionModel('2025-11-25');
    const b = versionModel('2026-07-28');
    diffModels(a, b);
    const t0 = performance.now();
    diffModels(a, b);
    expect(performance.now() - t0).toBeLessThan(300);
  });
});

describe('equivalent schemas produce nothing breaking', () => {
  const versions = ['2024-11-05', '2025-06-18', '2025-11-25', '2026-07-28'];

  test.each(versions)('%s against itself: no facts', (v) => {
    const r = diffModels(versionModel(v), versionModel(v), { includeDescriptions: true });
    expect(r.facts).toEqual([]);
  });

  test.each(versions)('%s with every description changed: no facts, only description facts when asked', (v) => {
    const copy = mapDescriptions(versionJson(v));
    const r = diffModels(versionModel(v), modelOf(copy));
    expect(r.facts).toEqual([]);
    const withDescriptions = diffModels(versionModel(v), modelOf(copy), { includeDescriptions: true });
    expect(withDescriptions.facts.length).toBeGreaterThan(0);
    expect(new Set(withDescriptions.facts.map((f) => f.rule))).toEqual(new Set(['description-changed']));
    expect(
      withDescriptions.facts.every((f) => f.verdicts.client === 'non-breaking' && f.verdicts.server === 'non-breaking'),
    ).toBe(true);
  });

  test.each(versions)('%s with non-message definitions renamed (refs rewritten): no facts', (v) => {
    const doc = versionJson(v);
    const kw = doc.$defs ? '$defs' : 'definitions';
    const defs = doc[kw] as Record<string, JsonSchema>;
    // Rename every definition that is not a message (message names are what the model keys on).
    // The model detects features by a few definition names (RequestMetaObject, ClientCapabilities): keep those.
    const rename = (name: string): string =>
      /(Request|Notification|Result|Response|Message|MetaObject)$/.test(name) ||
      /^(Client|Server)/.test(name) ||
      /^JSONRPC/.test(name) ||
      /^Input/.test(name)
        ? name
        : `Renamed${name}`;
    const renamedDefs = Object.fromEntries(Object.entries(defs).map(([k, s]) => [rename(k), s]));
    const prefix = `#/${kw}/`;
    const copy = rewriteRefs({ ...doc, [kw]: renamedDefs }, (ref) =>
      ref.startsWith(prefix)
        ? prefix + rename(ref.slice(prefix.length).split('/')[0]!) + ref.slice(prefix.length).replace(/^[^/]*/, '')
        : ref,
    ) as JsonSchema;
    expect(Object.keys((copy[kw] as object) ?? {}).some((k) => k.startsWith('Renamed'))).toBe(true);
    expect(diffModels(versionModel(v), modelOf(copy)).facts).toEqual([]);
  });

  test.each(versions)(
    '%s with params swapped inline ↔ named (refs inlined, inline schemas extracted): no facts',
    (v) => {
      const doc = versionJson(v);
      const kw = doc.$defs ? '$defs' : 'definitions';
      const defs = doc[kw] as Record<string, JsonSchema>;
      const prefix = `#/${kw}/`;
      const swapped: Record<string, JsonSchema> = {};
      for (const [name, def] of Object.entries(defs)) {
        const props = (def.properties ?? {}) as Record<string, JsonSchema>;
        const params = props.params;
        if (params && typeof params.$ref === 'string' && params.$ref.startsWith(prefix)) {
          const target = defs[params.$ref.slice(prefix.length)]!;
          swapped[name] = { ...def, properties: { ...props, params: structuredClone(target) } };
        } else if (params && typeof params === 'object' && /(Request|Notification)$/.test(name)) {
          swapped[`Extracted${name}Params`] = params;
          swapped[name] = { ...def, properties: { ...props, params: { $ref: `${prefix}Extracted${name}Params` } } };
        } else {
          swapped[name] ??= def;
        }
      }
      const copy = { ...doc, [kw]: swapped };
      const before = versionModel(v);
      const after = modelOf(copy);
      const changed = before.methods.filter(
        (m) => after.methods.find((n) => n.method === m.method)!.params !== m.params,
      );
      expect(changed.length).toBeGreaterThan(5);
      expect(diffModels(before, after).facts).toEqual([]);
      expect(diffModels(after, before).facts).toEqual([]);
    },
  );

  test('draft-07 `definitions` ↔ 2020-12 `$defs` keyword swap: no facts', () => {
    for (const v of ['2025-06-18', '2025-11-25']) {
      const doc = versionJson(v);
      const from = doc.$defs ? '$defs' : 'definitions';
      const to = from === '$defs' ? 'definitions' : '$defs';
      const copy = rewriteRefs(
        {
          $schema:
            to === '$defs' ? 'https://json-schema.org/draft/2020-12/schema' : 'http://json-schema.org/draft-07/schema#',
          [to]: doc[from],
        },
        (ref) => ref.replace(`#/${from}/`, `#/${to}/`),
      ) as JsonSchema;
      const model = modelOf(copy);
      expect(model.defsKeyword).toBe(to);
      expect(diffModels(versionModel(v), model).facts).toEqual([]);
    }
  });

  test('a result wrapped in a single-member union and an allOf split: no facts', () => {
    const doc = versionJson('2025-11-25');
    const defs = structuredClone(doc.$defs) as Record<string, JsonSchema>;
    defs.CallToolResult = { anyOf: [{ $ref: '#/$defs/CallToolResultBody' }] };
    defs.CallToolResultBody = (doc.$defs as Record<string, JsonSchema>).CallToolResult!;
    const tool = defs.Tool!;
    const { inputSchema, ...rest } = tool.properties as Record<string, JsonSchema>;
    defs.Tool = {
      allOf: [
        { type: 'object', properties: rest, required: (tool.required as string[]).filter((r) => r !== 'inputSchema') },
        { type: 'object', properties: { inputSchema }, required: ['inputSchema'] },
      ],
    };
    expect(diffModels(versionModel('2025-11-25'), modelOf({ ...doc, $defs: defs })).facts).toEqual([]);
  });
});

function mapDescriptions(node: unknown): JsonSchema {
  const walk = (n: unknown, inProps: boolean): unknown => {
    if (Array.isArray(n)) return n.map((x) => walk(x, false));
    if (n && typeof n === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(n)) {
        if (!inProps && k === 'description' && typeof v === 'string') out[k] = `Changed: ${v.length}`;
        else out[k] = walk(v, !inProps && (k === 'properties' || k === '$defs' || k === 'definitions'));
      }
      if (!inProps && !('description' in out) && ('type' in out || '$ref' in out)) out.description = 'added';
      return out;
    }
    return n;
  };
  return walk(node, false) as JsonSchema;
}
