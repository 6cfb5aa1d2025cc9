/**
 * The artifact registry: every file group generate() can emit, with what it needs, what index.ts
 * re-exports from it and how it is emitted. generate() loops over it; index.ts and the single-file layout
 * read it. Adding an artifact is one module plus one entry here (and its name in
 * ARTIFACTS, shared/context.ts, when users can ask for it).
 *
 * Light on imports (`--check` reads resolveArtifacts): emitters are imported when used.
 */
import type { ProtocolModel } from '../model/types.js';
import {
  CLIENT_RUNTIME_EXPORTS,
  CORE_EXPORTS,
  NODE_EXPORTS,
  SERVER_RUNTIME_EXPORTS,
  runtimeImports,
  vendoredRuntime,
} from './shared/runtime.js';
import { mapsExports } from './maps/tables.js';
import { clientExports, serverExports } from './client-server/peer-exports.js';
import { sdkExports, sdkV1Exports } from './sdk/sdk-exports.js';
import { sdkToolsExports, toolsExports } from './tools/tool-exports.js';
import { ARTIFACTS, type Artifact, type EmitContext, type GeneratedFile } from './shared/context.js';

/** What is emitted when no artifact is named: everything on this runtime; the SDK adapters are opt-in. */
export const DEFAULT_ARTIFACTS: readonly Artifact[] = ['types', 'maps', 'client', 'server', 'validators'];
export type ImportExtension = '.js' | '.ts' | '';

/** Names a module exports, for index.ts. */
export interface ModuleExports {
  /** Specifier with `.js`; index.ts rewrites it to the chosen extension (not a JavaScript module's: `js`). */
  module: string;
  /** A JavaScript module with its declarations (sdk.js + sdk.d.ts): `.js` where the others take `.ts`. */
  js?: boolean;
  types: string[];
  values: string[];
}

export interface ArtifactEntry {
  name: string;
  /** Artifacts this one imports from (added to the selection). */
  needs: readonly Artifact[];
  /** Emitted for this selection? (The user's artifacts are emitted when chosen.) */
  enabled: (ctx: EmitContext) => boolean;
  /** What index.ts re-exports from it. */
  exports: (ctx: EmitContext, model: ProtocolModel) => ModuleExports[];
  /** Folded into index.ts by `singleFile`. */
  mergeable: boolean;
  emit: (model: ProtocolModel, ctx: EmitContext) => Promise<GeneratedFile[]>;
}

const chosen = (name: Artifact) => (ctx: EmitContext) => ctx.artifacts.includes(name);
const hasPeer = (ctx: EmitContext) => ctx.artifacts.includes('client') || ctx.artifacts.includes('server');

export const REGISTRY: readonly ArtifactEntry[] = [
  {
    name: 'types',
    needs: [],
    enabled: chosen('types'),
    exports: () => [], // `export type *` (index.ts names every definition)
    mergeable: true,
    emit: async (model, ctx) => {
      const { emitTypes } = await import('./types/types.js');
      return [{ path: 'types.ts', contents: await emitTypes(model, ctx.schemaFile) }];
    },
  },
  {
    name: 'maps',
    needs: ['types'],
    enabled: chosen('maps'),
    exports: (_ctx, model) => [{ module: './maps.js', ...mapsExports(model) }],
    mergeable: true,
    emit: async (model, ctx) => {
      const { mapsStatements } = await import('./maps/maps.js');
      const serverFacts = ctx.artifacts.includes('server') || !ctx.artifacts.includes('client');
      return [{ path: 'maps.ts', contents: ctx.ts.print(mapsStatements(model, ctx.importExt, serverFacts)) }];
    },
  },
  {
    // validators.js and its validators.d.ts, which types each validator with types.ts.
    name: 'validators',
    needs: ['types'],
    enabled: chosen('validators'),
    exports: () => [],
    mergeable: false,
    emit: async (model, ctx) => {
      const { validatorFiles } = await import('./validators/validators.js');
      return validatorFiles(model, ctx);
    },
  },
  {
    name: 'client',
    needs: ['maps', 'types'],
    enabled: chosen('client'),
    exports: (_ctx, model) => [{ module: './client.js', ...clientExports(model) }],
    mergeable: true,
    emit: async (model, ctx) => {
      const { clientStatements } = await import('./client-server/client.js');
      const validators = ctx.artifacts.includes('validators');
      const statements = clientStatements(model, ctx.importExt, ctx.runtime, ctx.ts, validators);
      return [{ path: 'client.ts', contents: ctx.ts.print(statements) }];
    },
  },
  {
    name: 'server',
    needs: ['maps', 'types', 'validators'],
    enabled: chosen('server'),
    exports: (_ctx, model) => [{ module: './server.js', ...serverExports(model) }],
    mergeable: true,
    emit: async (model, ctx) => {
      const { serverStatements } = await import('./client-server/server.js');
      const statements = serverStatements(model, ctx.importExt, ctx.runtime);
      return [{ path: 'server.ts', contents: ctx.ts.print(statements) }];
    },
  },
  {
    name: 'sdk',
    needs: ['maps', 'types', 'validators'],
    enabled: chosen('sdk'),
    // sdk.js and its sdk.d.ts (the validators' shape): a program that imports it checks declarations only.
    exports: (_ctx, model) => [{ module: './sdk.js', js: true, ...sdkExports(model) }],
    mergeable: false,
    emit: async (model, ctx) => {
      const { sdkFiles } = await import('./sdk/sdk-files.js');
      return sdkFiles(model, ctx);
    },
  },
  {
    name: 'sdk-v1',
    needs: ['maps', 'types', 'validators', 'sdk'],
    enabled: chosen('sdk-v1'),
    exports: (_ctx, model) => [{ module: './sdk-v1.js', ...sdkV1Exports(model) }],
    mergeable: false,
    emit: async (model, ctx) => {
      const { sdkV1Statements } = await import('./sdk/sdk-v1.js');
      return [{ path: 'sdk-v1.ts', contents: ctx.ts.print(sdkV1Statements(model, ctx.importExt)) }];
    },
  },
  {
    // Not chosen by users: the snapshot's types (`tools`), a module that imports nothing; tools.ts re-exports them.
    name: 'tool-types',
    needs: [],
    enabled: (ctx) => ctx.tools !== undefined,
    exports: () => [],
    mergeable: true,
    emit: async (_model, ctx) => {
      if (ctx.tools === undefined) return [];
      const { toolTypesStatements } = await import('./tools/tool-types.js');
      return [{ path: 'tool-types.ts', contents: ctx.ts.print(await toolTypesStatements(ctx.tools)) }];
    },
  },
  {
    // Not chosen by users: emitted when a snapshot is given (`tools`), with the client's and server's parts
    // for the artifacts chosen; with the client, sdk-tools.ts (the same calls over the official SDK's Client).
    name: 'tools',
    needs: [],
    enabled: (ctx) => ctx.tools !== undefined,
    exports: (ctx) => [
      { module: './tools.js', ...toolsExports(ctx) },
      ...(ctx.artifacts.includes('client') ? [{ module: './sdk-tools.js', ...sdkToolsExports(ctx) }] : []),
    ],
    mergeable: true,
    emit: async (_model, ctx) => {
      if (ctx.tools === undefined) return [];
      const { toolsStatements } = await import('./tools/tools.js');
      const { toolValidatorFiles } = await import('./tools/tool-validators.js');
      const { toolSchemaFiles } = await import('./tools/tool-schemas.js');
      const { toolSchemaV1Files } = await import('./tools/tool-schemas-v1.js');
      const { sdkToolsStatements } = await import('./tools/sdk-tools.js');
      const sdkTools = ctx.artifacts.includes('client') ? sdkToolsStatements(ctx.tools, ctx) : undefined;
      return [
        { path: 'tools.ts', contents: ctx.ts.print(toolsStatements(ctx.tools, ctx)) },
        ...(sdkTools ? [{ path: 'sdk-tools.ts', contents: ctx.ts.print(sdkTools) }] : []),
        ...toolValidatorFiles(ctx.tools, ctx),
        ...toolSchemaFiles(ctx.tools, ctx),
        // SDK v1's registration imports zod: only for projects that asked for the SDK v1 adapter.
        ...(ctx.artifacts.includes('sdk-v1') ? toolSchemaV1Files(ctx.tools, ctx) : []),
      ];
    },
  },
  {
    // Not chosen by users: what client and server need from the runtime, re-exported, and with
    // `runtime: copy` the vendored modules (the Node-only ones only with a server).
    name: 'runtime',
    needs: [],
    enabled: hasPeer,
    exports: (ctx) => {
      const { core, node } = runtimeImports(ctx.runtimeMode, '.js');
      const server = ctx.artifacts.includes('server');
      const names = (
        ...groups: { types: readonly string[]; values: readonly string[] }[]
      ): { types: string[]; values: string[] } => ({
        types: groups.flatMap((g) => g.types),
        values: groups.flatMap((g) => g.values),
      });
      const coreNames = names(
        CORE_EXPORTS,
        ...(ctx.artifacts.includes('client') ? [CLIENT_RUNTIME_EXPORTS] : []),
        ...(server ? [SERVER_RUNTIME_EXPORTS] : []),
      );
      return [{ module: core, ...coreNames }, ...(server ? [{ module: node, ...NODE_EXPORTS }] : [])];
    },
    mergeable: false,
    emit: async (_model, ctx) =>
      ctx.runtimeMode === 'copy'
        ? vendoredRuntime(ctx.importExt, ctx.artifacts.includes('server')).map((f) => ({
            path: f.path,
            contents: f.text,
          }))
        : [],
  },
];

/** The requested artifacts plus what they need, in a fixed order; all of them when none is named. */
export function resolveArtifacts(requested: readonly Artifact[] | undefined): Artifact[] {
  const wanted = new Set<Artifact>(requested && requested.length > 0 ? requested : DEFAULT_ARTIFACTS);
  for (const a of [...wanted]) for (const need of entry(a).needs) wanted.add(need);
  return ARTIFACTS.filter((a) => wanted.has(a));
}

export function entry(name: string): ArtifactEntry {
  const found = REGISTRY.find((e) => e.name === name);
  if (!found) throw new Error(`unknown artifact ${name}`);
  return found;
}

/** The module names `singleFile` folds into index.ts. */
export const MERGEABLE: readonly string[] = REGISTRY.filter((e) => e.mergeable).map((e) => e.name);
