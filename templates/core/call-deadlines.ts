/**
 * Request timeouts on one timer. A timer per request (created on send, cleared on the answer) cost about 5%
 * of a sequential stdio round trip; here the armed calls sit in one set and one timer is set for the
 * earliest deadline. When it fires it expires every call that is due and sets itself for the next one, at
 * least 10 ms later, so that thousands of calls timing out one after another cost a scan per 10 ms, not one
 * per call (a call may expire up to 10 ms after its deadline, never before). Calls due in the same pass, as
 * when the timer fires late on a busy machine, expire in the order they were armed.
 *
 * While no call is armed the timer stays unreferenced (cleared where timers are plain numbers: browsers,
 * Deno), so an idle process can still exit.
 *
 * Hand-written runtime copied unchanged into generated output. No dependencies.
 */

/** A call that can time out: its deadline (on `performance.now()`'s clock) and what expiry does. */
export interface TimedCall {
  deadline: number;
  onDeadline(): void;
}

const armed = new Set<TimedCall>();
let timer: ReturnType<typeof setTimeout> | { ref(): void; unref(): void } | undefined;
/** When the timer fires; Infinity without one. */
let timerAt = Infinity;

/** Arms `call` to expire `ms` from now. */
export function startDeadline(call: TimedCall, ms: number): void {
  const at = (call.deadline = performance.now() + ms);
  armed.add(call);
  if (armed.size === 1) hold(true);
  if (at < timerAt) schedule(at, ms);
}

/** Disarms `call`; a no-op when it is not armed. */
export function stopDeadline(call: TimedCall): void {
  if (armed.delete(call) && armed.size === 0) hold(false);
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

/** Expires every call that is due, then sets the timer for the next deadline. */
function fire(): void {
  timer = undefined;
  timerAt = Infinity;
  const now = performance.now();
  let next = Infinity;
  for (const call of armed) {
    if (call.deadline > now) next = Math.min(next, call.deadline);
    else {
      stopDeadline(call);
      call.onDeadline();
    }
  }
  if (next < timerAt) schedule(next, Math.max(next - now, 10));
}
