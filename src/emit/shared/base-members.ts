/**
 * The members of a runtime base class (McpClientBase, …), read from its template with ts-morph: a
 * generated member of the subclass must not shadow one of them. Read from the source rather than listed by
 * hand, so a member added to the runtime is protected the day it is added. (`#` members cannot collide.)
 *
 * Parsing a template costs a cold TypeScript parse (~50 ms) on every run, so the build reads them once
 * (`npm run build` writes base-members.json beside the built module, keyed by the template's sha256); a run
 * uses that record only when the template's text still hashes the same, and parses otherwise.
 */
import { readFileSync } from 'node:fs';
import { sha256 } from '../../load/hash.js';
import { runtimeTemplates } from './runtime.js';
import { tsMorph, type TsFiles } from './ts-project.js';

/** Every base class a generated class extends: what the build records. */
export const BASE_CLASSES = [{ template: 'peer/client-base.ts', className: 'McpClientBase' }] as const;

/** What the build writes: for each `template#class`, the template's sha256 and the members read from it. */
export type MemberRecord = Record<string, { sha256: string; members: string[] }>;

export const MEMBER_RECORD_FILE = 'base-members.json';

/** The templates are the same text for the whole process: each class is read once. */
const cache = new Map<string, ReadonlySet<string>>();
let recorded: MemberRecord | undefined;

export function baseClassMembers(files: TsFiles, template: string, className: string): ReadonlySet<string> {
  const path = templatePath(template);
  const key = `${path}#${className}`;
  const known = cache.get(key);
  if (known) return known;
  const text = templateText(path);
  const record = memberRecord()[key];
  const members =
    record?.sha256 === sha256(text) ? new Set(record.members) : classMembers(files, path, text, className);
  cache.set(key, members);
  return members;
}

/** The record `BASE_CLASSES` make, for the build to write (every class parsed, never read from a record). */
export function recordMembers(files: TsFiles): MemberRecord {
  const record: MemberRecord = {};
  for (const { template, className } of BASE_CLASSES) {
    const path = templatePath(template);
    const text = templateText(path);
    record[`${path}#${className}`] = {
      sha256: sha256(text),
      members: [...classMembers(files, path, text, className)].sort(),
    };
  }
  return record;
}

/** Whether `record` holds every base class, each for the template text on disk now. */
export function recordedIsCurrent(record: MemberRecord): boolean {
  return BASE_CLASSES.every(({ template, className }) => {
    const path = templatePath(template);
    return record[`${path}#${className}`]?.sha256 === sha256(templateText(path));
  });
}

/**
 * A template's path under templates/ (`peer/client-base.ts`), given that path or its file name alone
 * (`client-base.ts`, when no other template has that name).
 */
function templatePath(template: string): string {
  const names = runtimeTemplates().map((t) => t.name);
  if (names.includes(template)) return template;
  const named = names.filter((name) => name.endsWith(`/${template}`));
  if (named.length !== 1 || named[0] === undefined) throw new Error(`no runtime template ${template}`);
  return named[0];
}

function templateText(path: string): string {
  const text = runtimeTemplates().find((t) => t.name === path)?.text;
  if (text === undefined) throw new Error(`no runtime template ${path}`);
  return text;
}

function classMembers(files: TsFiles, template: string, text: string, className: string): Set<string> {
  const declaration = files.add(`runtime-templates/${template}`, text).getClass(className);
  if (declaration === undefined) throw new Error(`no class ${className} in runtime template ${template}`);
  const { ts } = tsMorph();
  const members = new Set<string>(['constructor']);
  for (const member of declaration.compilerNode.members) {
    const name = member.name;
    if (name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name))) members.add(name.text);
  }
  return members;
}

/** The build's record beside this module, or none (a run from the sources: every class is parsed). */
function memberRecord(): MemberRecord {
  if (recorded) return recorded;
  try {
    recorded = JSON.parse(readFileSync(new URL(MEMBER_RECORD_FILE, import.meta.url), 'utf8')) as MemberRecord;
  } catch {
    recorded = {};
  }
  return recorded;
}
