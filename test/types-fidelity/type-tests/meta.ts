/**
 * `_meta` in requests, results and notifications of every version: vendor keys pass, the known keys
 * (`progressToken`, the `io.modelcontextprotocol/*` keys) keep their exact types. Compiled next to
 * `./generated/<version>/types.ts` by type-tests.test.ts.
 */
import type * as V1 from './generated/2024-11-05/types.js';
import type * as V2 from './generated/2025-03-26/types.js';
import type * as V3 from './generated/2025-06-18/types.js';
import type * as V4 from './generated/2025-11-25/types.js';
import type * as V5 from './generated/2026-07-28/types.js';

const vendor = { 'com.acme/trace': 'abc', 'com.acme/attempt': 2 };

// Requests: params written out in full (before 2025-11-25) carry `_meta` too (meta-on-all-params).
export const request1: V1.CallToolRequest['params'] = { name: 't', _meta: { progressToken: 1, ...vendor } }; // needs [meta-on-all-params]
export const request2: V2.CallToolRequest['params'] = { name: 't', _meta: { progressToken: 'p', ...vendor } };
export const request3: V3.CallToolRequest['params'] = { name: 't', _meta: { ...vendor } }; // needs [meta-on-all-params]
export const request4: V4.CallToolRequestParams = { name: 't', _meta: { progressToken: 1, ...vendor } };
export const ping1: NonNullable<V1.PingRequest['params']> = { _meta: { 'com.acme/trace': 'x' } };
const wire5 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
export const request5: V5.CallToolRequestParams = { name: 't', _meta: { ...wire5, progressToken: 1, ...vendor } };

export const badRequest1: V1.CallToolRequest['params'] = {
  name: 't',
  // @ts-expect-error [request-meta-known-key]
  _meta: { progressToken: { not: 'a token' } },
};
export const badRequest3: V3.CallToolRequest['params'] = {
  name: 't',
  // @ts-expect-error [request-meta-known-key]
  _meta: { progressToken: true, ...vendor },
};
export const badRequest4: V4.CallToolRequestParams = {
  name: 't',
  // @ts-expect-error [request-meta-known-key]
  _meta: { progressToken: [1], ...vendor },
};
export const badRequest5: V5.CallToolRequestParams = {
  name: 't',
  // @ts-expect-error [request-meta-known-key]
  _meta: { ...wire5, progressToken: null, ...vendor },
};
export const badVersion5: V5.RequestMetaObject = {
  ...wire5,
  // @ts-expect-error [request-meta-protocol-version]
  'io.modelcontextprotocol/protocolVersion': 20260728,
};
// On the wire a 2026-07-28 request's `_meta` needs the protocol version and client capabilities;
// the generated client fills them in (its call signatures take CallerParams, see test/client).
// @ts-expect-error [request-meta-wire-keys-required]
export const wireOnlyVendor5: V5.CallToolRequestParams = { name: 't', _meta: { ...vendor } };

// Results: open (spec Result has an index signature), and so is their `_meta`.
export const result1: V1.CallToolResult = { content: [], _meta: { ...vendor }, 'com.acme/extra': true };
export const result4: V4.ListToolsResult = { tools: [], _meta: { ...vendor }, extra: 1 };
export const result5: V5.CallToolResult = {
  resultType: 'complete',
  content: [],
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' }, ...vendor },
  extra: 1,
};
export const badResult1: V1.CallToolResult = {
  content: [],
  // @ts-expect-error [result-meta-not-object]
  _meta: 'not an object',
};
export const badResult5: V5.CallToolResult = {
  resultType: 'complete',
  content: [],
  // @ts-expect-error [result-meta-known-key]
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's' }, ...vendor },
};

// Notifications.
export const note1: V1.ProgressNotification['params'] = { progressToken: 1, progress: 1, _meta: { ...vendor } }; // needs [meta-on-all-params]
export const note2: NonNullable<V2.Notification['params']> = { _meta: { ...vendor } };
export const note4: V4.ProgressNotificationParams = { progressToken: 1, progress: 1, _meta: { ...vendor } };
export const note5: V5.ProgressNotificationParams = {
  progressToken: 1,
  progress: 1,
  _meta: { 'io.modelcontextprotocol/subscriptionId': 7, ...vendor },
};
export const badNote3: V3.ProgressNotification['params'] = {
  progressToken: 1,
  progress: 1,
  // @ts-expect-error [notification-meta-not-object]
  _meta: 42,
};
export const badNote5: V5.ProgressNotificationParams = {
  progressToken: 1,
  progress: 1,
  // @ts-expect-error [notification-meta-known-key]
  _meta: { 'io.modelcontextprotocol/subscriptionId': { id: 7 }, ...vendor },
};
