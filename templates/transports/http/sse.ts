/**
 * Server-sent events, both ways: formatting an event (server) and parsing a stream of them (client).
 * Browser-safe (no `node:` imports).
 */

/** Formats one SSE event. `data` may be empty (priming event). */
export function formatSseEvent(event: {
  id?: string | undefined;
  event?: string | undefined;
  data: string;
  retry?: number | undefined;
}): string {
  let text = '';
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retry !== undefined) text += `retry: ${Math.max(0, Math.floor(event.retry))}\n`;
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return text + '\n';
}

/** One parsed SSE event. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string | undefined;
}

/**
 * An incremental SSE parser (WHATWG "event stream interpretation"): feed it text, it calls back per event and
 * per `retry:` field. Comments and unknown fields are ignored; CR, LF and CRLF all end lines.
 */
export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #eventType = '';
  #eventId?: string | undefined;
  #sawId = false;
  #pendingCr = false;

  readonly #onEvent: (event: SseEvent) => void;
  readonly #onRetry: ((ms: number) => void) | undefined;

  constructor(onEvent: (event: SseEvent) => void, onRetry?: (ms: number) => void) {
    this.#onEvent = onEvent;
    this.#onRetry = onRetry;
  }

  /** Characters held for the event being read (its data and the unfinished line): for size limits. */
  get pending(): number {
    let size = this.#buffer.length;
    for (const line of this.#data) size += line.length + 1;
    return size;
  }

  /** The last event id seen (persists across events, as in EventSource). */
  lastEventId?: string | undefined;

  push(text: string): void {
    // A CR that ended the last chunk may be the first half of a CRLF: its LF ends no further line.
    if (this.#pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.#pendingCr = text.endsWith('\r');
    const lines = (this.#buffer + text).split(/\r\n|\r|\n/);
    this.#buffer = lines.pop() ?? '';
    for (const line of lines) this.#line(line);
  }

  /** One line: a field (`name: value`, one leading space dropped), a comment (`: …`, no name), or the blank end. */
  #line(line: string): void {
    if (line === '') return this.#dispatch();
    const colon = line.indexOf(':');
    const value = colon === -1 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
    switch (colon === -1 ? line : line.slice(0, colon)) {
      case 'data':
        this.#data.push(value);
        break;
      case 'event':
        this.#eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) {
          this.#eventId = value;
          this.#sawId = true;
        }
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#onRetry?.(Number(value));
    }
  }

  #dispatch(): void {
    const event: SseEvent = { event: this.#eventType || 'message', data: this.#data.join('\n') };
    // Events with an id but no data (priming events) are surfaced so the id can be tracked.
    const due = this.#data.length > 0 || this.#sawId;
    if (this.#sawId) event.id = this.lastEventId = this.#eventId;
    this.#data = [];
    this.#eventType = '';
    this.#sawId = false;
    if (due) this.#onEvent(event);
  }
}
