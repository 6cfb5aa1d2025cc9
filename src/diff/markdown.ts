/**
 * The markdown report, for a PR comment: the summary first (breaking counts per side), breaking facts
 * in the open, potentially breaking and non-breaking ones collapsed in `<details>`, and never more than
 * MARKDOWN_BUDGET characters (GitHub refuses comments over 65,536): what does not fit is counted in a
 * note that points at the JSON report.
 */
import { headerNotes, mdCell, severity, sidesOf, whereOf, type RenderOptions } from './render-common.js';
import type { DiffReport, Fact, Side, Verdict } from './types.js';

export const MARKDOWN_BUDGET = 60_000;

const MD_VERDICT: Record<Verdict, string> = {
  breaking: '🔴 breaking',
  'potentially-breaking': '🟡 potentially breaking',
  'non-breaking': '🟢 non-breaking',
};

const SECTIONS: readonly { verdict: Verdict; title: string; open: boolean }[] = [
  { verdict: 'breaking', title: 'Breaking', open: true },
  { verdict: 'potentially-breaking', title: 'Potentially breaking', open: false },
  { verdict: 'non-breaking', title: 'Non-breaking', open: false },
];

export function renderMarkdown(report: DiffReport, options: RenderOptions = {}, budget = MARKDOWN_BUDGET): string {
  const sides = sidesOf(options);
  const head = summary(report, sides);
  if (report.facts.length === 0) return [...head, '', 'No changes.'].join('\n') + '\n';
  const out = new Budget(budget, head);
  let shown = 0;
  for (const section of SECTIONS) {
    const facts = report.facts.filter((f) => severity(f, sides) === section.verdict);
    if (facts.length === 0) continue;
    const title = `${section.title} (${facts.length})`;
    const opening = section.open ? ['', `### ${title}`, ''] : ['', `<details><summary>${title}</summary>`, ''];
    const closing = section.open ? [] : ['', '</details>'];
    if (!out.fits([...opening, ...tableHead(sides), ...closing])) break;
    out.push(opening);
    out.push(tableHead(sides));
    out.reserve(closing);
    for (const f of facts) {
      if (!out.push([row(f, sides)])) break;
      shown++;
    }
    out.release(closing);
    if (shown < countUpTo(report, sides, section.verdict)) break;
  }
  return out.finish(report.facts.length - shown, report.facts.length);
}

function summary(report: DiffReport, sides: Side[]): string[] {
  const lines = [`## MCP schema diff: \`${report.old.name}\` → \`${report.new.name}\``, ''];
  const breaking = sides.map((s) => `${s} **${report.summary[s].breaking}**`).join(', ');
  lines.push(`Breaking: ${breaking}.`, '');
  lines.push('| Side | Breaking | Potentially breaking | Non-breaking |', '| --- | ---: | ---: | ---: |');
  for (const s of sides) {
    const c = report.summary[s];
    lines.push(`| ${s} | ${c.breaking} | ${c['potentially-breaking']} | ${c['non-breaking']} |`);
  }
  const n = report.summary.facts;
  const ignored = report.summary.ignored ? `, ${report.summary.ignored} ignored` : '';
  lines.push('', `${n} change${n === 1 ? '' : 's'}${ignored}.`);
  const notes = headerNotes(report);
  if (notes.length > 0) lines.push('', ...notes.map((note) => `- ${mdCell(note)}`));
  return lines;
}

function tableHead(sides: Side[]): string[] {
  const cols = sides.map((s) => s.charAt(0).toUpperCase() + s.slice(1));
  return [
    `| Rule | Where | ${cols.join(' | ')} | Change |`,
    `| --- | --- | ${sides.map(() => '---').join(' | ')} | --- |`,
  ];
}

function row(f: Fact, sides: Side[]): string {
  const verdicts = sides.map((s) => MD_VERDICT[f.verdicts[s]]).join(' | ');
  return `| \`${f.rule}\` | \`${mdCell(whereOf(f))}\` | ${verdicts} | ${mdCell(f.message)} |`;
}

/** Facts up to and including this severity: all of them must be shown before the next section starts. */
function countUpTo(report: DiffReport, sides: Side[], verdict: Verdict): number {
  const order = SECTIONS.map((s) => s.verdict);
  return report.facts.filter((f) => order.indexOf(severity(f, sides)) <= order.indexOf(verdict)).length;
}

/** Lines under a character budget, with room kept for closing lines and the truncation note. */
class Budget {
  private readonly lines: string[];
  private size: number;
  private reserved = 0;
  /** Room for the truncation note. */
  private static readonly NOTE = 400;

  constructor(
    private readonly limit: number,
    head: string[],
  ) {
    this.lines = [...head];
    this.size = head.reduce((n, l) => n + l.length + 1, 0);
  }

  fits(lines: string[]): boolean {
    return this.size + this.reserved + Budget.NOTE + lines.reduce((n, l) => n + l.length + 1, 0) <= this.limit;
  }

  push(lines: string[]): boolean {
    if (!this.fits(lines)) return false;
    this.lines.push(...lines);
    this.size += lines.reduce((n, l) => n + l.length + 1, 0);
    return true;
  }

  reserve(lines: string[]): void {
    this.reserved += lines.reduce((n, l) => n + l.length + 1, 0);
  }

  release(lines: string[]): void {
    this.reserved -= lines.reduce((n, l) => n + l.length + 1, 0);
    this.lines.push(...lines);
    this.size += lines.reduce((n, l) => n + l.length + 1, 0);
  }

  finish(hidden: number, total: number): string {
    if (hidden > 0) {
      this.lines.push(
        '',
        `> **Truncated:** ${hidden} of ${total} facts are not shown, to keep this report under ${this.limit.toLocaleString('en-US')} characters. ` +
          'The full report: `mcp-typegen diff <old> <new> --format json`.',
      );
    }
    return this.lines.join('\n') + '\n';
  }
}
