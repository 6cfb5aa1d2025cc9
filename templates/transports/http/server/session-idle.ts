/**
 * When a Streamable HTTP session (session.ts) ends for want of activity. Activity is a request, and also a
 * stream still open or a call still running (`busy`), as on one node; in a cluster the check comes every
 * third of the timeout, so that the shared record's expiry (pushed on by `active`) keeps ahead of a session
 * kept busy here without requests. Browser-safe; internal.
 */
/** What the clock asks of its session: whether a stream or call keeps it busy, what activity does, how it ends. */
export interface IdleSession {
  busy: () => boolean;
  active: () => void;
  expire: () => void;
}

export class IdleClock {
  /** When a request of the session last arrived (the store reclaims the longest idle first). */
  lastActive = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  readonly #ms: number;
  readonly #checkMs: number;
  readonly #session: IdleSession;

  constructor(ms: number, clustered: boolean, session: IdleSession) {
    this.#ms = ms;
    this.#checkMs = clustered ? ms / 3 : ms;
    this.#session = session;
  }

  /** Activity now: the clock starts again. */
  touch(): void {
    this.lastActive = Date.now();
    this.#session.active();
    this.#arm();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }

  #arm(): void {
    const ms = this.#ms;
    if (this.#stopped || !(ms > 0 && ms < 2 ** 31)) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#check, Math.min(this.lastActive + ms - Date.now(), this.#checkMs));
    (this.#timer as { unref?: () => void }).unref?.();
  }

  readonly #check = (): void => {
    this.#timer = undefined;
    if (this.#session.busy()) return this.touch();
    if (Date.now() - this.lastActive < this.#ms) return this.#arm();
    this.#session.expire();
  };
}
