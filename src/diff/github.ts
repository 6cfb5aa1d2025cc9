/**
 * GitHub Actions workflow commands: `::error` for breaking facts, `::warning` for potentially breaking
 * ones (non-breaking facts are not annotated), at most `maxAnnotations` of them, errors first, each
 * with `file=` and `line=` of the changed schema location when known; then one summary `::notice`.
 */
import { severity, sidesOf, summaryLine, whereOf, type RenderOptions } from './render-common.js';
import type { DiffReport, Fact } from './types.js';

export const DEFAULT_MAX_ANNOTATIONS = 10;

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
  const max = Math.max(0, options.maxAnnotations ?? DEFAULT_MAX_ANNOTATIONS);
  const errors = report.facts.filter((f) => severity(f, sides) === 'breaking');
  const warnings = report.facts.filter((f) => severity(f, sides) === 'potentially-breaking');
  const annotated = [...errors, ...warnings].slice(0, max);
  const lines = annotated.map((f) => annotation(f, severity(f, sides) === 'breaking' ? 'error' : 'warning', options));
  const hidden = errors.length + warnings.length - annotated.length;
  const more = hidden > 0 ? `; ${hidden} more not annotated (see the text or JSON report)` : '';
  const text = `${report.old.name} → ${report.new.name}: ${summaryLine(report, sides)}${more}`;
  lines.push(`::notice title=${escapeGithubProperty('MCP schema diff')}::${escapeGithubData(text)}`);
  return lines.join('\n') + '\n';
}

function annotation(f: Fact, command: 'error' | 'warning', options: RenderOptions): string {
  const sides = sidesOf(options);
  const where = whereOf(f);
  const props: string[] = [];
  const pointer = f.location.newPointer ?? f.location.oldPointer;
  const at = pointer ? options.locate?.(f.location.newPointer ? 'new' : 'old', pointer) : undefined;
  if (at) props.push(`file=${escapeGithubProperty(at.file)}`, `line=${at.line}`);
  props.push(`title=${escapeGithubProperty(`${f.rule} (${where})`)}`);
  const verdicts = sides.map((s) => `${s}: ${f.verdicts[s]}`).join(', ');
  return `::${command} ${props.join(',')}::${escapeGithubData(`${where}: ${f.message} [${verdicts}]`)}`;
}
