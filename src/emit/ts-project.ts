/**
 * ts-morph writes every TypeScript file the generator emits besides types.ts's declarations (maps,
 * client, server, index, the single-file layout): each from a list of statement structures, in one call
 * per file, into one in-memory Project per run. Layout is prettier's job afterwards (format.ts).
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
  /** The file's text, written from the statements into the run's Project. */
  print(path: string, statements: readonly Statement[]): string;
  /** A file written (or added) earlier in this run. */
  source(path: string): SourceFile | undefined;
  /** Adds a file as text (the single-file layout reads the modules it merges). */
  add(path: string, text: string): SourceFile;
}

/**
 * The run's Project (one per generate() call), made on first use: the emitters that run before it (types,
 * validators) leave their garbage collectable before the TypeScript compiler ts-morph carries is loaded,
 * so the two never peak together, and a run that writes no TypeScript through it never loads it.
 */
export function createTsFiles(): TsFiles {
  let made: Project | undefined;
  const project = (): Project => (made ??= newProject());
  return {
    print: (path, statements) =>
      project()
        .createSourceFile(path, { statements: [...statements] }, { overwrite: true })
        .getFullText(),
    source: (path) => made?.getSourceFile(path),
    add: (path, text) => project().createSourceFile(path, text, { overwrite: true }),
  };
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
