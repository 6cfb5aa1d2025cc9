/** What the renderers share: options, the chosen sides, severity, summary words, markdown escaping. */
import {
  SIDES,
  VERDICTS,
  type DiffNote,
  type DiffReport,
  type Fact,
  type Side,
  type SideFilter,
  type Verdict,
} from './types.js';

/**
 * Where a schema pointer of one side is, for annotations: the line, the side's display name, and — only
 * when that side is a file in the working tree — its path from the repository root (`/` separators).
 */
export type SchemaLocator = (
  side: 'old' | 'new',
  pointer: string,
) => { file: string | null; line: number; source: string } | undefined;

export interface RenderOptions {
  /** Which sides' verdicts decide a fact's severity and which columns are shown. Default both. */
  side?: SideFilter;
  /** github: at most this many annotations (errors first, then warnings), plus the summary. Default 10. */
  maxAnnotations?: number;
  /** github: `file=`/`line=` of each fact's changed schema location. */
  locate?: SchemaLocator;
}

export function sidesOf(options: RenderOptions): Side[] {
  return options.side === undefined || options.side === 'both' ? [...SIDES] : [options.side];
}

/** The most severe verdict of a fact over the chosen sides. */
export function severity(fact: Fact, sides: Side[]): Verdict {
  let worst: Verdict = 'non-breaking';
  for (const s of sides) if (VERDICTS.indexOf(fact.verdicts[s]) > VERDICTS.indexOf(worst)) worst = fact.verdicts[s];
  return worst;
}

export function summaryLine(report: DiffReport, sides: Side[]): string {
  const per = sides
    .map((s) => {
      const c = report.summary[s];
      return `${s}: ${c.breaking} breaking, ${c['potentially-breaking']} potentially breaking, ${c['non-breaking']} non-breaking`;
    })
    .join('; ');
  const n = report.summary.facts;
  return `${n} change${n === 1 ? '' : 's'} (${per})${report.summary.ignored ? `, ${report.summary.ignored} ignored` : ''}`;
}

export function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** `tools/call params.x`, `tools/call and 3 more …`: where a fact is, in a few words. */
export function whereOf(f: Fact, maxMethods = 3): string {
  const l = f.location;
  if (l.part === 'protocol') return 'protocol';
  const shown = l.methods.slice(0, maxMethods).join(', ');
  const more = l.methods.length > maxMethods ? ` and ${l.methods.length - maxMethods} more` : '';
  return `${shown}${more}${l.path ? ` ${l.path}` : ''}`;
}

/** A normalisation applied to an input, as one line: `normalised old #/…: what was done`. */
export function noteLine(note: DiffNote): string {
  return `normalised ${note.side} ${note.pointer}: ${note.message}`;
}

/**
 * What the report compared besides the two schemas, one line each: the extension files of each side,
 * how many results were paired by a definition name (the JSON report lists which), and each
 * normalisation applied to an input.
 */
export function headerNotes(report: DiffReport): string[] {
  const notes: string[] = [];
  const ext = (e: string[]) => (e.length > 0 ? e.join(', ') : 'none');
  if (report.old.extensions.length > 0 || report.new.extensions.length > 0)
    notes.push(`extensions: old ${ext(report.old.extensions)}; new ${ext(report.new.extensions)}`);
  const named = [report.old.pairedByName.length, report.new.pairedByName.length];
  if (named.some((n) => n > 0))
    notes.push(
      `results paired by definition name: old ${named[0]}, new ${named[1]} requests (listed in the JSON report)`,
    );
  for (const note of report.notes) notes.push(noteLine(note));
  return notes;
}
