/**
 * GitHub Actions workflow commands: `::error` for breaking facts, `::warning` for potentially breaking
 * ones (non-breaking facts are not annotated), at most `maxAnnotations` of them, errors first, each
 * with `file=` and `line=` of the changed schema location when known; a `::notice` per normalisation
 * applied to an input; then one summary `::notice`.
 */
import { noteLine, severity, sidesOf, summaryLine, whereOf, type RenderOptions } from './render-common.js';
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
  // Each normalisation applied to an input, at its line where the file is known.
  for (const note of report.notes) {
    const at = options.locate?.(note.side, note.pointer);
    const place = at?.file ? `file=${escapeGithubProperty(at.file)},line=${at.line},` : '';
    lines.push(
      `::notice ${place}title=${escapeGithubProperty('normalised input')}::${escapeGithubData(noteLine(note))}`,
    );
  }
  const hidden = errors.length + warnings.length - annotated.length;
  const more = hidden > 0 ? `; ${hidden} more not annotated (see the text or JSON report)` : '';
  const text = `${report.old.name} → ${report.new.name}: ${summaryLine(report, sides)}${more}`;
  lines.push(`::notice title=${escapeGithubProperty('MCP schema diff')}::${escapeGithubData(text)}`);
  return lines.join('\n') + '\n';
}

/**
 * One annotation, on the side the fact lives on: an addition or change at its line in the new file; a
 * removal at its line in the old file when that file is in the working tree, else (a git or version
 * baseline) at the place in the new file it was removed from, saying where it was.
 */
function annotation(f: Fact, command: 'error' | 'warning', options: RenderOptions): string {
  const sides = sidesOf(options);
  const where = whereOf(f);
  const props: string[] = [];
  const { side, oldPointer, newPointer } = f.location;
  const pointer = side === 'old' ? oldPointer : newPointer;
  const at = pointer ? options.locate?.(side, pointer) : undefined;
  const parent = side === 'old' && !at?.file && newPointer ? options.locate?.('new', newPointer) : undefined;
  const shown = at?.file ? at : parent?.file ? parent : undefined;
  if (shown?.file) props.push(`file=${escapeGithubProperty(shown.file)}`, `line=${shown.line}`);
  props.push(`title=${escapeGithubProperty(`${f.rule} (${where})`)}`);
  const verdicts = sides.map((s) => `${s}: ${f.verdicts[s]}`).join(', ');
  const was = side === 'old' && at ? ` (in the old schema ${at.source}, line ${at.line})` : '';
  return `::${command} ${props.join(',')}::${escapeGithubData(`${where}: ${f.message}${was} [${verdicts}]`)}`;
}
