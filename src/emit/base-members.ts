/**
 * The members of a runtime base class (McpClientBase, …), read from its template with ts-morph in the
 * run's Project: a generated member of the subclass must not shadow one of them. Read from the source
 * rather than listed by hand, so a member added to the runtime is protected the day it is added.
 * (`#` members cannot collide.)
 */
import { runtimeTemplates } from './runtime.js';
import { tsMorph, type TsFiles } from './ts-project.js';

/** The templates are the same text for the whole process: each class is read once. */
const cache = new Map<string, ReadonlySet<string>>();

export function baseClassMembers(files: TsFiles, template: string, className: string): ReadonlySet<string> {
  const key = `${template}#${className}`;
  const known = cache.get(key);
  if (known) return known;
  const text = runtimeTemplates().find((t) => t.name === template)?.text;
  if (text === undefined) throw new Error(`no runtime template ${template}`);
  const declaration = files.add(`runtime-templates/${template}`, text).getClass(className);
  if (declaration === undefined) throw new Error(`no class ${className} in runtime template ${template}`);
  const { ts } = tsMorph();
  const members = new Set<string>(['constructor']);
  for (const member of declaration.compilerNode.members) {
    const name = member.name;
    if (name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name))) members.add(name.text);
  }
  cache.set(key, members);
  return members;
}
