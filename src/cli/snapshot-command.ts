/**
 * `mcp-typegen snapshot`: a live server's tool surface into one deterministic JSON file
 * (schema/snapshot.schema.json), or with `--check` a CI guard: exit 1, with the diff, when the server
 * no longer matches the committed file.
 *
 *   mcp-typegen snapshot --out server.snapshot.json -- node server.js
 *   mcp-typegen snapshot --url https://host/mcp --header "Authorization: Bearer $TOKEN" --out s.json
 *   mcp-typegen snapshot --url https://host/mcp --auth --out s.json
 */
import type { Argv, CommandModule } from 'yargs';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError, describeFsError } from '../errors.js';
import { EXIT, UsageError, type Out } from '../run/console.js';
import type { FetchPolicy } from '../load/download.js';
import type { CliContext } from './commands.js';
import type { ServerTarget } from '../snapshot/capture.js';
import { AUTH_ENV } from '../snapshot/auth-env.js';
import { fetchOptions, fetchPolicy, pathFlag, single, type FetchFlags, type GlobalFlags } from './options.js';

export interface SnapshotFlags {
  /** The server's command line (after `--`): stdio. */
  command?: string[];
  url?: string;
  header?: string[];
  /** OAuth 2.1 for --url (src/snapshot/auth.ts). */
  auth?: boolean;
  /** The loopback port of --auth's redirect URI; default a free one. */
  authPort?: number;
  /** Environment variables for the server command, `NAME=value` (it inherits only PATH, HOME and a few more). */
  env?: string[];
  out?: string;
  check?: boolean;
  /** The newest spec version the client speaks (it negotiates down from there); default the newest known. */
  spec?: string;
  schemaDir?: string;
  policy?: FetchPolicy;
}

type SnapshotCliFlags = GlobalFlags & FetchFlags & Omit<SnapshotFlags, 'policy'> & { '--'?: (string | number)[] };

export function snapshotCommand(ctx: CliContext): CommandModule<object, SnapshotCliFlags> {
  return {
    command: 'snapshot',
    describe: "Write a server's tools, prompts, resources and templates to one JSON file (or --check it)",
    builder: (y) =>
      authOptions(fetchOptions(y))
        .parserConfiguration({ 'populate--': true })
        .option('url', {
          type: 'string',
          describe: 'The server at this URL (Streamable HTTP, falling back to HTTP+SSE)',
        })
        .option('header', {
          type: 'string',
          array: true,
          describe: 'An HTTP header for --url, "Name: value" (repeatable), e.g. for auth',
        })
        .option('env', {
          type: 'string',
          array: true,
          describe: 'An environment variable for the server command, NAME=value (repeatable), e.g. a token',
        })
        .option('out', {
          alias: 'o',
          type: 'string',
          coerce: pathFlag('out', { output: true }),
          describe: 'The snapshot file (default: stdout)',
        })
        .option('check', {
          type: 'boolean',
          describe: 'Write nothing; exit 1 with the diff when the server differs from --out',
        })
        .option('spec', { type: 'string', describe: 'The newest spec version to speak (default: the newest known)' })
        .option('schema-dir', {
          type: 'string',
          coerce: pathFlag('schema-dir'),
          describe: 'Where spec schemas are (else MCP_SCHEMA_DIR, the cache, a download)',
        })
        .example('$0 snapshot --out server.snapshot.json -- node server.js', 'A stdio server')
        .example('$0 snapshot --url http://localhost:3000/mcp --header "Authorization: Bearer T"', 'An HTTP server')
        .example('$0 snapshot --url https://mcp.example.com/mcp --auth --out s.json', 'A server behind OAuth')
        .example('$0 snapshot --check --out server.snapshot.json -- node server.js', 'In CI: fail on drift')
        .example(
          '$0 diff old.snapshot.json server.snapshot.json',
          'What changed between two snapshots',
        ) as unknown as Argv<SnapshotCliFlags>,
    handler: ctx.run(async (flags: SnapshotCliFlags) =>
      runSnapshot(
        { ...flags, command: (flags['--'] ?? []).map(String), policy: fetchPolicy(flags) },
        ctx.outFor(flags),
      ),
    ),
  };
}

/** `--auth` and `--auth-port`: OAuth 2.1 for --url (src/snapshot/auth.ts). */
function authOptions<T>(y: Argv<T>) {
  return y
    .option('auth', {
      type: 'boolean',
      describe: `Authorize with OAuth 2.1 when --url asks for it: in a browser (a loopback redirect; tokens kept in the user cache, 0600), or with client credentials from ${AUTH_ENV.clientId} and ${AUTH_ENV.clientSecret} (CI)`,
    })
    .option('auth-port', {
      type: 'number',
      coerce: single('auth-port'),
      describe: "--auth's redirect URI port on 127.0.0.1 (a pre-registered client's); default a free one",
    });
}

export async function runSnapshot(
  flags: SnapshotFlags,
  out: Out,
  write: (text: string) => void = (t) => process.stdout.write(t),
): Promise<number> {
  const target = serverTarget(flags);
  if (flags.check && !flags.out) throw new UsageError('--check needs --out <file>: the committed snapshot to check');
  const cwd = process.cwd();
  const { captureSnapshot } = await import('../snapshot/capture.js');
  const { renderSnapshot } = await import('../load/snapshot-file.js');
  const { clientProtocol } = await import('../snapshot/protocol.js');
  const { toolPackage } = await import('../load/package-root.js');
  const protocol = await clientProtocol({ spec: flags.spec, schemaDir: flags.schemaDir, cwd, ...flags.policy });
  const text = renderSnapshot(
    await withAuth(flags, target, (t) => captureSnapshot(t, protocol, toolPackage().version)),
  );
  if (!flags.out) {
    write(text);
    return EXIT.ok;
  }
  const file = resolve(cwd, flags.out);
  if (!flags.check) {
    await writeFile(file, text).catch((error: unknown) => {
      throw new InputError(flags.out ?? file, undefined, `cannot write the snapshot: ${describeFsError(error)}`);
    });
    out.info(`snapshot: wrote ${flags.out}`);
    return EXIT.ok;
  }
  return checkSnapshot(flags.out, file, text, out, write);
}

/** The capture, with `--auth`'s OAuth client (and its loopback listener, stopped after) when asked for. */
async function withAuth<T>(
  flags: SnapshotFlags,
  target: ServerTarget,
  capture: (t: ServerTarget) => Promise<T>,
): Promise<T> {
  if (!flags.auth || target.kind !== 'url') return capture(target);
  const { startSnapshotAuth } = await import('../snapshot/auth.js');
  const session = await startSnapshotAuth({ env: process.env, port: flags.authPort });
  try {
    return await capture({ ...target, auth: { client: session.auth, interactive: session.interactive } });
  } finally {
    await session.close();
  }
}

/** `--check`: the committed file against the live surface; exit 1 with the diff when they differ. */
async function checkSnapshot(
  name: string,
  file: string,
  live: string,
  out: Out,
  write: (text: string) => void,
): Promise<number> {
  const committed = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new InputError(name, undefined, `cannot read the committed snapshot: ${describeFsError(error)}`);
  });
  // Compared as snapshots, not as bytes: a committed file a formatter re-indented is still up to date.
  const { parseSnapshot, renderSnapshot } = await import('../load/snapshot-file.js');
  if (renderSnapshot(parseSnapshot(committed, name)) === live) {
    out.info(`snapshot: ${name} is up to date`);
    return EXIT.ok;
  }
  const { diffSnapshotSides } = await import('../snapshot/diff.js');
  const { renderReport } = await import('../diff/render.js');
  const report = diffSnapshotSides(
    { name, text: committed },
    { name: 'live server', text: live },
    { oldName: name, newName: 'live server', includeDescriptions: true },
  );
  write(renderReport(report, 'text', { side: 'both' }));
  // The diff compares what clients and servers rely on; the file also holds server info and texts.
  out.error(
    report.facts.length > 0
      ? `snapshot: the live server differs from ${name}; re-run without --check to update it`
      : `snapshot: the live server differs from ${name} in server info, capabilities or resources, not in its tools, prompts or templates; re-run without --check to update it`,
  );
  return EXIT.found;
}

/** Exactly one of a command (after `--`) and `--url`; headers only with a URL. */
export function serverTarget(flags: SnapshotFlags): ServerTarget {
  const command = flags.command ?? [];
  if (command.length > 0 && flags.url) throw new UsageError('give a server command (after --) or --url, not both');
  if (flags.url) {
    if ((flags.env ?? []).length > 0) throw new UsageError('--env applies to a server command only');
    let url: URL;
    try {
      url = new URL(flags.url);
    } catch {
      throw new UsageError(`--url "${flags.url}" is not a URL`);
    }
    const headers = parseHeaders(flags.header ?? []);
    if (flags.auth && headers['authorization'] !== undefined)
      throw new UsageError('give --auth or an Authorization --header, not both');
    if (flags.authPort !== undefined && !flags.auth) throw new UsageError('--auth-port applies to --auth only');
    if (
      flags.authPort !== undefined &&
      !(Number.isInteger(flags.authPort) && flags.authPort > 0 && flags.authPort < 65536)
    )
      throw new UsageError(`--auth-port ${flags.authPort} is no port number`);
    return { kind: 'url', url: url.href, headers };
  }
  const [program, ...args] = command;
  if (program === undefined || program === '')
    throw new UsageError(
      'no server given',
      'pass its command after --, e.g. mcp-typegen snapshot -- node server.js; or --url',
    );
  if ((flags.header ?? []).length > 0) throw new UsageError('--header applies to --url only');
  if (flags.auth)
    throw new UsageError('--auth applies to --url only', 'a stdio server takes its credentials from --env');
  const env = parseEnv(flags.env ?? []);
  return { kind: 'command', command: program, args, ...(env ? { env } : {}) };
}

function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    const name = at > 0 ? line.slice(0, at).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header "${line}" is not "Name: value"`);
    headers[name.toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}

/**
 * `--env NAME=value` lines; undefined when none. The server inherits only the runtime's default variables
 * (PATH, HOME, …), so a token it reads from its environment is passed here.
 */
function parseEnv(lines: string[]): Record<string, string> | undefined {
  if (lines.length === 0) return undefined;
  const env: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf('=');
    if (at <= 0) throw new UsageError(`--env "${line}" is not NAME=value`);
    env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}
