/** Ignore files: which facts a project accepts (matched on rule and location key). */
import { InputError } from '../errors.js';
import { ruleById, rules } from './rule-table.js';
import type { Fact, IgnoredFact, IgnoreEntry } from './types.js';

/** Split facts into kept and ignored (before deduplication, so an entry matches one method's fact). */
export function applyIgnores(facts: Fact[], entries: IgnoreEntry[]): { kept: Fact[]; ignored: IgnoredFact[] } {
  const kept: Fact[] = [];
  const ignored: IgnoredFact[] = [];
  const matchers = entries.map((e) => ({ entry: e, test: locationMatcher(e.location) }));
  for (const fact of facts) {
    const hit = matchers.find((m) => m.entry.rule === fact.rule && m.test(fact.location.key));
    if (hit) ignored.push({ fact, reason: hit.entry.reason ?? null });
    else kept.push(fact);
  }
  return { kept, ignored };
}

function locationMatcher(location: string | undefined): (key: string) => boolean {
  if (location === undefined || location === '*') return () => true;
  if (!location.includes('*')) return (key) => key === location;
  const re = new RegExp(
    `^${location
      .split('*')
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return (key) => re.test(key);
}

/**
 * Parse and check an ignore file: a JSON array of `{ rule, location?, reason? }`.
 * An unknown rule id or a malformed entry is an InputError with the pointer of the offending value.
 */
export function parseIgnoreFile(text: string, file: string): IgnoreEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(file, '', `not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(data))
    throw new InputError(file, '', 'an ignore file must be a JSON array of { "rule", "location"?, "reason"? }');
  return data.map((entry, i): IgnoreEntry => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new InputError(file, `/${i}`, 'an ignore entry must be an object');
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      if (key !== 'rule' && key !== 'location' && key !== 'reason')
        throw new InputError(file, `/${i}/${key}`, `unknown key "${key}" (expected rule, location, reason)`);
    }
    if (typeof e.rule !== 'string') throw new InputError(file, `/${i}/rule`, 'rule must be a string');
    if (!ruleById(e.rule)) {
      throw new InputError(
        file,
        `/${i}/rule`,
        `unknown rule "${e.rule}"`,
        `known rules: mcp-typegen diff --rules (${rules().length} rules)`,
      );
    }
    if (e.location !== undefined && typeof e.location !== 'string')
      throw new InputError(file, `/${i}/location`, 'location must be a string');
    if (e.reason !== undefined && typeof e.reason !== 'string')
      throw new InputError(file, `/${i}/reason`, 'reason must be a string');
    const out: IgnoreEntry = { rule: e.rule };
    if (e.location !== undefined) out.location = e.location as string;
    if (e.reason !== undefined) out.reason = e.reason as string;
    return out;
  });
}
