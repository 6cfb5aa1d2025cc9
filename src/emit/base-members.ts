/**
 * The public members of a runtime base class (McpClientBase, …), read from its template: a generated
 * member of the subclass must not shadow one of them. Read from the source rather than listed by hand, so
 * a member added to the runtime is protected the day it is added. (`#` members cannot collide.)
 */
import ts from 'typescript';
import { runtimeTemplates } from './runtime.js';

const cache = new Map<string, ReadonlySet<string>>();

export function baseClassMembers(template: string, className: string): ReadonlySet<string> {
  const key = `${template}#${className}`;
  const known = cache.get(key);
  if (known) return known;
  const file = runtimeTemplates().find((t) => t.name === template);
  if (!file) throw new Error(`no runtime template ${template}`);
  const source = ts.createSourceFile(template, file.text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const members = new Set<string>(['constructor']);
  source.forEachChild((node) => {
    if (!ts.isClassDeclaration(node) || node.name?.text !== className) return;
    for (const member of node.members) {
      const name = member.name;
      if (name === undefined || ts.isPrivateIdentifier(name)) continue;
      if (ts.isIdentifier(name) || ts.isStringLiteral(name)) members.add(name.text);
    }
  });
  if (members.size === 1) throw new Error(`no class ${className} in runtime template ${template}`);
  cache.set(key, members);
  return members;
}
