/**
 * The real cluster of issue 31's tests (redis-server, haproxy, node processes on loopback): the same helpers as
 * the bench's (bench/lib/cluster-processes.mjs), so the HAProxy config the tests use is the one it measures.
 */
export * from '../../bench/lib/cluster-processes.mjs';
