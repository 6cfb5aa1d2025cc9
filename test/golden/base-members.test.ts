/** The line scan of a runtime base class's members (src/emit/base-members.ts) against TypeScript's parser. */
import ts from 'typescript';
import { expect, it } from 'vitest';
import { baseClassMembers } from '../../src/emit/base-members.js';
import { runtimeTemplates } from '../../src/emit/runtime.js';

function parsedMembers(template: string, className: string): string[] {
  const text = runtimeTemplates().find((t) => t.name === template)!.text;
  const source = ts.createSourceFile(template, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names = new Set<string>(['constructor']);
  source.forEachChild((node) => {
    if (!ts.isClassDeclaration(node) || node.name?.text !== className) return;
    for (const member of node.members) {
      const name = member.name;
      if (name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name))) names.add(name.text);
    }
  });
  return [...names].sort();
}

it('finds every non-# member of McpClientBase that the parser finds, and nothing else', () => {
  const parsed = parsedMembers('client-base.ts', 'McpClientBase');
  expect(parsed.length).toBeGreaterThan(10);
  expect([...baseClassMembers('client-base.ts', 'McpClientBase')].sort()).toEqual(parsed);
});
