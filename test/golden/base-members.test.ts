/** A runtime base class's members (src/emit/shared/base-members.ts), read by ts-morph from the template. */
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseClassMembers, MEMBER_RECORD_FILE, recordMembers } from '../../src/emit/shared/base-members.js';
import { createTsFiles } from '../../src/emit/shared/ts-project.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

it("lists McpClientBase's public and protected members, never a # member", async () => {
  const members = baseClassMembers(await createTsFiles(), 'peer/client-base.ts', 'McpClientBase');
  // A stub named like any of these would shadow the base class's own member.
  for (const name of ['constructor', 'connect', 'request', 'call', 'notify', 'close', 'capabilities'])
    expect(members).toContain(name);
  expect([...members].filter((m) => m.startsWith('#'))).toEqual([]);
  // Private runtime state (`#tools`) is no member a stub can collide with.
  expect(members).not.toContain('tools');
});

it('refuses a class the template does not declare', async () => {
  const files = await createTsFiles();
  expect(() => baseClassMembers(files, 'peer/client-base.ts', 'NoSuchClass')).toThrow(
    /no class NoSuchClass in runtime template peer\/client-base\.ts/,
  );
});

it('finds a template by its file name alone when no other has it (src/emit/client.ts asks for client-base.ts)', async () => {
  const files = await createTsFiles();
  expect(baseClassMembers(files, 'client-base.ts', 'McpClientBase')).toBe(
    baseClassMembers(files, 'peer/client-base.ts', 'McpClientBase'),
  );
  expect(() => baseClassMembers(files, 'no-such-base.ts', 'McpClientBase')).toThrow(
    /no runtime template no-such-base\.ts/,
  );
});

it("the build's record of the members (read by the bin instead of parsing) is what the templates say today", async () => {
  // The suite runs against a fresh build (test/setup/fresh-builds.ts): the record must equal a parse now.
  const expected = recordMembers(await createTsFiles());
  for (const dir of ['dist/src/emit/shared', 'dist/cli']) {
    const record: unknown = JSON.parse(readFileSync(join(ROOT, dir, MEMBER_RECORD_FILE), 'utf8'));
    expect(record).toEqual(expected);
  }
});
