/**
 * PostMessageTransport's rules that need no browser (the browser cases: test/platforms/post-message-browser.test.ts):
 * a window channel must name its peer's window and exact origins; checks run on every message; a port
 * channel needs neither.
 */
import { describe, expect, it } from 'vitest';
import { PostMessageTransport, type PostMessageEvent } from '../../templates/transports/post-message/post-message.js';

/** A fake window: records what is posted, and lets the test deliver events. */
function fakeWindow() {
  const listeners = new Set<(event: PostMessageEvent) => void>();
  const posted: [unknown, string][] = [];
  return {
    posted,
    postMessage: (message: unknown, origin: string) => posted.push([message, origin]),
    addEventListener: (_: 'message', l: (event: PostMessageEvent) => void) => listeners.add(l),
    removeEventListener: (_: 'message', l: (event: PostMessageEvent) => void) => listeners.delete(l),
    deliver: (event: PostMessageEvent) => listeners.forEach((l) => l(event)),
  };
}

describe('PostMessageTransport on a window', () => {
  it('refuses to be built without the peer window or its exact origins', () => {
    const own = fakeWindow();
    const peer = fakeWindow();
    const build = (options: object) => () =>
      new PostMessageTransport(peer as never, { listenOn: own, ...options } as never);
    expect(build({ origins: ['https://a.example'] })).toThrow(/needs `source`, the peer window/);
    expect(build({ source: peer, origins: [] })).toThrow(/needs `origins`/);
    expect(build({ source: peer, origins: ['*'] })).toThrow(/"\*" is not an origin.*opaqueOrigin: true/);
    expect(build({ source: peer, origins: ['https://a.example/path'] })).toThrow(/is not an origin/);
    expect(build({ source: peer, origins: [], opaqueOrigin: true })).not.toThrow();
  });

  it('reads only its peer’s messages from its origins, reporting each other sender once', async () => {
    const own = fakeWindow();
    const peer = fakeWindow();
    const transport = new PostMessageTransport(peer, {
      listenOn: own,
      source: peer,
      origins: ['https://view.example'],
    });
    const got: unknown[] = [];
    const errors: string[] = [];
    transport.onmessage = (m) => got.push(m);
    transport.onerror = (e) => errors.push(e.message);
    await transport.start();
    const frame = { jsonrpc: '2.0', method: 'x' };
    own.deliver({ data: frame, source: peer, origin: 'https://view.example' });
    for (let i = 0; i < 3; i++) own.deliver({ data: frame, source: {}, origin: 'https://evil.example' });
    own.deliver({ data: frame, source: peer, origin: 'https://evil.example' });
    expect(got).toEqual([frame]);
    expect(errors).toEqual([
      'PostMessageTransport: dropped a message from https://evil.example (another window)',
      'PostMessageTransport: dropped a message from https://evil.example (an origin not in https://view.example)',
    ]);
    await transport.send({ jsonrpc: '2.0', method: 'y' });
    expect(peer.posted).toEqual([[{ jsonrpc: '2.0', method: 'y' }, 'https://view.example']]);
  });

  it('posts to * only for an opaque-origin peer', async () => {
    const own = fakeWindow();
    const peer = fakeWindow();
    const transport = new PostMessageTransport(peer, { listenOn: own, source: peer, origins: [], opaqueOrigin: true });
    await transport.send({ jsonrpc: '2.0', method: 'y' });
    expect(peer.posted[0]?.[1]).toBe('*');
  });
});
