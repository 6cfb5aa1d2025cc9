/**
 * The members of a runtime base class (McpClientBase, …), read from its template: a generated member of
 * the subclass must not shadow one of them. Read from the source rather than listed by hand, so a member
 * added to the runtime is protected the day it is added. (`#` members cannot collide.)
 *
 * The templates are kept in prettier's layout (a test checks it), so a class member is a line indented
 * by exactly two spaces inside the class body: a line scan reads them without loading a TypeScript parser
 * (test/golden/base-members.test.ts compares it with one).
 */
import { runtimeTemplates } from './runtime.js';

const cache = new Map<string, ReadonlySet<string>>();

const MEMBER =
  /^ {2}(?:(?:public|private|protected|readonly|static|async|get|set|override|declare|abstract|accessor)\s+)*(#?[A-Za-z_$][\w$]*|'[^']*'|"[^"]*")/;

export function baseClassMembers(template: string, className: string): ReadonlySet<string> {
  const key = `${template}#${className}`;
  const known = cache.get(key);
  if (known) return known;
  const file = runtimeTemplates().find((t) => t.name === template);
  if (!file) throw new Error(`no runtime template ${template}`);
  const lines = file.text.split('\n');
  let i = lines.findIndex((l) => new RegExp(`^(export )?(abstract )?class ${className}\\b`).test(l));
  if (i < 0) throw new Error(`no class ${className} in runtime template ${template}`);
  // The body starts after the header's last line (type parameters may spread it over several).
  while (i < lines.length && !lines[i]!.endsWith('{')) i++;
  const members = new Set<string>(['constructor']);
  for (i++; i < lines.length && lines[i] !== '}'; i++) {
    const name = MEMBER.exec(lines[i]!)?.[1];
    if (name === undefined || name.startsWith('#')) continue;
    members.add(/^['"]/.test(name) ? name.slice(1, -1) : name);
  }
  cache.set(key, members);
  return members;
}
