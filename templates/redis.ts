/**
 * The state of a cluster of Streamable HTTP nodes in Redis (`@mcp-typegen/runtime/redis`), for
 * `createStreamableHttpServer`. An entry of its own because it is written against the `redis` package (node-redis,
 * an optional peer dependency), whose clients the caller makes and passes in.
 *
 * The public API, name by name (see index.ts and packages/runtime/api-report.md).
 */
export {
  redisClusterState,
  type RedisClusterStateOptions,
  type RedisCommands,
  RedisEventStore,
  RedisMessageBus,
  RedisSessionStore,
  type RedisSubscriber,
} from './cluster/redis-state.js';
