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
    if (this.#pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.#pendingCr = false;
    this.#buffer += text;
    let start = 0;
    for (let i = 0; i < this.#buffer.length; i++) {
      const c = this.#buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.#line(this.#buffer.slice(start, i));
      if (c === 13) {
        if (i + 1 === this.#buffer.length) this.#pendingCr = true;
        else if (this.#buffer.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.#buffer = this.#buffer.slice(start);
  }

  #line(line: string): void {
    if (line === '') {
      this.#dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
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
        break;
    }
  }

  #dispatch(): void {
    if (this.#sawId) this.lastEventId = this.#eventId;
    const hadId = this.#sawId;
    const event: SseEvent = { event: this.#eventType || 'message', data: this.#data.join('\n') };
    if (hadId) event.id = this.#eventId;
    const hasData = this.#data.length > 0;
    this.#data = [];
    this.#eventType = '';
    this.#sawId = false;
    // Events with an id but no data (priming events) are surfaced so the id can be tracked.
    if (hasData || hadId) this.#onEvent(event);
  }
}
