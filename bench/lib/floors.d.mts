/** Types for floors.mjs (the tests import it). */
export const MIN_ROUNDS: number;
export const SPREAD_BOUND: number;
export const NORMAL_RANGES: Record<string, Record<string, [number, number]>>;
export interface RoundStats {
  median: number;
  min: number;
  max: number;
  runs: number[];
}
export interface FloorVerdict {
  name: string;
  metric: string;
  median: number;
  min: number;
  max: number;
  rounds: number;
  spread: number;
  reliable: boolean;
  reasons: string[];
}
export function spread(stats: RoundStats): number;
export function judgeFloor(
  floor: { name: string; metric: string; stats: RoundStats },
  options?: { deterministic?: boolean },
): FloorVerdict;
