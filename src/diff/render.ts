/**
 * Renderers of a DiffReport: pure functions returning strings.
 * - text: default, grouped by method;
 * - json: stable key order, described by schema/diff-report.schema.json;
 * - markdown: for a PR comment (markdown.ts): summary first, breaking first, the rest collapsed, bounded;
 * - github: GitHub Actions workflow commands (github.ts): errors and warnings with file and line.
 */
import { rules } from './rule-table.js';
import { renderGithub } from './github.js';
import { renderMarkdown } from './markdown.js';
import { headerNotes, mdCell, sidesOf, summaryLine, type RenderOptions } from './render-common.js';
import type { DiffReport, Fact, Side, Verdict } from './types.js';

export { renderGithub, escapeGithubData, escapeGithubProperty } from './github.js';
export { renderMarkdown, MARKDOWN_BUDGET } from './markdown.js';
export type { RenderOptions, SchemaLocator } from './render-common.js';

export type ReportFormat = 'text' | 'json' | 'markdown' | 'github';
export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'json', 'markdown', 'github'];

/** Version of the JSON report format (`schema/diff-report.schema.json`). */
export const REPORT_FORMAT_VERSION = 2;

export function renderReport(report: DiffReport, format: ReportFormat, options: RenderOptions = {}): string {
  switch (format) {
    case 'text':
      return renderText(report, options);
    case 'json':
      return renderJson(report);
    case 'markdown':
      return renderMarkdown(report, options);
    case 'github':
      return renderGithub(report, options);
  }
}

function groupTitle(fact: Fact): string {
  const l = fact.location;
  if (l.part === 'protocol') return 'protocol';
  if (l.part === 'envelope') return `JSON-RPC ${l.method.replace('-', ' ')} (envelope)`;
  return `${l.method} (${l.kind ?? 'result union'}${l.directions.length ? `, ${l.directions.join(', ')}` : ''})`;
}

function groups(facts: Fact[]): [string, Fact[]][] {
  const out: [string, Fact[]][] = [];
  let current: string | undefined;
  for (const f of facts) {
    const key = f.location.part === 'protocol' ? '\u0000protocol' : f.location.method;
    const last = out.at(-1);
    if (key !== current || last === undefined) {
      out.push([groupTitle(f), [f]]);
      current = key;
    } else {
      last[1].push(f);
    }
  }
  return out;
}

const SHORT: Record<Verdict, string> = {
  breaking: 'BREAKING',
  'potentially-breaking': 'potential',
  'non-breaking': 'ok',
};

export function renderText(report: DiffReport, options: RenderOptions = {}): string {
  const sides = sidesOf(options);
  const lines: string[] = [`mcp-typegen diff: ${report.old.name} → ${report.new.name}`, ...headerNotes(report)];
  if (report.facts.length === 0) lines.push('', 'No changes.');
  for (const [title, facts] of groups(report.facts)) {
    lines.push('', title);
    for (const f of facts) {
      const verdicts = sides.map((s) => `${s}: ${SHORT[f.verdicts[s]]}`).join(', ');
      const where = f.location.path ? `${f.location.path}: ` : '';
      const also = f.location.methods.length > 1 ? ` (also ${f.location.methods.slice(1).join(', ')})` : '';
      lines.push(`  [${verdicts}] ${f.rule}  ${where}${f.message}${also}`);
    }
  }
  lines.push('', summaryLine(report, sides));
  return lines.join('\n') + '\n';
}

/** JSON with a fixed key order; facts are already sorted by diffModels. */
export function renderJson(report: DiffReport): string {
  const fact = (f: Fact): unknown => ({
    rule: f.rule,
    location: {
      method: f.location.method,
      methods: f.location.methods,
      kind: f.location.kind,
      directions: f.location.directions,
      part: f.location.part,
      path: f.location.path,
      key: f.location.key,
      oldPointer: f.location.oldPointer,
      newPointer: f.location.newPointer,
      side: f.location.side,
    },
    verdicts: { client: f.verdicts.client, server: f.verdicts.server },
    message: f.message,
    details: Object.fromEntries(
      Object.keys(f.details)
        .sort()
        .map((k) => [k, f.details[k]]),
    ),
  });
  const counts = (s: Side): unknown => ({
    breaking: report.summary[s].breaking,
    'potentially-breaking': report.summary[s]['potentially-breaking'],
    'non-breaking': report.summary[s]['non-breaking'],
  });
  const side = (s: DiffReport['old']): unknown => ({
    name: s.name,
    version: s.version,
    dialect: s.dialect,
    extensions: s.extensions,
    pairedByName: s.pairedByName,
  });
  const out = {
    formatVersion: REPORT_FORMAT_VERSION,
    old: side(report.old),
    new: side(report.new),
    summary: {
      facts: report.summary.facts,
      ignored: report.summary.ignored,
      client: counts('client'),
      server: counts('server'),
    },
    notes: report.notes.map((n) => ({ side: n.side, pointer: n.pointer, message: n.message })),
    facts: report.facts.map(fact),
    ignored: report.ignored.map((i) => ({ fact: fact(i.fact), reason: i.reason })),
  };
  return JSON.stringify(out, null, 2) + '\n';
}

/** `diff --rules`: every rule with its reason and verdict logic. */
export function renderRules(format: 'text' | 'json' | 'markdown' = 'text'): string {
  if (format === 'json') {
    const rows = rules().map((r) => ({
      id: r.id,
      part: r.part,
      reason: r.reason,
      roles: r.roles,
      consequences: r.consequences,
      verdictLogic: r.verdictLogic,
    }));
    return JSON.stringify(rows, null, 2) + '\n';
  }
  if (format === 'markdown') {
    const lines = ['| Rule | Part | Reason | Verdicts |', '| --- | --- | --- | --- |'];
    for (const r of rules())
      lines.push(`| \`${r.id}\` | ${r.part} | ${mdCell(r.reason)} | ${mdCell(r.verdictLogic)} |`);
    return lines.join('\n') + '\n';
  }
  const all = rules();
  const width = Math.max(...all.map((r) => r.id.length));
  return (
    all.map((r) => `${r.id.padEnd(width)}  ${r.reason}\n${' '.repeat(width + 2)}${r.verdictLogic}`).join('\n') + '\n'
  );
}
