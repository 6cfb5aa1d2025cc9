/**
 * No unit too long to review: no source file of src/ or templates/ over 500 lines, and no function over
 * 60 lines unless a comment right above it (or in its doc comment) says why, starting "Long because".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';

const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 60;
const REASON = /Long because\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'templates'))];

it(`no file of src/ or templates/ is over ${MAX_FILE_LINES} lines`, () => {
  const long = files
    .map((file) => [relative(ROOT, file), readFileSync(file, 'utf8').split('\n').length] as const)
    .filter(([, lines]) => lines > MAX_FILE_LINES)
    .map(([file, lines]) => `${file}: ${lines} lines`);
  expect(long).toEqual([]);
});

/** The comments that belong to a function: its own leading ones and, for `const f = () => …`, its statement's. */
function leadingComments(text: string, node: ts.Node): string {
  let owner: ts.Node = node;
  while (
    owner.parent &&
    (ts.isVariableDeclaration(owner.parent) ||
      ts.isVariableDeclarationList(owner.parent) ||
      ts.isVariableStatement(owner.parent) ||
      ts.isPropertyAssignment(owner.parent))
  )
    owner = owner.parent;
  const ranges = ts.getLeadingCommentRanges(text, owner.getFullStart()) ?? [];
  return ranges.map((r) => text.slice(r.pos, r.end)).join('\n');
}

it(`no function over ${MAX_FUNCTION_LINES} lines without a reason next to it`, () => {
  const long: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = last - first + 1;
        if (lines > MAX_FUNCTION_LINES && !REASON.test(leadingComments(text, node)))
          long.push(`${relative(ROOT, file)}:${first + 1}: ${lines} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  expect(long).toEqual([]);
});
