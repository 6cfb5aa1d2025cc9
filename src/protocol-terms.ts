/** Words of the protocol every layer shares (schemas, extension files, the model, diff). No imports. */

/**
 * Who sends a message.
 * - `client->server`, `server->client`: from the ClientRequest / ServerRequest / ClientNotification /
 *   ServerNotification unions.
 * - `input`: a 2026-07-28+ embedded input request: the server asks for it inside an
 *   `InputRequiredResult` and the client answers it in `inputResponses` on its retry; it is never sent
 *   as a JSON-RPC request of its own.
 */
export type Direction = 'client->server' | 'server->client' | 'input';
export const DIRECTIONS: readonly Direction[] = ['client->server', 'server->client', 'input'];

export type MethodKind = 'request' | 'notification';
