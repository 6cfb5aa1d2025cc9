/**
 * Waits until `condition()` holds, polling every few milliseconds; throws after `ms`. For conditions that
 * network I/O or another process will make true (a deadline in time, not in turns of the event loop).
 */
export async function eventually(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
