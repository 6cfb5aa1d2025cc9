/**
 * Telling a snapshot file (`mcp-typegen snapshot`) from a schema, without checking either: what `diff`
 * decides its sides by. Apart from snapshot-file.ts, whose format check loads ajv, so that a diff of two
 * schemas never does.
 */

/** Whether parsed JSON claims to be a snapshot (what `diff` tells snapshots from schemas by). */
function isSnapshotDocument(data: unknown): boolean {
  return typeof data === 'object' && data !== null && !Array.isArray(data) && Object.hasOwn(data, 'mcpSnapshot');
}

/** Whether a side's text is a snapshot (a JSON object with `mcpSnapshot`); anything else is a schema. */
export function looksLikeSnapshot(text: string): boolean {
  // Cheap before parsing: a schema never names the key.
  if (!text.includes('"mcpSnapshot"')) return false;
  try {
    return isSnapshotDocument(JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
  } catch {
    return false;
  }
}
