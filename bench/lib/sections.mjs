/**
 * The bench's sections and which one measures each row, so that `--only <row id>` reproduces one row with one
 * command (`npm run bench -- --only roundtrip-stdio-seq-echo`): the row's section runs, only as much of it as
 * the row needs where that is cheap to tell, and the table shows the rows asked for.
 */
export const SECTIONS = [
  'generate',
  'check',
  'watch',
  'cache',
  'scale',
  'stdio',
  'memory',
  'eras',
  'validation',
  'tsc',
  'diff',
  'bundle',
  'sdk',
  'cluster',
  'auth',
];

/** Row id prefixes → section, first match wins (a new row family adds one line here). */
const PREFIXES = [
  ['generate-', 'generate'],
  ['scale-', 'scale'],
  ['check', 'check'],
  ['watch-', 'watch'],
  ['cache-', 'cache'],
  ['roundtrip-stdio-', 'stdio'],
  ['roundtrip-memory-', 'memory'],
  ['era-', 'eras'],
  ['validation-', 'validation'],
  ['tsc-', 'tsc'],
  ['diff', 'diff'],
  ['bundle', 'bundle'],
  ['sdk-', 'sdk'],
  ['auth-gate-', 'auth'],
  ['cluster-', 'cluster'],
];

/** The section a row id belongs to, or undefined. */
export function sectionOfRow(id) {
  return PREFIXES.find(([prefix]) => id === prefix || id.startsWith(prefix))?.[1];
}

/**
 * `--only a,b` → { sections, wantRow }: each name a section (all its rows) or a row id (its section runs, the
 * table shows that row). `wantRow(id)` says whether a row was asked for (node start-up always is: it is the
 * floor under every process row). Throws on a name that is neither.
 */
export function parseOnly(names) {
  const whole = new Set();
  const sections = new Set();
  const rows = new Set();
  for (const name of names) {
    if (SECTIONS.includes(name)) {
      whole.add(name);
      sections.add(name);
    } else if (name !== 'node-startup') {
      const section = sectionOfRow(name);
      if (section === undefined)
        throw new Error(`--only: ${name} is neither a section (${SECTIONS.join(', ')}) nor a row id`);
      sections.add(section);
      rows.add(name);
    }
  }
  const wantRow = (id) => id === 'node-startup' || whole.has(sectionOfRow(id)) || rows.has(id);
  return { sections: [...sections], wantRow };
}
