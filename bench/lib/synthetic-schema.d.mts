/** Types for synthetic-schema.mjs (the tests import it). */
export interface SchemaSize {
  definitions: number;
  methods: number;
}
export function syntheticSchema<T extends { $defs?: Record<string, unknown>; definitions?: Record<string, unknown> }>(
  base: T,
  size: SchemaSize,
): T;
export function syntheticExtension(methods: number, target: string): Record<string, unknown>;
