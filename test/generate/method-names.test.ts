/**
 * Issue 43 item 4: a method name may hold any character the schema allows but a control character or a line
 * break (refused with its pointer: names-and-shapes.test.ts), and each is emitted the same way: as a quoted
 * member where it is no identifier. A name of one segment becomes a member of McpClient itself, where a quote, a
 * backslash, a backtick, a space or `<` stopped generation with "internal error: SyntaxError" (the member was
 * written unquoted). One schema holds a client request, a server request and a notification for each character;
 * every artifact is generated and compiled, and each client member calls its method by its exact string.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GenerateResult } from '../../src/generate.js';
import { generate } from '../../src/generate.js';
import { FIXTURE_SCHEMAS, tempDir, tscProject, writeFiles } from '../helpers/generate.js';

type Defs = Record<string, Record<string, unknown>>;

/** Each character next to letters, a method of one segment (a member of McpClient itself). */
const CHARACTERS = ['"', '\\', '`', ' ', '<', '>', "'", '$', '{', '#', '@', 'é', '\u00a0', '+'];
const NAMES = CHARACTERS.map((c, i) => `odd${i}${c}name`);

function schemaText(): string {
  const json = JSON.parse(readFileSync(join(FIXTURE_SCHEMAS, 'minimal.schema.json'), 'utf8')) as { $defs: Defs };
  const defs = json.$defs;
  const message = (method: string) => ({
    type: 'object',
    properties: { method: { const: method, type: 'string' }, params: { type: 'object' } },
    required: ['method'],
  });
  NAMES.forEach((name, i) => {
    defs[`Odd${i}Request`] = message(name);
    defs[`Odd${i}Result`] = { type: 'object', properties: { ok: { type: 'boolean' } } };
    defs[`Back${i}Request`] = message(`back/${name}`);
    defs[`Back${i}Result`] = { type: 'object' };
    defs[`Odd${i}Notification`] = message(`notifications/${name}`);
  });
  const refs = (kind: string) => NAMES.map((_, i) => ({ $ref: `#/$defs/${kind.replace('#', String(i))}` }));
  (defs.ClientRequest!.anyOf as unknown[]).push(...refs('Odd#Request'));
  defs.ServerRequest = { anyOf: refs('Back#Request') };
  (defs.ServerNotification!.anyOf as unknown[]).push(...refs('Odd#Notification'));
  return JSON.stringify(json);
}

let result: GenerateResult;
let dir: string;

beforeAll(async () => {
  result = await generate({
    schema: 'odd.schema.json',
    text: schemaText(),
    artifacts: ['types', 'maps', 'client', 'server', 'validators', 'sdk', 'sdk-v1'],
  });
  dir = tempDir('method-names');
  writeFiles(dir, result.files);
}, 120_000);

describe('method names of every character', () => {
  it('are all in the model, as written', () => {
    const methods = result.model.methods.map((m) => m.method);
    for (const name of NAMES) {
      expect(methods).toContain(name);
      expect(methods).toContain(`back/${name}`);
      expect(methods).toContain(`notifications/${name}`);
    }
  });

  it('each is a member of McpClient, quoted where it is no identifier, that calls its method by its exact string', () => {
    const text = result.files.find((f) => f.path === 'client.ts')!.contents;
    const source = ts.createSourceFile('client.ts', text, ts.ScriptTarget.ES2022, true);
    const client = source.statements.find(
      (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'McpClient',
    );
    const called = new Map<string, string | undefined>();
    for (const member of client!.members) {
      // Quoted where it is no identifier (prettier unquotes the rest, `odd7$name`, `odd11éname`).
      if (!ts.isMethodDeclaration(member) || !(ts.isStringLiteral(member.name) || ts.isIdentifier(member.name)))
        continue;
      const returned = member.body?.statements[0];
      const call = returned && ts.isReturnStatement(returned) ? returned.expression : undefined;
      const [method] = call && ts.isCallExpression(call) ? call.arguments : [];
      called.set(member.name.text, method && ts.isStringLiteral(method) ? method.text : undefined);
    }
    for (const name of NAMES) expect(called.get(name), name).toBe(name);
  });

  it('every artifact compiles under tsc --strict', async () => {
    const { code, stdout, stderr } = await tscProject(dir);
    expect(stdout + stderr).toBe('');
    expect(code).toBe(0);
  }, 120_000);
});
