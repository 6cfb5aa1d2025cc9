/**
 * The environment variables of `snapshot --auth`'s machine client (client credentials, in CI): named once, for the
 * option's help and the code that reads them (auth.ts), without loading the OAuth client to print help.
 */
export const AUTH_ENV = {
  clientId: 'MCP_TYPEGEN_AUTH_CLIENT_ID',
  clientSecret: 'MCP_TYPEGEN_AUTH_CLIENT_SECRET',
} as const;
