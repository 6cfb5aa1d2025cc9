/**
 * The protocol model of each official schema: methods, kinds, directions, params and the result of
 * every request. The expectations are hard-coded (read off the schemas by hand), so a change in how
 * the model is derived shows up here as a diff, not as a silently different output.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../src/load/schema.js';
import { buildModel } from '../../src/model/build.js';
import { paramsRefText, type Direction, type ProtocolModel } from '../../src/model/types.js';
import { FIXTURE_SCHEMAS, ROOT, SCHEMA_DIR, VERSIONS, cli, type Version } from '../helpers/generate.js';

interface Expected {
  dialect: 'draft-07' | '2020-12';
  defsKeyword: 'definitions' | '$defs';
  /** Methods per table (a both-way method counts in both). */
  counts: {
    total: number;
    requests: number;
    notifications: number;
    c2sRequests: number;
    s2cRequests: number;
    inputRequests: number;
    c2sNotifications: number;
    s2cNotifications: number;
  };
  /** Methods sent in both directions. */
  bothWays: string[];
  /** Every request → its result definition names, in order. */
  results: Record<string, string[]>;
  /** A sample of methods → [params, paramsRequired]. */
  params: Record<string, [string | null, boolean]>;
}

/** 2024-11-05 and 2025-03-26 have the same method set. */
const RESULTS_2024: Record<string, string[]> = {
  'completion/complete': ['CompleteResult'],
  initialize: ['InitializeResult'],
  'logging/setLevel': ['EmptyResult'],
  ping: ['EmptyResult'],
  'prompts/get': ['GetPromptResult'],
  'prompts/list': ['ListPromptsResult'],
  'resources/list': ['ListResourcesResult'],
  'resources/read': ['ReadResourceResult'],
  'resources/subscribe': ['EmptyResult'],
  'resources/templates/list': ['ListResourceTemplatesResult'],
  'resources/unsubscribe': ['EmptyResult'],
  'roots/list': ['ListRootsResult'],
  'sampling/createMessage': ['CreateMessageResult'],
  'tools/call': ['CallToolResult'],
  'tools/list': ['ListToolsResult'],
};

const DRAFT07_PARAMS: Record<string, [string | null, boolean]> = {
  'tools/call': ['#/definitions/CallToolRequest/properties/params', true],
  ping: ['#/definitions/PingRequest/properties/params', false],
  'notifications/initialized': ['#/definitions/InitializedNotification/properties/params', false],
  'notifications/progress': ['#/definitions/ProgressNotification/properties/params', true],
  'resources/list': ['#/definitions/ListResourcesRequest/properties/params', false],
};

const EXPECTED: Record<Version, Expected> = {
  '2024-11-05': {
    dialect: 'draft-07',
    defsKeyword: 'definitions',
    counts: {
      total: 24,
      requests: 15,
      notifications: 9,
      c2sRequests: 13,
      s2cRequests: 3,
      inputRequests: 0,
      c2sNotifications: 4,
      s2cNotifications: 7,
    },
    bothWays: ['notifications/cancelled', 'notifications/progress', 'ping'],
    results: RESULTS_2024,
    params: DRAFT07_PARAMS,
  },
  '2025-03-26': {
    dialect: 'draft-07',
    defsKeyword: 'definitions',
    counts: {
      total: 24,
      requests: 15,
      notifications: 9,
      c2sRequests: 13,
      s2cRequests: 3,
      inputRequests: 0,
      c2sNotifications: 4,
      s2cNotifications: 7,
    },
    bothWays: ['notifications/cancelled', 'notifications/progress', 'ping'],
    results: RESULTS_2024,
    params: DRAFT07_PARAMS,
  },
  '2025-06-18': {
    dialect: 'draft-07',
    defsKeyword: 'definitions',
    counts: {
      total: 25,
      requests: 16,
      notifications: 9,
      c2sRequests: 13,
      s2cRequests: 4,
      inputRequests: 0,
      c2sNotifications: 4,
      s2cNotifications: 7,
    },
    bothWays: ['notifications/cancelled', 'notifications/progress', 'ping'],
    results: { ...RESULTS_2024, 'elicitation/create': ['ElicitResult'] },
    params: { ...DRAFT07_PARAMS, 'elicitation/create': ['#/definitions/ElicitRequest/properties/params', true] },
  },
  '2025-11-25': {
    dialect: '2020-12',
    defsKeyword: '$defs',
    counts: {
      total: 31,
      requests: 20,
      notifications: 11,
      c2sRequests: 17,
      s2cRequests: 8,
      inputRequests: 0,
      c2sNotifications: 5,
      s2cNotifications: 9,
    },
    bothWays: [
      'notifications/cancelled',
      'notifications/progress',
      'notifications/tasks/status',
      'ping',
      'tasks/cancel',
      'tasks/get',
      'tasks/list',
      'tasks/result',
    ],
    results: {
      ...RESULTS_2024,
      'elicitation/create': ['ElicitResult'],
      'tasks/cancel': ['CancelTaskResult'],
      'tasks/get': ['GetTaskResult'],
      'tasks/list': ['ListTasksResult'],
      'tasks/result': ['GetTaskPayloadResult'],
    },
    params: {
      'tools/call': ['CallToolRequestParams', true],
      ping: ['RequestParams', false],
      'tasks/get': ['#/$defs/GetTaskRequest/properties/params', true],
      'tasks/list': ['PaginatedRequestParams', false],
      'notifications/initialized': ['NotificationParams', false],
      'notifications/elicitation/complete': ['#/$defs/ElicitationCompleteNotification/properties/params', true],
      'roots/list': ['RequestParams', false],
    },
  },
  '2026-07-28': {
    dialect: '2020-12',
    defsKeyword: '$defs',
    counts: {
      total: 21,
      requests: 13,
      notifications: 8,
      c2sRequests: 10,
      s2cRequests: 0,
      inputRequests: 3,
      c2sNotifications: 1,
      s2cNotifications: 8,
    },
    // ClientNotification is only `notifications/cancelled` (written inline, mapped back to CancelledNotification).
    bothWays: ['notifications/cancelled'],
    results: {
      'completion/complete': ['CompleteResult'],
      'elicitation/create': ['ElicitResult'],
      'prompts/get': ['InputRequiredResult', 'GetPromptResult'],
      'prompts/list': ['ListPromptsResult'],
      'resources/list': ['ListResourcesResult'],
      'resources/read': ['InputRequiredResult', 'ReadResourceResult'],
      'resources/templates/list': ['ListResourceTemplatesResult'],
      'roots/list': ['ListRootsResult'],
      'sampling/createMessage': ['CreateMessageResult'],
      'server/discover': ['DiscoverResult'],
      'subscriptions/listen': ['SubscriptionsListenResult'],
      'tools/call': ['InputRequiredResult', 'CallToolResult'],
      'tools/list': ['ListToolsResult'],
    },
    params: {
      'tools/call': ['CallToolRequestParams', true],
      'tools/list': ['PaginatedRequestParams', true],
      'server/discover': ['RequestParams', true],
      'roots/list': ['#/$defs/ListRootsRequest/properties/params', false],
      'notifications/cancelled': ['CancelledNotificationParams', true],
      'notifications/tools/list_changed': ['NotificationParams', false],
    },
  },
};

const models = new Map<Version, ProtocolModel>();
async function modelOf(version: Version): Promise<ProtocolModel> {
  let model = models.get(version);
  if (!model) {
    model = buildModel(await loadSchema({ spec: version, schemaDir: SCHEMA_DIR, cwd: ROOT }));
    models.set(version, model);
  }
  return model;
}

const count = (model: ProtocolModel, kind: 'request' | 'notification', direction?: Direction) =>
  model.methods.filter((m) => m.kind === kind && (direction === undefined || m.directions.includes(direction))).length;

describe.each(VERSIONS)('model of %s', (version) => {
  const expected = EXPECTED[version];

  it('is the known version, with its dialect', async () => {
    const model = await modelOf(version);
    expect(model.version).toBe(version);
    expect(model.protocolVersion).toBe(version);
    expect(model.dialect).toBe(expected.dialect);
    expect(model.defsKeyword).toBe(expected.defsKeyword);
  });

  it('has the expected number of methods per kind and direction', async () => {
    const model = await modelOf(version);
    expect({
      total: model.methods.length,
      requests: count(model, 'request'),
      notifications: count(model, 'notification'),
      c2sRequests: count(model, 'request', 'client->server'),
      s2cRequests: count(model, 'request', 'server->client'),
      inputRequests: count(model, 'request', 'input'),
      c2sNotifications: count(model, 'notification', 'client->server'),
      s2cNotifications: count(model, 'notification', 'server->client'),
    }).toEqual(expected.counts);
  });

  it('is sorted by method, directions in canonical order, never empty', async () => {
    const model = await modelOf(version);
    const names = model.methods.map((m) => m.method);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(names).size).toBe(names.length);
    const order: Direction[] = ['client->server', 'server->client', 'input'];
    for (const m of model.methods) {
      expect(m.directions.length, m.method).toBeGreaterThan(0);
      expect(m.directions, m.method).toEqual([...m.directions].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
      expect(m.source).toBe('mcp');
    }
  });

  it('sends exactly the expected methods both ways', async () => {
    const model = await modelOf(version);
    const both = model.methods
      .filter((m) => m.directions.includes('client->server') && m.directions.includes('server->client'))
      .map((m) => m.method);
    expect(both).toEqual(expected.bothWays);
  });

  it('pairs every request with its result, and no notification has one', async () => {
    const model = await modelOf(version);
    const actual = Object.fromEntries(
      model.methods.filter((m) => m.kind === 'request').map((m) => [m.method, m.result]),
    );
    expect(actual).toEqual(expected.results);
    for (const m of model.methods.filter((x) => x.kind === 'notification')) expect(m.result, m.method).toBeUndefined();
    // Every named result is a definition of this schema.
    for (const names of Object.values(actual))
      for (const name of names ?? []) expect(model.definitions).toHaveProperty([name]);
  });

  it('names the params of a sample of methods', async () => {
    const model = await modelOf(version);
    const byMethod = new Map(model.methods.map((m) => [m.method, m]));
    for (const [method, [params, required]] of Object.entries(expected.params)) {
      const m = byMethod.get(method);
      expect(m, method).toBeDefined();
      expect([m!.params && paramsRefText(m!.params), m!.paramsRequired], method).toEqual([params, required]);
      // Every sample's inline params sit right under the message's own properties.
      if (m!.params?.kind === 'inline') expect(m!.params.direct, method).toBe(true);
    }
  });
});

describe('directions that differ between versions', () => {
  it.each([
    ['2024-11-05', 'sampling/createMessage', ['server->client']],
    ['2024-11-05', 'roots/list', ['server->client']],
    ['2025-06-18', 'elicitation/create', ['server->client']],
    ['2025-11-25', 'tasks/get', ['client->server', 'server->client']],
    ['2025-11-25', 'notifications/elicitation/complete', ['server->client']],
    ['2026-07-28', 'sampling/createMessage', ['input']],
    ['2026-07-28', 'roots/list', ['input']],
    ['2026-07-28', 'elicitation/create', ['input']],
    ['2026-07-28', 'notifications/progress', ['server->client']],
    ['2026-07-28', 'subscriptions/listen', ['client->server']],
  ] as const)('%s %s → %j', async (version, method, directions) => {
    const model = await modelOf(version);
    expect(model.methods.find((m) => m.method === method)?.directions).toEqual(directions);
  });

  it('2026-07-28 has no ping and no server → client requests', async () => {
    const model = await modelOf('2026-07-28');
    expect(model.methods.find((m) => m.method === 'ping')).toBeUndefined();
    expect(model.methods.filter((m) => m.directions.includes('server->client') && m.kind === 'request')).toEqual([]);
    expect(model.features.inputRequests).toBe(true);
  });

  it('batches only in 2025-03-26', async () => {
    const batches = await Promise.all(VERSIONS.map(async (v) => [v, (await modelOf(v)).features.batches]));
    expect(Object.fromEntries(batches)).toEqual({
      '2024-11-05': false,
      '2025-03-26': true,
      '2025-06-18': false,
      '2025-11-25': false,
      '2026-07-28': false,
    });
  });
});

describe('an unpaired request', () => {
  const file = join(FIXTURE_SCHEMAS, 'unpaired-request.schema.json');

  it('gets the generic Result, marked unknown, with a warning naming the file, pointer and the fix', async () => {
    const model = buildModel(await loadSchema({ schema: file, cwd: ROOT }));
    const foo = model.methods.find((m) => m.method === 'foo/bar')!;
    expect(foo.result).toEqual(['Result']);
    expect(foo.resultUnknown).toBe(true);
    expect(model.methods.find((m) => m.method === 'ping')!.resultUnknown).toBeUndefined();
    // The fixture has no Result definition: the generic one is added, so the emitted types name it.
    expect(model.definitions.Result).toMatchObject({ type: 'object' });
    expect(model.warnings).toHaveLength(1);
    expect(model.warnings![0]).toContain(`${file}#/$defs/FooRequest`);
    expect(model.warnings![0]).toContain('"foo/bar"');
    expect(model.warnings![0]).toContain('--pairing');
  });
});

describe('methods --json', () => {
  it.each(VERSIONS)('%s: sorted rows with exactly the stable fields, matching the model', async (version) => {
    const { code, stdout, stderr } = await cli(['methods', '--spec', version, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Record<string, unknown>[];
    const model = await modelOf(version);
    expect(rows.map((r) => r.method)).toEqual(model.methods.map((m) => m.method));
    for (const row of rows) {
      const keys =
        row.kind === 'request'
          ? ['method', 'kind', 'directions', 'params', 'paramsRequired', 'result']
          : ['method', 'kind', 'directions', 'params', 'paramsRequired'];
      expect(Object.keys(row), String(row.method)).toEqual(keys);
    }
    const results = Object.fromEntries(rows.filter((r) => r.kind === 'request').map((r) => [r.method, r.result]));
    expect(results).toEqual(EXPECTED[version].results);
    expect(rows).toEqual(
      model.methods.map((m) => ({
        method: m.method,
        kind: m.kind,
        directions: m.directions,
        params: m.params && paramsRefText(m.params),
        paramsRequired: m.paramsRequired,
        ...(m.kind === 'request' ? { result: m.result } : {}),
      })),
    );
  });

  it('an unpaired request: listed with the generic Result, one warning naming the file, the pointer and the method', async () => {
    const file = join(FIXTURE_SCHEMAS, 'unpaired-request.schema.json');
    const { code, stdout, stderr } = await cli(['methods', '--schema', file, '--json']);
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as { method: string; result?: string[] }[];
    expect(rows.find((r) => r.method === 'foo/bar')!.result).toEqual(['Result']);
    const warnings = stderr.split('\n').filter((l) => l.includes('foo/bar'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${file}#/$defs/FooRequest`);
    expect(warnings[0]).toMatch(/^warning: /);
  });
});
