/**
 * Renderers of a DiffReport: pure functions returning strings.
 * - text: default, grouped by method;
 * - json: stable key order, described by schema/diff-report.schema.json;
 * - markdown: for a PR comment (summary table, then details);
 * - github: GitHub Actions workflow commands (::error / ::warning / ::notice).
 */
import { RULES } from './rules.js';
import { SIDES, VERDICTS, type DiffReport, type Fact, type Side, type SideFilter, type Verdict } from './types.js';

export type ReportFormat = 'text' | 'json' | 'markdown' | 'github';
export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'json', 'markdown', 'github'];

export interface RenderOptions {
  /** Which sides' verdicts decide a fact's severity in `github` and which columns are shown. Default both. */
  side?: SideFilter;
}

/** Version of the JSON report format (`schema/diff-report.schema.json`). */
export const REPORT_FORMAT_VERSION = 1;

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

function sidesOf(options: RenderOptions): Side[] {
  return options.side === undefined || options.side === 'both' ? [...SIDES] : [options.side];
}

/** The most severe verdict of a fact over the chosen sides. */
function severity(fact: Fact, sides: Side[]): Verdict {
  let worst: Verdict = 'non-breaking';
  for (const s of sides) if (VERDICTS.indexOf(fact.verdicts[s]) > VERDICTS.indexOf(worst)) worst = fact.verdicts[s];
  return worst;
}

function groupTitle(fact: Fact): string {
  const l = fact.location;
  if (l.part === 'protocol') return 'protocol';
  return `${l.method} (${l.kind ?? ''}${l.directions.length ? `, ${l.directions.join(', ')}` : ''})`;
}

function groups(facts: Fact[]): [string, Fact[]][] {
  const out: [string, Fact[]][] = [];
  let current: string | undefined;
  for (const f of facts) {
    const key = f.location.part === 'protocol' ? '\u0000protocol' : f.location.method;
    if (key !== current) {
      out.push([groupTitle(f), []]);
      current = key;
    }
    out[out.length - 1]![1].push(f);
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
  const lines: string[] = [`mcp-typegen diff: ${report.old.name} → ${report.new.name}`];
  if (report.facts.length === 0) lines.push('', 'No changes.');
  for (const [title, facts] of groups(report.facts)) {
    lines.push('', title);
    for (const f of facts) {
      const verdicts = sides.map((s) => `${s}: ${SHORT[f.verdicts[s]]}`).join(', ');
      const where = f.location.path ? `${f.location.path}: ` : '';
      lines.push(`  [${verdicts}] ${f.rule}  ${where}${f.message}`);
    }
  }
  lines.push('', summaryLine(report, sides));
  return lines.join('\n') + '\n';
}

function summaryLine(report: DiffReport, sides: Side[]): string {
  const per = sides
    .map((s) => {
      const c = report.summary[s];
      return `${s}: ${c.breaking} breaking, ${c['potentially-breaking']} potentially breaking, ${c['non-breaking']} non-breaking`;
    })
    .join('; ');
  return `${report.summary.facts} change${report.summary.facts === 1 ? '' : 's'} (${per})${report.summary.ignored ? `, ${report.summary.ignored} ignored` : ''}`;
}

/** JSON with a fixed key order; facts are already sorted by diffModels. */
export function renderJson(report: DiffReport): string {
  const fact = (f: Fact): unknown => ({
    rule: f.rule,
    location: {
      method: f.location.method,
      kind: f.location.kind,
      directions: f.location.directions,
      part: f.location.part,
      path: f.location.path,
      key: f.location.key,
      oldPointer: f.location.oldPointer,
      newPointer: f.location.newPointer,
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
  const side = (s: DiffReport['old']): unknown => ({ name: s.name, version: s.version, dialect: s.dialect });
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
    facts: report.facts.map(fact),
    ignored: report.ignored.map((i) => ({ fact: fact(i.fact), reason: i.reason })),
  };
  return JSON.stringify(out, null, 2) + '\n';
}

function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

const MD_VERDICT: Record<Verdict, string> = {
  breaking: '🔴 breaking',
  'potentially-breaking': '🟡 potentially breaking',
  'non-breaking': '🟢 non-breaking',
};

export function renderMarkdown(report: DiffReport, options: RenderOptions = {}): string {
  const sides = sidesOf(options);
  const lines: string[] = [`## MCP schema diff: \`${report.old.name}\` → \`${report.new.name}\``, ''];
  lines.push('| Side | Breaking | Potentially breaking | Non-breaking |', '| --- | ---: | ---: | ---: |');
  for (const s of sides) {
    const c = report.summary[s];
    lines.push(`| ${s} | ${c.breaking} | ${c['potentially-breaking']} | ${c['non-breaking']} |`);
  }
  lines.push(
    '',
    `${report.summary.facts} change${report.summary.facts === 1 ? '' : 's'}${report.summary.ignored ? `, ${report.summary.ignored} ignored` : ''}.`,
  );
  if (report.facts.length === 0) {
    lines.push('', 'No changes.');
    return lines.join('\n') + '\n';
  }
  lines.push('', '### Details');
  for (const [title, facts] of groups(report.facts)) {
    lines.push(
      '',
      `#### \`${mdCell(title)}\``,
      '',
      `| Rule | Path | ${sides.map((s) => s[0]!.toUpperCase() + s.slice(1)).join(' | ')} | Change |`,
      `| --- | --- | ${sides.map(() => '---').join(' | ')} | --- |`,
    );
    for (const f of facts) {
      const path = f.location.path ? `\`${mdCell(f.location.path)}\`` : '';
      lines.push(
        `| \`${f.rule}\` | ${path} | ${sides.map((s) => MD_VERDICT[f.verdicts[s]]).join(' | ')} | ${mdCell(f.message)} |`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

/** Escape the message of a workflow command. */
export function escapeGithubData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escape a property value of a workflow command (also `:` and `,`). */
export function escapeGithubProperty(s: string): string {
  return escapeGithubData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function renderGithub(report: DiffReport, options: RenderOptions = {}): string {
  const sides = sidesOf(options);
  const lines: string[] = [];
  for (const f of report.facts) {
    const sev = severity(f, sides);
    const command = sev === 'breaking' ? 'error' : sev === 'potentially-breaking' ? 'warning' : 'notice';
    const where =
      f.location.part === 'protocol'
        ? 'protocol'
        : `${f.location.method}${f.location.path ? ` ${f.location.path}` : ''}`;
    const title = `${f.rule} (${where})`;
    const verdicts = sides.map((s) => `${s}: ${f.verdicts[s]}`).join(', ');
    lines.push(
      `::${command} title=${escapeGithubProperty(title)}::${escapeGithubData(`${where}: ${f.message} [${verdicts}]`)}`,
    );
  }
  const c = sides
    .map((s) => `${s} ${report.summary[s].breaking} breaking/${report.summary[s]['potentially-breaking']} potential`)
    .join(', ');
  lines.push(
    `::notice title=${escapeGithubProperty('MCP schema diff')}::${escapeGithubData(`${report.old.name} → ${report.new.name}: ${report.summary.facts} changes (${c}), ${report.summary.ignored} ignored`)}`,
  );
  return lines.join('\n') + '\n';
}

/** `diff --rules`: every rule with its reason and verdict logic. */
export function renderRules(format: 'text' | 'json' | 'markdown' = 'text'): string {
  if (format === 'json') {
    return (
      JSON.stringify(
        RULES.map((r) => ({ id: r.id, part: r.part, reason: r.reason, roles: r.roles, verdictLogic: r.verdictLogic })),
        null,
        2,
      ) + '\n'
    );
  }
  if (format === 'markdown') {
    const lines = ['| Rule | Part | Reason | Verdicts |', '| --- | --- | --- | --- |'];
    for (const r of RULES) lines.push(`| \`${r.id}\` | ${r.part} | ${mdCell(r.reason)} | ${mdCell(r.verdictLogic)} |`);
    return lines.join('\n') + '\n';
  }
  const width = Math.max(...RULES.map((r) => r.id.length));
  return (
    RULES.map((r) => `${r.id.padEnd(width)}  ${r.reason}\n${' '.repeat(width + 2)}${r.verdictLogic}`).join('\n') + '\n'
  );
}
