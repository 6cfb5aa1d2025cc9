/** Types for cluster-processes.mjs (the tests import it through test/helpers/cluster.ts). */
export function ensureClusterTools(): void;
export function freePort(): Promise<number>;
export function listening(port: number, ms?: number): Promise<void>;
export interface Redis {
  port: number;
  url: string;
  /** The running redis-server's process id. */
  readonly pid: number | undefined;
  /** Kills it (SIGKILL: nothing is saved). */
  down(): Promise<void>;
  /** Starts it again on the same port, empty. */
  up(): Promise<void>;
  stop(): Promise<void>;
}
export function startRedis(): Promise<Redis>;
export function haproxyConfig(port: number, nodes: readonly number[]): string;
export interface Haproxy {
  url: string;
  stop(): Promise<void>;
}
export function startHaproxy(nodes: readonly number[]): Promise<Haproxy>;
export interface Node {
  id: string;
  port: number;
  base: string;
  pid: number | undefined;
  /** kill -9. */
  kill(): Promise<void>;
  stop(): Promise<void>;
  debug(): Promise<{ node: string; sessions: string[]; streams: string[]; served: Record<string, number> }>;
}
export function startNode(script: string, redisUrl: string, id: string, port?: number, args?: string[]): Promise<Node>;
