/**
 * ts-morph writes every TypeScript file the generator emits besides types.ts's declarations (maps,
 * client, server, index, the adapters, the single-file layout): each from a list of statement structures,
 * in one `printStructure` call per file. Layout is prettier's job afterwards (format.ts). The run's
 * in-memory Project is only for reading TypeScript (the single-file layout, a runtime class's members).
 */
import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';
import type { Project, SourceFile, StatementStructures } from 'ts-morph';

let loaded: typeof TsMorph | undefined;

/**
 * ts-morph, loaded on first use (a `--check` that finds the output up to date never loads it, nor the
 * TypeScript compiler it carries). Required, not imported: an ESM import of this CommonJS package makes
 * Node scan its sources for module syntax and export names first, ~0.1 s of CPU per run.
 */
export function tsMorph(): typeof TsMorph {
  return (loaded ??= createRequire(import.meta.url)('ts-morph') as typeof TsMorph);
}

/** A statement: a ts-morph structure, or a line of code (`checkRuntimeVersion(…);`). */
export type Statement = string | StatementStructures;

export interface TsFiles {
  /** A file's text, written from its statements. */
  print(statements: readonly Statement[]): string;
  /** A file added earlier in this run. */
  source(path: string): SourceFile | undefined;
  /** Adds a file as text (the single-file layout reads the modules it merges). */
  add(path: string, text: string): SourceFile;
}

/**
 * The run's printer and Project (one per generate() call). The Project is made on first use: a run that
 * reads no TypeScript (every default one) never makes it.
 */
export function createTsFiles(): TsFiles {
  let made: Project | undefined;
  const project = (): Project => (made ??= newProject());
  return {
    // Printed straight from the structures: the text goes to prettier next, so parsing it into the
    // Project as well (what createSourceFile does after printing) cost a TypeScript parse of each file.
    print: (statements) => printStatements(statements),
    source: (path) => made?.getSourceFile(path),
    add: (path, text) => project().createSourceFile(path, text, { overwrite: true }),
  };
}

function printStatements(statements: readonly Statement[]): string {
  const { printStructure, StructureKind } = tsMorph();
  return printStructure(
    { kind: StructureKind.SourceFile, statements: [...statements] },
    { indentNumberOfSpaces: 2, useSingleQuote: true },
  );
}

function newProject(): Project {
  const { Project: ProjectClass, IndentationText, QuoteKind } = tsMorph();
  return new ProjectClass({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    // Nothing is type-checked: the lib .d.ts files would only take memory.
    skipLoadingLibFiles: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Single },
  });
}
