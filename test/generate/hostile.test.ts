/**
 * A hand-written hostile schema (test/fixtures/schemas/hostile.schema.json): comment closers, template
 * syntax, backticks, U+2028, quotes, backslashes, `__proto__` / `constructor` property names, a method
 * string with quotes and a backslash, a reference cycle and injected `tsType` keywords. The output must
 * compile, every hostile text must stay inside a comment or a string literal, and the validators must
 * treat `__proto__` as the data it is.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GenerateResult } from '../../src/generate.js';
import { FIXTURE_SCHEMAS, ROOT, generatedFrom, tempDir, tscProject, writeFiles } from '../helpers/generate.js';

const SCHEMA = join(FIXTURE_SCHEMAS, 'hostile.schema.json');
const EVIL_METHOD = 'evil/"quoted"\\back`tick${x}*/';
const EVIL_NOTIFICATION = 'notifications/evil"\\';
const EVIL_KIND = 'it\'s "quoted" \\ and `${x}` */ \u2028 end';

let result: GenerateResult;
let dir: string;
const text = (path: string) => result.files.find((f) => f.path === path)!.contents;
const parse = (path: string) =>
  ts.createSourceFile(
    path,
    text(path),
    ts.ScriptTarget.ES2022,
    true,
    path.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS,
  );

function identifiers(node: ts.Node, out: string[] = []): string[] {
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) out.push(node.text);
  node.forEachChild((child) => void identifiers(child, out));
  return out;
}

function propertyName(name: ts.PropertyName): string {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  throw new Error(`unexpected property name kind ${ts.SyntaxKind[name.kind]}`);
}

function declaration<T extends ts.Statement>(source: ts.SourceFile, name: string): T {
  const found = source.statements.find(
    (s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === name,
  );
  if (!found) throw new Error(`${name} is not declared`);
  return found as T;
}

function members(node: ts.InterfaceDeclaration | ts.TypeLiteralNode): ts.PropertySignature[] {
  return node.members.map((m) => {
    if (!ts.isPropertySignature(m)) throw new Error(`unexpected member ${ts.SyntaxKind[m.kind]}`);
    return m;
  });
}

beforeAll(async () => {
  result = await generatedFrom({ schema: SCHEMA, cwd: ROOT, outDir: join(ROOT, 'test', '.tmp', 'unused-out') });
  dir = tempDir('hostile');
  writeFiles(dir, result.files);
});

describe('hostile schema', () => {
  it('yields the three methods, with the hostile method strings intact', () => {
    expect(result.model.methods.map((m) => [m.method, m.kind, m.directions, m.result])).toEqual([
      [EVIL_METHOD, 'request', ['client->server'], ['EvilResult']],
      [EVIL_NOTIFICATION, 'notification', ['client->server', 'server->client'], undefined],
      ['ping', 'request', ['client->server', 'server->client'], ['EmptyResult']],
    ]);
  });

  it('compiles under tsc --strict (every artifact)', async () => {
    const { code, stdout, stderr } = await tscProject(dir);
    expect(stdout + stderr).toBe('');
    expect(code).toBe(0);
  }, 120_000);

  it('types.ts declares one exported interface or type per definition (and per inline params), nothing else', () => {
    const source = parse('types.ts');
    const declared = source.statements.map((s) => {
      expect(ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s), ts.SyntaxKind[s.kind]).toBe(true);
      const d = s as ts.InterfaceDeclaration | ts.TypeAliasDeclaration;
      expect(d.modifiers?.map((m) => m.kind)).toEqual([ts.SyntaxKind.ExportKeyword]);
      return d.name.text;
    });
    expect(declared).toEqual([
      'ClientNotification',
      'ClientRequest',
      'EmptyResult',
      'EvilNotification',
      // The inline params of EvilNotification, by name (params-names.ts).
      'EvilNotificationParams',
      'EvilParams',
      'EvilRequest',
      'EvilResult',
      'PingRequest',
      'RequestId',
      'ServerNotification',
      'ServerRequest',
      'TreeEdge',
      'TreeNode',
    ]);
  });

  it('no hostile text becomes code: no `pwned…` identifier anywhere, but the text is still in the comments', () => {
    for (const path of result.files
      .map((f) => f.path)
      .filter((p) => /\.(ts|js)$/.test(p) && !p.startsWith('runtime/'))) {
      expect(
        identifiers(parse(path)).filter((id) => /pwned/i.test(id)),
        path,
      ).toEqual([]);
    }
    const source = parse('types.ts');
    const docs = (name: string) =>
      ts
        .getJSDocCommentsAndTags(declaration(source, name))
        .map((d) => d.getText(source))
        .join('\n');
    expect(docs('EvilRequest')).toContain('export const pwnedRequest = 1;');
    expect(docs('EvilRequest')).toContain('${pwnedTemplate}');
    expect(docs('EvilRequest')).toContain('`pwnedBacktick`');
    expect(docs('EvilParams')).toContain('pwnedGlobal');
  });

  it('`__proto__`, `constructor` and quoted names survive as property names; tsType is ignored', () => {
    const source = parse('types.ts');
    const params = members(declaration<ts.InterfaceDeclaration>(source, 'EvilParams'));
    expect(params.map((m) => [propertyName(m.name), Boolean(m.questionToken)])).toEqual([
      ['__proto__', false],
      ['constructor', false],
      ['quote"d', true],
      ['back\\slash', true],
      ['kind', false],
      ['tree', true],
      ['injected', true],
    ]);
    const kind = params.find((m) => propertyName(m.name) === 'kind')!.type!;
    expect(ts.isLiteralTypeNode(kind) && ts.isStringLiteral(kind.literal) && kind.literal.text).toBe(EVIL_KIND);
    const injected = params.find((m) => propertyName(m.name) === 'injected')!.type!;
    expect(injected.kind).toBe(ts.SyntaxKind.BooleanKeyword);
    const resultDecl = declaration<ts.InterfaceDeclaration>(source, 'EvilResult');
    expect(ts.isInterfaceDeclaration(resultDecl)).toBe(true);
    expect(members(resultDecl).map((m) => propertyName(m.name))).toEqual(['constructor', '__proto__', 'ok']);
    // The method const is the literal type of EvilRequest.method, byte for byte.
    const method = members(declaration<ts.InterfaceDeclaration>(source, 'EvilRequest')).find(
      (m) => propertyName(m.name) === 'method',
    )!.type!;
    expect(ts.isLiteralTypeNode(method) && ts.isStringLiteral(method.literal) && method.literal.text).toBe(EVIL_METHOD);
  });

  it('the cycle TreeNode → TreeEdge → TreeNode is two named references, not an inlined expansion', () => {
    const source = parse('types.ts');
    const typeText = (name: string, prop: string) =>
      members(declaration<ts.InterfaceDeclaration>(source, name))
        .find((m) => propertyName(m.name) === prop)!
        .type!.getText(source);
    expect(typeText('TreeNode', 'parent')).toBe('TreeEdge');
    expect(typeText('TreeEdge', 'child')).toBe('TreeNode');
  });

  it('maps.ts keys the tables by the exact method strings', () => {
    const source = parse('maps.ts');
    const table = (name: string) => {
      const alias = declaration<ts.TypeAliasDeclaration>(source, name);
      expect(ts.isTypeLiteralNode(alias.type)).toBe(true);
      return members(alias.type as ts.TypeLiteralNode).map((m) => propertyName(m.name));
    };
    expect(table('ClientRequests')).toEqual([EVIL_METHOD, 'ping']);
    expect(table('ServerRequests')).toEqual(['ping']);
    expect(table('ClientNotifications')).toEqual([EVIL_NOTIFICATION]);
    expect(table('ServerNotifications')).toEqual([EVIL_NOTIFICATION]);
  });

  it('no raw U+2028 / U+2029 in any generated file (escaped in strings, line breaks in comments)', () => {
    for (const file of result.files) expect(/[\u2028\u2029]/.test(file.contents), file.path).toBe(false);
  });

  it('the validators module imports and validates hostile instances', async () => {
    const v = (await import(pathToFileURL(join(dir, 'validators.js')).href)) as Record<string, unknown> & {
      paramsValidators: Record<string, (data: unknown) => boolean>;
      resultValidators: Record<string, (data: unknown) => boolean>;
    };
    const EvilParams = v.EvilParams as ((data: unknown) => boolean) & { errors?: unknown[] | null };
    // JSON.parse makes "__proto__" an own data property, as a JSON-RPC message would.
    const good = JSON.parse(
      JSON.stringify({ constructor: 1, kind: EVIL_KIND }).replace('{', '{"__proto__":"x",'),
    ) as unknown;
    expect(Object.hasOwn(good as object, '__proto__')).toBe(true);
    expect(EvilParams(good)).toBe(true);
    // Required names are own properties, never inherited ones (Object.prototype has both).
    expect(EvilParams({ constructor: 1, kind: EVIL_KIND })).toBe(false);
    expect(EvilParams(JSON.parse(`{"__proto__": "x", "kind": ${JSON.stringify(EVIL_KIND)}}`))).toBe(false);
    expect(
      EvilParams(JSON.parse(`{"__proto__": "x", "constructor": "not a number", "kind": ${JSON.stringify(EVIL_KIND)}}`)),
    ).toBe(false);
    expect(EvilParams(JSON.parse(`{"__proto__": "x", "constructor": 1, "kind": "other"}`))).toBe(false);
    // Through the cycle.
    const withTree = (tree: unknown) =>
      JSON.parse(
        `{"__proto__": "x", "constructor": 1, "kind": ${JSON.stringify(EVIL_KIND)}, "tree": ${JSON.stringify(tree)}}`,
      ) as unknown;
    expect(EvilParams(withTree({ parent: { child: { parent: { child: { label: 'leaf' } } } } }))).toBe(true);
    expect(EvilParams(withTree({ parent: { child: { parent: {} } } }))).toBe(false);
    // Tables keyed by the hostile method and result names; inherited names are not entries.
    expect(v.paramsValidators[EVIL_METHOD]).toBe(EvilParams);
    expect(Object.getPrototypeOf(v.paramsValidators)).toBe(null);
    expect(v.paramsValidators['constructor']).toBeUndefined();
    expect(v.resultValidators['EvilResult']!({ ok: true, constructor: 'c' })).toBe(true);
    expect(v.resultValidators['EvilResult']!({ ok: false })).toBe(false);
    // An optional `constructor` that is absent is not checked against the inherited Object.prototype.constructor.
    expect(v.resultValidators['EvilResult']!({ ok: true })).toBe(true);
  });

  // ajv skips the schema of a property named "__proto__" under `properties`; validators.js moves it to
  // patternProperties so the value is still checked.
  it('the validators check the value of a "__proto__" property', async () => {
    const v = (await import(pathToFileURL(join(dir, 'validators.js')).href)) as Record<
      string,
      (data: unknown) => boolean
    >;
    expect(v.EvilParams!(JSON.parse(`{"__proto__": 5, "constructor": 1, "kind": ${JSON.stringify(EVIL_KIND)}}`))).toBe(
      false,
    );
  });

  it('validators.d.ts declares every value validators.js exports, with an explicit type', async () => {
    const v = (await import(pathToFileURL(join(dir, 'validators.js')).href)) as Record<string, unknown>;
    const source = parse('validators.d.ts');
    const typed = source.statements
      .filter(ts.isVariableStatement)
      .filter((s) => s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
      .flatMap((s) => s.declarationList.declarations.filter((d) => d.type !== undefined))
      .map((d) => (d.name as ts.Identifier).text);
    expect(typed.sort()).toEqual(Object.keys(v).sort());
  });
});
