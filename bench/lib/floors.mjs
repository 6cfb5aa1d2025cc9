/**
 * What keeps a ratio row from flattering (issue 49 item 1): every ratio is read against its floor — the side it
 * divides by, or the program both sides stand on — and the floor's own figure is printed beside it. A row is
 * marked unreliable when it had fewer than MIN_ROUNDS rounds, when its floor's per-round spread exceeds
 * SPREAD_BOUND, or when its floor sits outside the normal range stated below for this kind of floor. Only rows
 * that are not marked go into bench/README.md (`--write-readme`).
 */

/** Rounds a timed row needs, the sides taking turns, before its median is quoted. */
export const MIN_ROUNDS = 5;

/**
 * The most a floor may swing across a row's rounds: (max − min) ÷ median of its metric. Above it the machine
 * moved under the row (another process took a core for a round or two), and the ratio means little.
 */
export const SPREAD_BOUND = 0.2;

/**
 * Normal ranges of the floors whose absolute figure is known, by floor name and metric, on a 2-core x86-64
 * machine under Node 20 (the reference of bench/README.md): a floor outside its range ran on a slowed or
 * different machine, which can flatter a ratio even when every round agrees (issue 49: the README's stdio
 * ratios once came from a run where the echo itself cost 104 µs per call, where other runs read 14–50 µs).
 * A floor not named here is judged by its spread alone.
 */
export const NORMAL_RANGES = {
  'node -e 0': { cpuMs: [30, 110] },
  'echo, sequential': { cpuUs: [10, 60] },
  'echo, 64 in flight': { cpuUs: [3, 20] },
};

/** (max − min) ÷ median of a stats object ({ median, min, max }); 0 for one round or a zero median. */
export function spread(stats) {
  return stats.median > 0 ? (stats.max - stats.min) / stats.median : 0;
}

/**
 * The floor of a row and its verdict. `floor` is { name, metric, stats }; `deterministic` rows (sizes, tsc's
 * counts) have no rounds to speak of and are judged on nothing but being measured.
 */
export function judgeFloor(floor, { deterministic = false } = {}) {
  const reasons = [];
  const rounds = floor.stats.runs.length;
  const s = spread(floor.stats);
  if (!deterministic) {
    if (rounds < MIN_ROUNDS) reasons.push(`${rounds} round(s) < ${MIN_ROUNDS}`);
    if (s > SPREAD_BOUND) reasons.push(`floor spread ${Math.round(s * 100)}% > ${Math.round(SPREAD_BOUND * 100)}%`);
    const range = NORMAL_RANGES[floor.name]?.[floor.metric];
    if (range && (floor.stats.median < range[0] || floor.stats.median > range[1]))
      reasons.push(`floor ${round(floor.stats.median)} outside its normal ${range[0]}–${range[1]}`);
  }
  return {
    name: floor.name,
    metric: floor.metric,
    median: floor.stats.median,
    min: floor.stats.min,
    max: floor.stats.max,
    rounds,
    spread: s,
    reliable: reasons.length === 0,
    reasons,
  };
}

const round = (n) => (n >= 100 ? Math.round(n) : Number(n.toFixed(1)));
