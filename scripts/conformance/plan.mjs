/**
 * What a conformance run runs, read from the suites themselves (`conformance list`), so a scenario a new release
 * adds is run (or reported as having no example) without editing a table here:
 *
 * - server: per suite and spec version with an example server, `server --suite all --spec-version V` (every
 *   scenario the suite has for V, pending ones included); an extension's scenarios (tagged `extension`) one by
 *   one against the 2026-07-28 server, which is generated with the extension;
 * - client: per suite, each scenario at every spec version with an example client that it is tagged with; the
 *   `auth/*` ones with the 2026-07-28 client (its OAuth part, auth.ts), at each version they are for; the skills
 *   host ones with the 2026-07-28 client.
 *
 * A listed scenario no run takes, and that NOT_RUN does not name, is `unplanned`: the run fails on it.
 */
import { run } from './processes.mjs';

const TASKS = 'io.modelcontextprotocol/tasks';
const SKILLS = 'io.modelcontextprotocol/skills';

/** The spec versions each suite is run at, each with an example server and client (scripts/conformance/workspace.mjs). */
export const VERSIONS = { newest: ['2025-11-25', '2026-07-28'], stable: ['2025-11-25'] };

/** Extension scenarios by name: which extension, run with the example of which version. */
const EXTENSIONS = [
  { side: 'server', prefix: 'tasks-', label: TASKS },
  { side: 'server', prefix: 'sep-2640-', label: SKILLS },
  { side: 'client', prefix: 'sep-2640-client-', label: SKILLS },
];

/** The version whose example client runs the `auth/*` scenarios: the dual-era client with the OAuth client. */
const AUTH_CLIENT = '2026-07-28';

/**
 * Scenarios a suite lists that no run takes, on purpose, keyed `<suite> <side> <scenario>`, each with why. The
 * stable suite's auth scenarios are the newest suite's under the names of 0.1.16; the newest are run.
 */
export const NOT_RUN = {};

/**
 * Every scenario a suite lists, by side, with its tags (`- name [2025-11-25,extension]`).
 * @returns {Promise<{ server: Array<{ name: string, tags: string[] }>, client: Array<{ name: string, tags: string[] }> }>}
 */
export async function listScenarios(node, runner) {
  const listed = await run(node, [runner, 'list'], { timeoutMs: 60_000 });
  if (listed.code !== 0) throw new Error(`conformance list failed:\n${listed.stdout}${listed.stderr}`);
  const sides = { server: [], client: [] };
  let side;
  for (const line of listed.stdout.split('\n')) {
    if (/^Server scenarios/.test(line)) side = 'server';
    else if (/^Client scenarios/.test(line)) side = 'client';
    else if (/^\S/.test(line)) side = undefined; // another section (authorization servers: we make none)
    const item = /^\s+- (\S+) \[([^\]]*)\]$/.exec(line);
    if (item && side) sides[side].push({ name: item[1], tags: item[2].split(',') });
  }
  return sides;
}

/**
 * The runs of one suite from its lists. A run: `{ suite, side, label, version, scenarios, all?, specVersion?,
 * force? }` — `version` picks the example, `all` runs the server's whole `--suite all` in one process.
 * @returns {{ runs: object[], unplanned: string[] }}
 */
export function planSuite(suite, lists) {
  const runs = [];
  const taken = new Set();
  const add = (key, fields, name) => {
    let found = runs.find((r) => `${r.suite} ${r.side} ${r.label}` === key);
    if (!found) runs.push((found = { suite, ...fields, scenarios: [] }));
    found.scenarios.push(name);
    taken.add(`${fields.side} ${name}`);
  };
  for (const version of VERSIONS[suite]) {
    for (const { name, tags } of lists.server) {
      if (tags.includes(version)) add(`${suite} server ${version}`, serverRun(version), name);
    }
  }
  for (const { name, tags } of lists.server) {
    const extension = tags.includes('extension') && extensionOf('server', name);
    // The runner runs an extension's scenarios at 2026-07-28, the version the extensions are generated with.
    if (extension)
      add(`${suite} server ${extension}`, { side: 'server', label: extension, version: '2026-07-28' }, name);
  }
  for (const { name, tags } of lists.client) {
    for (const fields of clientRuns(suite, name, tags)) add(`${suite} client ${fields.label}`, fields, name);
  }
  const unplanned = ['server', 'client'].flatMap((side) =>
    lists[side]
      .filter(({ name }) => !taken.has(`${side} ${name}`) && !Object.hasOwn(NOT_RUN, `${suite} ${side} ${name}`))
      .map(({ name, tags }) => ({ suite, side, label: tags.join(','), name })),
  );
  return { runs, unplanned };
}

function serverRun(version) {
  return { side: 'server', label: version, version, specVersion: version, all: true };
}

function extensionOf(side, name) {
  return EXTENSIONS.find((e) => e.side === side && name.startsWith(e.prefix))?.label;
}

/** The runs a client scenario belongs to: one per version it is run at. */
function clientRuns(suite, name, tags) {
  const dated = tags.filter((tag) => /^\d{4}-\d\d-\d\d$/.test(tag));
  if (name.startsWith('auth/')) {
    const at = VERSIONS[suite].filter((v) => dated.includes(v));
    // A scenario of an older version only (2025-03-26 back-compat) runs at that version; one of none (an
    // extension's, a draft's) at the runner's default.
    const versions = at.length > 0 ? at : dated.slice(-1);
    if (versions.length === 0) return [{ side: 'client', label: `auth ${tags.join(',')}`, version: AUTH_CLIENT }];
    return versions.map((v) => ({ side: 'client', label: `auth ${v}`, version: AUTH_CLIENT, specVersion: v }));
  }
  const extension = tags.includes('extension') && extensionOf('client', name);
  if (extension) {
    return [{ side: 'client', label: extension, version: '2026-07-28', specVersion: '2026-07-28', force: true }];
  }
  return VERSIONS[suite]
    .filter((v) => dated.includes(v))
    .map((v) => ({ side: 'client', label: v, version: v, specVersion: v }));
}

/**
 * Keeps the scenarios a selection names. `only` and `except` are lists of terms; a term names a suite (`newest`,
 * `stable`), a side (`server`, `client`), `auth` (the `auth/*` client scenarios), a run's label (`2026-07-28`,
 * `io.modelcontextprotocol/tasks`) or a scenario. A run some of whose scenarios are left out runs them one by one.
 */
export function select(runs, selection = {}) {
  return runs.flatMap((r) => {
    const scenarios = r.scenarios.filter((s) => selected(r, s, selection));
    if (scenarios.length === 0) return [];
    return [{ ...r, scenarios, all: r.all === true && scenarios.length === r.scenarios.length }];
  });
}

/** Whether a selection keeps `scenario` of a run (`{ suite, side, label }`). */
export function selected(r, scenario, { only = [], except = [] } = {}) {
  const names = [r.suite, r.side, r.label, scenario, ...(scenario.startsWith('auth/') ? ['auth'] : [])];
  return (only.length === 0 || names.some((n) => only.includes(n))) && !names.some((n) => except.includes(n));
}
