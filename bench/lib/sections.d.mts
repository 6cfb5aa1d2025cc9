/** Types for sections.mjs (the tests import it). */
export const SECTIONS: string[];
export function sectionOfRow(id: string): string | undefined;
export function parseOnly(names: string[]): { sections: string[]; wantRow: (id: string) => boolean };
