/**
 * What every emitter is given besides the model, and what it gives back: generate() builds the context once
 * per run and loops over the artifact registry (registry.ts), whose entries call the emitters. Below every
 * artifact family, so an emitter never imports the registry that imports it.
 */
import type { RuntimeMode } from './runtime.js';
import type { RuntimeRef } from './runtime-ref.js';
import type { ToolSurface } from './tool-surface.js';
import type { TsFiles } from './ts-project.js';

/** The artifacts users choose from (`artifacts` option). */
export const ARTIFACTS = ['types', 'maps', 'client', 'server', 'validators', 'sdk', 'sdk-v1'] as const;
export type Artifact = (typeof ARTIFACTS)[number];

/**
 * How a module made of JavaScript at generation time (validators, tool validators, the SDK adapter) is
 * written: `js` as X.js + X.d.ts, `ts` as one X.ts (typescript-modules.ts) that a tsc build without
 * `allowJs` still emits.
 */
export const JS_MODULE_SHAPES = ['js', 'ts'] as const;
export type JsModuleShape = (typeof JS_MODULE_SHAPES)[number];

/** What an emitter gets besides the model. */
export interface EmitContext {
  importExt: string;
  /** The shape of the modules compiled to JavaScript at generation time (default `js`). */
  jsModules: JsModuleShape;
  /** The chosen artifacts with what they need. */
  artifacts: readonly Artifact[];
  runtimeMode: RuntimeMode;
  runtime: RuntimeRef;
  /** The schema file, for messages and the types' banner. */
  schemaFile: string;
  /** The run's ts-morph Project, which writes maps, client, server and index from structures. */
  ts: TsFiles;
  /** types.ts, maps.ts, client.ts and server.ts are folded into index.ts (single-file.ts). */
  singleFile?: boolean;
  /** The server surface of the `tools` snapshot, when one is given (tools.ts and tool-validators.js). */
  tools?: ToolSurface;
}

/** One output file. */
export interface GeneratedFile {
  /** Relative to the output directory, with `/` separators. */
  path: string;
  contents: string;
}
