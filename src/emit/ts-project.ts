import { Project, type StatementStructures } from 'ts-morph';

let project: Project | undefined;

/**
 * Print a whole file from ts-morph structures in one go (never node-by-node edits: those re-parse and
 * are several times slower). One in-memory project serves every file of the run.
 */
export function printFile(name: string, statements: (StatementStructures | string)[]): string {
  project ??= new Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true });
  const file = project.createSourceFile(`/${name}`, { statements }, { overwrite: true });
  const text = file.getFullText();
  project.removeSourceFile(file);
  return text;
}
