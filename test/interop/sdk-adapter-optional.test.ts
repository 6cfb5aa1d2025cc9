/**
 * Issue 44, item 7: the SDK adapters' optional branches, with the real SDKs (v1 1.32, v2 2.4) in memory, on the
 * acme-jobs example extension (2025-11-25): a request whose params may be left out (`acme/jobs.list`) reaches
 * the v1 adapter's handler without them (the registration schema's params are `.optional()`), and a handler
 * the user did not give is not registered: the peer's own handler of that notification (`acme/jobs.finished`)
 * keeps receiving it, on v1 and v2. Each test fails when its branch is broken.
 */
import { Client as ClientV2, InMemoryTransport as MemoryV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as MemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { Server as ServerV2 } from '@modelcontextprotocol/server';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { ROOT, generated, tempDir, writeFiles } from '../helpers/generate.js';

const ACME = join(ROOT, 'schema', 'examples', 'acme-jobs.extension.json');
type Json = Record<string, any>;
let v1: Json;
let v2: Json;
let validators: Json;

const JOB = { id: 'j-1', pipeline: 'nightly', state: 'succeeded', createdAt: '2026-12-01T00:00:00Z' };
/** The four acme requests' handlers (none optional), recording what `list` is given. */
const requestHandlers = (seen: unknown[]): Json => ({
  'acme/jobs.start': () => ({ job: JOB }),
  'acme/jobs.status': () => ({ job: JOB }),
  'acme/jobs.cancel': () => ({ job: JOB }),
  'acme/jobs.list': (params: unknown) => (seen.push(params ?? 'no params'), { jobs: [JOB] }),
});

beforeAll(async () => {
  const dir = tempDir('sdk-adapter-optional');
  const out = await generated('2025-11-25', { extensions: [ACME], artifacts: ['sdk', 'sdk-v1'] });
  writeFiles(dir, out.files);
  [v1, v2, validators] = await Promise.all([
    import(join(dir, 'sdk-v1.ts')),
    import(join(dir, 'sdk.js')),
    import(join(dir, 'validators.js')),
  ]);
});

describe('SDK v1 adapter', () => {
  it('a request sent without its optional params reaches the handler', async () => {
    const seen: unknown[] = [];
    const server = new ServerV1({ name: 's', version: '1' }, { capabilities: {} });
    v1.registerServerHandlersV1(server, requestHandlers(seen));
    const client = new ClientV1({ name: 'c', version: '1' });
    const [clientSide, serverSide] = MemoryV1.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    expect(await v1.sdkClientV1(client).acme.jobs.list()).toEqual({ jobs: [JOB] });
    expect(await v1.sdkClientV1(client).acme.jobs.list({ limit: 5 })).toEqual({ jobs: [JOB] });
    expect(seen).toEqual(['no params', { limit: 5 }]);
    await client.close();
  });

  it("a notification handler the user did not give is not registered: the client's own keeps receiving", async () => {
    const received: unknown[] = [];
    const server = new ServerV1({ name: 's', version: '1' }, { capabilities: {} });
    const client = new ClientV1({ name: 'c', version: '1' });
    const finished = z.object({ method: z.literal('acme/jobs.finished'), params: z.unknown() });
    client.setNotificationHandler(finished, (n) => void received.push(n.params));
    v1.registerClientHandlersV1(client, {});
    const [clientSide, serverSide] = MemoryV1.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    await server.notification({ method: 'acme/jobs.finished', params: { job: JOB } });
    await expect.poll(() => received).toEqual([{ job: JOB }]);
    await client.close();
  });
});

describe('SDK v2 adapter', () => {
  it("a notification handler the user did not give is not registered: the client's own keeps receiving", async () => {
    const received: unknown[] = [];
    const server = new ServerV2({ name: 's', version: '1' }, { capabilities: {} });
    const client = new ClientV2({ name: 'c', version: '1' });
    const params = validators.AcmeJobsFinishedNotificationParams ?? validators['params$AcmeJobsFinishedNotification'];
    client.setNotificationHandler('acme/jobs.finished', { params }, (p: unknown) => void received.push(p));
    v2.registerClientHandlers(client, {});
    const [clientSide, serverSide] = MemoryV2.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    await server.notification({ method: 'acme/jobs.finished', params: { job: JOB } });
    await expect.poll(() => received).toEqual([{ job: JOB }]);
    await client.close();
  });
});
