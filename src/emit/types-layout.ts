/**
 * types.ts in prettier's layout for format.ts's DEFAULTS, without running prettier: the text
 * json-schema-to-typescript writes is read (types-layout-parse.ts), turned into prettier's documents
 * (types-layout-docs.ts) and printed by prettier's own document printer, which loads in milliseconds
 * where parsing and printing the file with prettier costs about a third of a second.
 *
 * A test formats the result with prettier for every schema version, the extensions and adversarial
 * definitions, and expects no change, so the two layouts cannot drift apart.
 */
import { printer } from 'prettier/doc';
import { DEFAULTS } from './format.js';
import { fileDoc } from './types-layout-docs.js';
import { LayoutUnsupported, parseDeclarations } from './types-layout-parse.js';

export type LayoutResult = { text: string } | { unsupported: string };

/** The declarations laid out as prettier would, or why this text needs prettier itself. */
export function layoutTypes(text: string): LayoutResult {
  try {
    const doc = fileDoc(parseDeclarations(text));
    const options = { printWidth: DEFAULTS.printWidth!, tabWidth: 2, useTabs: false, endOfLine: 'lf' };
    return { text: printer.printDocToString(doc, options).formatted };
  } catch (error) {
    if (error instanceof LayoutUnsupported) return { unsupported: error.message };
    // A fault in the layout itself must not fail the run: prettier still gets the file right (the
    // layout tests fail instead, where every input is expected to take this path).
    return { unsupported: `layout error: ${(error as Error).message}` };
  }
}
