/**
 * Issue 35, item 5: SEP-2640 skills ship as an official extension (`--ext io.modelcontextprotocol/skills`,
 * schema/extensions/skills.extension.json), whose `resources/directory/read` lives in MCP's own
 * `resources/` namespace because the file says it owns `resources/directory/`. Against the v2 SDK 2.4.0
 * both ways, in process over the in-memory pair:
 * - its SkillsClient lists, gets, reads (digest, size and frontmatter verified) and reads a directory of a
 *   generated server;
 * - a generated client (2025-11-25 and 2026-07-28) lists, gets and reads the skills of an SDK McpServer
 *   with a SkillCatalog attached, and reads the server's skills settings typed.
 */
import { createHash } from 'node:crypto';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { McpServer as V2Server } from '@modelcontextprotocol/server';
import { SkillsExtension, memorySkillFiles } from '@modelcontextprotocol/server/ext/skills';
import { ProtocolError, createInMemoryPair } from '@mcp-typegen/runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generated, tempDir, writeFiles } from '../helpers/generate.js';
import { buildJs, diagnostics, importGenerated } from './helpers.js';

type Json = Record<string, any>;
const ID = 'io.modelcontextprotocol/skills';
const SKILL_MD = '---\nname: demo\ndescription: A demo skill\n---\n\nRead references/GUIDE.md first.\n';
const GUIDE = '# Guide\n\nStep one.\n';
const FILES: Record<string, string> = { 'SKILL.md': SKILL_MD, 'references/GUIDE.md': GUIDE };
let gen: Json;
const outputs: { v2025?: Json; v2026?: Json } = {};

beforeAll(async () => {
  gen = outputs.v2025 = await importGenerated('skills', await generated('2025-11-25', { extensions: [ID] }));
  outputs.v2026 = await importGenerated('skills-2026', await generated('2026-07-28', { extensions: [ID] }));
}, 120_000);

const uriOf = (path: string) => `skill://demo/${path}`;
const digest = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const entry = {
  uri: uriOf('SKILL.md'),
  frontmatter: { name: 'demo', description: 'A demo skill' },
  resources: Object.entries(FILES).map(([path, text]) => ({
    uri: uriOf(path),
    digest: digest(text),
    size: Buffer.byteLength(text),
  })),
};

/** A generated server serving the demo skill: the handlers leave ttlMs/cacheScope to the runtime's defaults. */
function generatedServer(output: Json = gen) {
  return output.createServer(
    {
      'skills/list': () => ({ skills: [entry] }),
      'skills/get': (p: Json) => {
        if (p.uri !== entry.uri) throw new ProtocolError(-32602, `No skill at ${p.uri}`);
        return { skill: entry };
      },
      'resources/directory/read': (p: Json) => ({
        resources:
          p.uri === 'skill://demo'
            ? [
                { uri: uriOf('SKILL.md'), name: 'SKILL.md', mimeType: 'text/markdown' },
                { uri: uriOf('references'), name: 'references', mimeType: 'inode/directory' },
              ]
            : [],
      }),
      'resources/read': (p: Json) => {
        const path = String(p.uri).slice('skill://demo/'.length);
        const text = FILES[path];
        if (text === undefined) throw new ProtocolError(-32602, `No resource ${p.uri}`);
        return { contents: [{ uri: p.uri, mimeType: 'text/markdown', text }] };
      },
    },
    {
      serverInfo: { name: 'skills-server', version: '1.0.0' },
      capabilities: { extensions: { [ID]: { directoryRead: true } } },
    },
  );
}

describe('SEP-2640 skills against the v2 SDK', () => {
  // The SDK client opens with initialize: a 2026-07-28 server serves it a legacy session, which is told of
  // the extensions that target its version (skills targets 2025-11-25 too).
  it.each(['2025-11-25', '2026-07-28'] as const)(
    'its SkillsClient lists, gets, verifies and reads a directory of a generated %s server',
    async (version) => {
      const [clientSide, serverSide] = createInMemoryPair();
      await generatedServer(version === '2025-11-25' ? outputs.v2025 : outputs.v2026).connect(serverSide);
      const client = new V2Client({ name: 'skills-host', version: '1.0.0' });
      await client.connect(clientSide as never);
      try {
        const skills = new SkillsClient(client);
        expect([skills.supported, skills.directoryRead]).toEqual([true, true]);
        const listing = await skills.list();
        expect(listing.skills).toEqual([entry]);
        const manifest = await skills.read(listing.skills[0]!);
        expect(manifest).toMatchObject({ verified: true, frontmatter: entry.frontmatter });
        expect(manifest.body).toContain('Read references/GUIDE.md first.');
        expect((await skills.read(entry, 'references/GUIDE.md')).text).toBe(GUIDE);
        expect((await skills.get(entry.uri)).skill).toEqual(entry);
        await expect(skills.get('skill://nope/SKILL.md')).rejects.toThrow(/No skill at skill:\/\/nope\/SKILL.md/);
        const directory = await skills.readDirectory('skill://demo');
        expect(directory.resources.map((r) => r.uri)).toEqual([uriOf('SKILL.md'), uriOf('references')]);
      } finally {
        await client.close();
      }
    },
  );

  it.each(['2025-11-25', '2026-07-28'])(
    'a generated %s client lists, gets and reads the skills of an SDK server with a SkillCatalog',
    async (version) => {
      const gen = (version === '2025-11-25' ? outputs.v2025 : outputs.v2026) as Json;
      const [clientSide, serverSide] = createInMemoryPair();
      const server = new V2Server({ name: 'sdk-skills', version: '1.0.0' });
      const catalog = await SkillsExtension.load(
        memorySkillFiles(Object.fromEntries(Object.entries(FILES).map(([path, text]) => [`demo/${path}`, text]))),
      );
      catalog.attach(server);
      await server.connect(serverSide as never);
      const client = gen.createClient(clientSide, { clientInfo: { name: 'generated-host', version: '1.0.0' } });
      await client.connect();
      try {
        const listed = await client.skills.list();
        // The SDK server speaks initialize: a 2026-07-28 client falls back, and fills the cache hints a
        // "cacheable" result has in its version with the defaults, as it does for tools/list.
        expect(client.era).toBe('legacy');
        expect([listed.cacheScope, listed.ttlMs]).toEqual(
          version === '2026-07-28' ? ['private', 0] : [undefined, undefined],
        );
        expect(listed.skills).toHaveLength(1);
        const [skill] = listed.skills;
        expect(skill.frontmatter).toMatchObject(entry.frontmatter);
        expect(skill.resources).toEqual(expect.arrayContaining(entry.resources));
        expect((await client.skills.get({ uri: skill.uri })).skill).toEqual(skill);
        const read = await client.resources.read({ uri: skill.uri });
        expect(read.contents[0].text).toBe(SKILL_MD);
        const settings = gen.extensionSettings(client.serverCapabilities, ID);
        expect(settings).toBeDefined();
        if (settings?.directoryRead === true) {
          const children = await client.resources.directory.read({ uri: skill.uri.replace(/\/SKILL\.md$/, '') });
          expect(children.resources.map((r: Json) => r.uri)).toEqual(
            expect.arrayContaining([skill.uri.replace(/SKILL\.md$/, 'references')]),
          );
        }
      } finally {
        await client.close();
        await server.close();
      }
    },
  );
});

describe('SEP-2640: the frontmatter is the SKILL.md frontmatter, whatever fields it has (issue 46)', () => {
  it('SkillFrontmatter takes license, metadata, allowed-tools and any other field, and still needs name and description', async () => {
    const dir = tempDir('skills-frontmatter');
    writeFiles(join(dir, 'generated'), (await generated('2025-11-25', { extensions: [ID] })).files);
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(dir, 'probe.ts'),
      [
        "import type { SkillFrontmatter } from './generated/types.js';",
        'export const full: SkillFrontmatter = {',
        "  name: 'refunds',",
        "  description: 'Refund a payment',",
        "  license: 'MIT',",
        "  'allowed-tools': 'Bash(git:*)',",
        "  metadata: { 'io.example/owner': 'billing' },",
        '};',
        '// @ts-expect-error -- description is required',
        "export const partial: SkillFrontmatter = { name: 'refunds' };",
        '',
      ].join('\n'),
    );
    expect(diagnostics(await buildJs(dir))).toEqual([]);
  }, 120_000);
});

describe('SEP-2640: what advertising skills commits a server to, and what a client may send (issue 46)', () => {
  const info = { name: 'skills-server', version: '1.0.0' };
  const listOnly = { 'skills/list': () => ({ skills: [entry] }) };

  it.each(['2025-11-25', '2026-07-28'] as const)(
    'a %s server handling skills/list but not skills/get is refused at creation, naming what is missing',
    (version) => {
      const gen = (version === '2025-11-25' ? outputs.v2025 : outputs.v2026) as Json;
      expect(() => gen.createServer(listOnly, { serverInfo: info })).toThrow(
        `createServer: a server advertising the ${ID} extension must handle skills/get and skills/list; skills/get has no handler`,
      );
      // Advertised through the capabilities alone: the same.
      const advertised = { serverInfo: info, capabilities: { extensions: { [ID]: {} } } };
      expect(() => gen.createServer({}, advertised)).toThrow(/skills\/get, skills\/list has no handler/);
      // Neither advertised nor handled: a server without skills.
      expect(() => gen.createServer({}, { serverInfo: info })).not.toThrow();
    },
  );

  it.each(['2025-11-25', '2026-07-28'] as const)(
    'a %s server handling resources/directory/read says directoryRead: true without being told, and only then',
    async (version) => {
      const gen = (version === '2025-11-25' ? outputs.v2025 : outputs.v2026) as Json;
      const handlers = (directory: boolean) => ({
        'skills/list': () => ({ skills: [entry] }),
        'skills/get': () => ({ skill: entry }),
        ...(directory ? { 'resources/directory/read': () => ({ resources: [] }) } : {}),
      });
      const settingsSeen = async (server: Json) => {
        const [clientSide, serverSide] = createInMemoryPair();
        await server.connect(serverSide);
        const client = gen.createClient(clientSide, { clientInfo: { name: 'skills-host', version: '1.0.0' } });
        await client.connect();
        try {
          return client.serverCapabilities?.['extensions']?.[ID];
        } finally {
          await client.close();
        }
      };
      expect(await settingsSeen(gen.createServer(handlers(true), { serverInfo: info }))).toEqual({
        directoryRead: true,
      });
      expect(await settingsSeen(gen.createServer(handlers(false), { serverInfo: info }))).toEqual({});
      // The user's own settings are laid over what the handlers say.
      const off = { serverInfo: info, capabilities: { extensions: { [ID]: { directoryRead: false } } } };
      expect(await settingsSeen(gen.createServer(handlers(true), off))).toEqual({ directoryRead: false });
    },
  );

  it.each(['2025-11-25', '2026-07-28'] as const)(
    'a generated %s client does not send resources/directory/read to a server whose settings do not offer it',
    async (version) => {
      const gen = (version === '2025-11-25' ? outputs.v2025 : outputs.v2026) as Json;
      const run = async (directoryRead: boolean) => {
        const [clientSide, serverSide] = createInMemoryPair();
        const server = gen.createServer(
          {
            'skills/list': () => ({ skills: [entry] }),
            'skills/get': () => ({ skill: entry }),
            'resources/directory/read': () => ({ resources: [] }),
          },
          { serverInfo: info, capabilities: { extensions: { [ID]: { directoryRead } } } },
        );
        await server.connect(serverSide);
        const sent: string[] = [];
        const send = clientSide.send.bind(clientSide);
        clientSide.send = (message: Json) => {
          if (typeof message.method === 'string') sent.push(message.method);
          return send(message as never);
        };
        const client = gen.createClient(clientSide, { clientInfo: { name: 'host', version: '1.0.0' } });
        await client.connect();
        try {
          const typed = client.resources.directory.read({ uri: 'skill://demo' });
          const untyped = client.request('resources/directory/read', { uri: 'skill://demo' });
          return { results: await Promise.allSettled([typed, untyped]), sent };
        } finally {
          await client.close();
        }
      };
      const refused = await run(false);
      for (const result of refused.results) {
        expect(result.status).toBe('rejected');
        const reason = (result as PromiseRejectedResult).reason;
        expect([reason.name, reason.code]).toEqual(['LocalError', -32601]);
        expect(reason.message).toBe(
          `resources/directory/read: the server does not offer it (its ${ID} settings do not say directoryRead: true)`,
        );
      }
      expect(refused.sent).not.toContain('resources/directory/read');
      const offered = await run(true);
      expect(offered.results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      expect(offered.sent.filter((m) => m === 'resources/directory/read')).toHaveLength(2);
    },
  );
});
