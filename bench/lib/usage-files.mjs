// The type-check cost rows: the same ≈50 typed calls written against our generated client and against the
// SDKs' Client (v1 and v2), each in its own project, checked by `tsc --noEmit --extendedDiagnostics`, and an
// empty program with the same settings (the floor the whole-process row subtracts).

/** [ours, sdk] call expressions and a property read on the result that forces its type. */
const CALLS = [
  [
    "client.tools.call({ name: 'echo', arguments: { text: 'x' } })",
    "client.callTool({ name: 'echo', arguments: { text: 'x' } })",
    'r.isError',
  ],
  ['client.tools.list()', 'client.listTools()', 'r.tools.length'],
  ['client.resources.list()', 'client.listResources()', 'r.resources.length'],
  ["client.resources.read({ uri: 'file:///a' })", "client.readResource({ uri: 'file:///a' })", 'r.contents.length'],
  ['client.resources.templates.list()', 'client.listResourceTemplates()', 'r.resourceTemplates.length'],
  ['client.prompts.list()', 'client.listPrompts()', 'r.prompts.length'],
  [
    "client.prompts.get({ name: 'p', arguments: { a: 'b' } })",
    "client.getPrompt({ name: 'p', arguments: { a: 'b' } })",
    'r.messages.length',
  ],
  [
    "client.completion.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 'v' } })",
    "client.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 'v' } })",
    'r.completion.values.length',
  ],
  ["client.logging.setLevel({ level: 'info' })", "client.setLoggingLevel('info')", 'r._meta'],
  ['client.ping()', 'client.ping()', 'r._meta'],
];

export function usageFiles(count) {
  const body = (side) => {
    const lines = [];
    for (let i = 0; i < count; i++) {
      const [ours, sdk, read] = CALLS[i % CALLS.length];
      lines.push(`  { const r = await ${side === 'ours' ? ours : sdk}; sink(${read}); }`);
    }
    return lines.join('\n');
  };
  const ours = `import { createClient } from './gen/client.js';
import { createInMemoryPair } from './gen/index.js';

declare function sink(value: unknown): void;

export async function usage(): Promise<void> {
  const [transport] = createInMemoryPair();
  const client = createClient(transport, { clientInfo: { name: 'bench', version: '1.0.0' } });
  await client.connect();
${body('ours')}
}
`;
  const sdk = `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';

declare function sink(value: unknown): void;

export async function usage(): Promise<void> {
  const [transport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
${body('sdk')}
}
`;
  // The same calls against the v2 SDK (@modelcontextprotocol/client: the same method names as v1).
  const sdk2 = `import { Client, InMemoryTransport } from '@modelcontextprotocol/client';

declare function sink(value: unknown): void;

export async function usage(): Promise<void> {
  const [transport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
${body('sdk')}
}
`;
  // The floor under the whole-process rows: the same compiler settings (Node's types, the lib) and no code.
  const empty = 'export {};\n';
  return { ours, sdk, sdk2, empty };
}

/** Same compiler options for both: strict, NodeNext, and library .d.ts files not re-checked. */
export function tsconfig(typeRoots) {
  return {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2022'],
      types: ['node'],
      typeRoots: [typeRoots],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      isolatedModules: true,
      verbatimModuleSyntax: true,
    },
    files: ['usage.ts'],
  };
}

/** Numbers from `--extendedDiagnostics` output. */
export function parseDiagnostics(text) {
  const num = (label) => {
    const m = text.match(new RegExp(`^${label}:\\s+([\\d.]+)`, 'm'));
    return m ? Number(m[1]) : NaN;
  };
  return {
    checkS: num('Check time'),
    totalS: num('Total time'),
    instantiations: num('Instantiations'),
    types: num('Types'),
    files: num('Files'),
  };
}
