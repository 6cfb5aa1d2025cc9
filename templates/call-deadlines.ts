/**
 * Request timeouts on one timer. A timer per request (created on send, cleared on the answer) cost about 5%
 * of a sequential stdio round trip; here every armed call waits in a queue for its timeout length and one
 * timer is set for the earliest deadline.
 *
 * Calls armed with the same number of milliseconds expire in the order they were armed (the clock is
 * monotonic), so each queue is a Set in insertion order and expiry reads only its front. While no call is
 * armed the timer stays unreferenced (cleared where timers are plain numbers: browsers, Deno), so an idle
 * process can still exit.
 *
 * Hand-written runtime copied unchanged into generated output (as `runtime/call-deadlines.ts`). No dependencies.
 */

/** A call that can time out: its deadline (on `performance.now()`'s clock) and what expiry does. */
export interface TimedCall {
  deadline: number;
  /** The queue it waits in while armed. */
  deadlines: Set<TimedCall> | undefined;
  onDeadline(): void;
}

const queues = new Map<number, Set<TimedCall>>();
let armed = 0;
let timer: ReturnType<typeof setTimeout> | { ref(): void; unref(): void } | undefined;
/** When the timer fires; Infinity without one. */
let timerAt = Infinity;

/** Arms `call` to expire `ms` from now. */
export function startDeadline(call: TimedCall, ms: number): void {
  const at = (call.deadline = performance.now() + ms);
  let queue = queues.get(ms);
  if (queue === undefined) queues.set(ms, (queue = new Set()));
  queue.add(call);
  call.deadlines = queue;
  if (++armed === 1) hold(true);
  if (at < timerAt) schedule(at, ms);
}

/** Disarms `call`; a no-op when it is not armed. */
export function stopDeadline(call: TimedCall): void {
  if (call.deadlines?.delete(call) === true && --armed === 0) hold(false);
  call.deadlines = undefined;
}

function schedule(at: number, ms: number): void {
  clearTimeout(timer as ReturnType<typeof setTimeout> | undefined);
  timerAt = at;
  timer = setTimeout(fire, ms);
}

/** Keeps the process alive only while a call is armed. */
function hold(referenced: boolean): void {
  if (typeof timer === 'object') {
    if (referenced) timer.ref();
    else timer.unref();
  } else if (!referenced) {
    clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
  }
}

/** Expires every call whose deadline has passed, then sets the timer for the next one. */
function fire(): void {
  timer = undefined;
  timerAt = Infinity;
  const now = performance.now();
  let next = Infinity;
  for (const [ms, queue] of queues) {
    for (const call of queue) {
      if (call.deadline > now) {
        next = Math.min(next, call.deadline);
        break;
      }
      stopDeadline(call);
      call.onDeadline();
    }
    if (queue.size === 0) queues.delete(ms);
  }
  if (next < timerAt) schedule(next, next - now);
}
