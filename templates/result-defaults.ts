/**
 * The handler-side type of a result whose fields the runtime fills in (server-base.ts `withDefaults`).
 *
 * Hand-written runtime copied into generated output as `runtime/result-defaults.ts`. Types only.
 */
/**
 * A result as a handler may return it: the fields the runtime fills in (`K`, from
 * PROTOCOL.facts.resultDefaults) optional, every other field as the schema says.
 */
export type WithDefaults<R, K extends string> = R extends unknown
  ? { [P in keyof R as P extends K ? never : P]: R[P] } & { [P in K & keyof R]?: R[P] }
  : never;
