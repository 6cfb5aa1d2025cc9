/**
 * Where a method lives on a generated client: its member path (`acme/jobs.start` → `acme.jobs.start`), and the
 * refusal of two requests a client would send through the same member (`x/y` and `x.y`, `job-start` and
 * `jobStart`): one stub would silently stand for both.
 */
import { InputError } from '../errors.js';
import type { MethodInfo } from './types.js';

/** A method's member path on a client: `acme/jobs.start` → ['acme', 'jobs', 'start'] (the SDK facade's too). */
export function methodPath(method: string): string[] {
  return method.split(/[/.]/).filter(Boolean).map(memberName);
}

/** A method path segment as a member name: camelCase, and quoted later if still not an identifier. */
function memberName(segment: string): string {
  return segment.replace(/[-_]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Refuses, at the second one's `method` (`pointerOf`), two requests a client sends whose member paths are the
 * same. Extension methods need no such check: their definitions are named after the method, so two of them
 * that would collide here are refused as colliding definitions first.
 */
export function refuseMemberCollisions(
  methods: readonly MethodInfo[],
  file: string,
  pointerOf: (m: MethodInfo) => string,
): void {
  const byPath = new Map<string, MethodInfo>();
  for (const m of methods) {
    if (m.kind !== 'request' || !m.directions.includes('client->server')) continue;
    const path = methodPath(m.method).join('.');
    const first = byPath.get(path);
    if (first === undefined) {
      byPath.set(path, m);
      continue;
    }
    throw new InputError(
      file,
      pointerOf(m),
      `methods "${first.method}" and "${m.method}" would both be the client's ${path}(): rename one of them`,
    );
  }
}
