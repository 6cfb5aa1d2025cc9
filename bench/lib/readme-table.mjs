/**
 * The table of bench/README.md, row by row: `--write-readme` puts in the rows of this run whose floor held
 * (lib/floors.mjs) and keeps the quoted rows this run did not measure, or measured on an unreliable floor. Each
 * row ends with the command that reproduces it and the run it came from, so a table assembled from several
 * runs (`--only <row id>` each) says where every figure was taken.
 */

/** The row id a table line reproduces (its last cells hold "`--only <id>`"), or undefined. */
export function lineId(line) {
  return /`--only ([\w.-]+)`/.exec(line)?.[1];
}

/**
 * The new table body: `previous` (the lines between the README's markers) with each line of `fresh` (row id →
 * line, in the run's order) put in place of the line of the same id, or after the fresh line before it (at the end
 * when none is). Lines
 * without an id (from before rows carried one) are dropped: they cannot say how they were measured.
 */
export function mergeTable(previous, fresh, header) {
  const rows = previous.split('\n').filter((line) => line.startsWith('| ') && lineId(line) !== undefined);
  const ids = rows.map(lineId);
  // A row new to the table goes after the fresh row before it, or at the end.
  let at = rows.length - 1;
  for (const [id, line] of fresh) {
    const index = ids.indexOf(id);
    if (index >= 0) {
      rows[index] = line;
      at = index;
    } else {
      rows.splice(at + 1, 0, line);
      ids.splice(at + 1, 0, id);
      at += 1;
    }
  }
  return [...header, ...rows].join('\n');
}
