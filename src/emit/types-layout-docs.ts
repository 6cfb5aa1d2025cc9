/**
 * Prettier's documents for what types-layout-parse.ts reads, built the way prettier's own TypeScript
 * printer builds them (its union, intersection, object, tuple, type-argument, assignment and comment
 * printers), with the options of format.ts's DEFAULTS (semicolons, single quotes, trailing commas,
 * quoted keys only as needed). prettier/doc's printDocToString then lays them out exactly as prettier
 * would, without loading a parser or prettier's printers.
 */
import { builders } from 'prettier/doc';
import {
  LayoutUnsupported,
  type Comment,
  type Key,
  type Member,
  type Statement,
  type TypeNode,
} from './types-layout-parse.js';

type Doc = builders.Doc;
const {
  align,
  group,
  hardline,
  ifBreak,
  indent,
  indentIfBreak,
  join,
  line,
  lineSuffixBoundary,
  literalline,
  markAsRoot,
  softline,
} = builders;

/** Where a type sits, as far as prettier's choices depend on it. */
type Parent =
  | 'annotation'
  | 'alias'
  | 'union'
  | 'intersection'
  | 'array'
  | 'indexed-object'
  | 'other'
  | 'tuple'
  | 'tuple-of-many'
  | 'rest'
  | 'type-args';

export function fileDoc(statements: readonly Statement[]): Doc {
  const parts: Doc[] = [];
  statements.forEach((statement, i) => {
    parts.push(withComments(statement.comments, declarationDoc(statement.declaration)));
    if (i < statements.length - 1) parts.push(statement.blankAfter ? [hardline, hardline] : hardline);
  });
  if (parts.length) parts.push(hardline);
  return parts;
}

function declarationDoc(declaration: Statement['declaration']): Doc {
  if (declaration.kind === 'interface')
    return ['export interface ', declaration.name, ' ', interfaceBodyDoc(declaration.body)];
  const left = group(['type ', declaration.name]);
  const { type } = declaration;
  // printAssignment: a union that cannot hug breaks after `=` first ("break-after-operator"); anything
  // else breaks after `=` only when it cannot start on this line ("fluid").
  if (type.kind === 'union' && !shouldHugUnion(type.types))
    return ['export ', group([left, ' =', group(indent([line, typeDoc(type, 'alias')]))]), ';'];
  const groupId = Symbol('assignment');
  const right = indentIfBreak(typeDoc(type, 'other'), { groupId });
  return ['export ', group([left, ' =', group(indent(line), { id: groupId }), lineSuffixBoundary, right]), ';'];
}

/** Leading JSDoc blocks on their own lines. */
function withComments(comments: readonly Comment[], doc: Doc): Doc {
  return comments.length ? [...comments.map((c) => [commentDoc(c), hardline]), doc] : doc;
}

/**
 * A block whose every line starts with `*` is re-indented: lines trimmed, one space before each `*`,
 * except that a JSDoc line ending in two spaces (a Markdown line break) keeps exactly two.
 */
function commentDoc(comment: Comment): Doc {
  if (!comment.value.includes('\n')) return `/*${comment.value}*/`;
  const lines = `*${comment.value}*`.split('\n').map((l) => l.trimStart());
  if (!lines.every((l) => l.startsWith('*')))
    throw new LayoutUnsupported('a multi-line comment whose lines do not start with *');
  const jsDoc = comment.value[0] === '*' && comment.value[1] !== '*';
  const printed = lines.map((l, i): Doc => {
    if (i === 0) return [l.trimEnd(), hardline];
    if (i === lines.length - 1) return [' ', l];
    const trimmed = l.trimEnd();
    if (jsDoc && trimmed !== '*' && l.endsWith('  ')) return [' ', trimmed, '  ', markAsRoot(literalline)];
    return [' ', trimmed, hardline];
  });
  return ['/', printed, '/'];
}

/** An interface body: one member a line, each with its semicolon. */
function interfaceBodyDoc(members: readonly Member[]): Doc {
  if (members.length === 0) return '{}';
  const parts = members.map((m, i) => [
    withComments(m.comments, [memberDoc(m), ';']),
    i < members.length - 1 ? (m.blankAfter ? [hardline, hardline] : hardline) : '',
  ]);
  return ['{', indent([hardline, parts]), hardline, '}'];
}

/** An object type: broken, as the source has a line break after `{`; the last `;` only when broken. */
function typeLiteralDoc(members: readonly Member[]): Doc {
  if (members.length === 0) return '{}';
  const parts = members.map((m, i) => {
    const last = i === members.length - 1;
    return [
      withComments(m.comments, [memberDoc(m), last ? ifBreak(';') : ';']),
      last ? '' : m.blankAfter ? [line, hardline] : line,
    ];
  });
  return group(['{', indent([line, parts]), line, '}'], { shouldBreak: true });
}

function memberDoc(member: Member): Doc {
  const type = typeDoc(member.type, 'annotation');
  const optional = member.optional ? '?' : '';
  const { key } = member;
  if (key.kind !== 'index') return group([keyDoc(key), optional, ': ', type]);
  const parameter = [key.name, ': ', typeDoc(key.type, 'annotation')];
  return group(['[', group([indent([softline, parameter]), softline]), ']', optional, ': ', type]);
}

/** quoteProps "as-needed": a quoted key that is an identifier name loses its quotes. */
function keyDoc(key: Key): Doc {
  if (key.kind === 'identifier') return key.name;
  const printed = printString(key.raw);
  const value = JSON.parse(key.raw) as string;
  return printed.slice(1, -1) === value && isIdentifierName(value) ? value : printed;
}

const IDENTIFIER_NAME = /^[\p{L}\p{Nl}$_][\p{L}\p{Nl}$_\p{Mn}\p{Mc}\p{Nd}\p{Pc}\u200c\u200d]*$/u;

/** Blocks where prettier's ES5 identifier table and today's Unicode agree: Latin to Cyrillic, kana, CJK, Hangul. */
const SETTLED = /^[\t -\u055f\u3040-\u30ff\u4e00-\u9fcc\uac00-\ud7a3]*$/;

/**
 * An ES5 IdentifierName, as prettier's table has it. A letter outside the blocks both agree on may be
 * newer than that table, so such a name is left to prettier.
 */
function isIdentifierName(value: string): boolean {
  if (/^[A-Za-z_$][\w$]*$/.test(value)) return true;
  if (!IDENTIFIER_NAME.test(value)) return false;
  if (!SETTLED.test(value)) throw new LayoutUnsupported(`the key ${JSON.stringify(value)}`);
  return true;
}

/**
 * A string literal in the quotes prettier picks: single, unless the text holds more single than double
 * quotes; a literal already in those quotes is kept as written.
 */
export function printString(raw: string): string {
  const content = raw.slice(1, -1);
  let single = 0;
  let double = 0;
  for (const character of content) {
    if (character === "'") single++;
    else if (character === '"') double++;
  }
  const quote = single > double ? '"' : "'";
  if (raw[0] === quote) return raw;
  const other = quote === '"' ? "'" : '"';
  const body = content.replace(
    /\\(["'\\])|(["'])/g,
    (match, escaped: string | undefined, unescaped: string | undefined) => {
      if (escaped) return escaped === other ? other : match;
      return unescaped === quote ? `\\${unescaped}` : unescaped!;
    },
  );
  return quote + body + quote;
}

/** prettier's number normalisation: lower case, no `+` or leading zeros in the exponent, no trailing zeros. */
function printNumber(raw: string): string {
  if (raw.length === 1) return raw;
  return raw
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(?=\d)/, '$1$2')
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, '$1')
    .replace(/^([+-])?\./, '$10.')
    .replace(/(\.\d+?)0+(?=e|$)/, '$1')
    .replace(/\.(?=e|$)/, '');
}

function typeDoc(node: TypeNode, parent: Parent): Doc {
  switch (node.kind) {
    case 'keyword':
      return node.name;
    case 'reference':
      return node.args ? [node.name, typeArgumentsDoc(node.args)] : node.name;
    case 'string':
      return printString(node.raw);
    case 'number':
      return node.raw[0] === '-' ? `-${printNumber(node.raw.slice(1))}` : printNumber(node.raw);
    case 'union':
      return unionDoc(node.types, parent);
    case 'intersection': {
      const doc = intersectionDoc(node.types);
      return needsParens(parent) ? ['(', doc, ')'] : doc;
    }
    case 'array':
      return [typeDoc(node.element, 'array'), '[]'];
    case 'indexed':
      return [typeDoc(node.object, 'indexed-object'), '[', typeDoc(node.index, 'other'), ']'];
    case 'tuple':
      return tupleDoc(node.elements);
    case 'rest':
      return ['...', typeDoc(node.type, 'rest')];
    case 'object':
      return typeLiteralDoc(node.members);
  }
}

/** Unions and intersections need parentheses inside each other, arrays, rest elements and `T[…]`. */
function needsParens(parent: Parent): boolean {
  return ['union', 'intersection', 'array', 'rest', 'indexed-object'].includes(parent);
}

const isObjectLike = (node: TypeNode) => node.kind === 'object' || node.kind === 'reference';
const isVoid = (node: TypeNode) => node.kind === 'keyword' && (node.name === 'null' || node.name === 'void');

/** `{ … } | null` and `Foo | null` stay on one line: one object-like type and only null or void beside it. */
function shouldHugUnion(types: readonly TypeNode[]): boolean {
  const object = types.find(isObjectLike);
  return object !== undefined && types.every((t) => t === object || isVoid(t));
}

function unionDoc(types: readonly TypeNode[], parent: Parent): Doc {
  if (shouldHugUnion(types)) {
    const doc = join(
      ' | ',
      types.map((t) => typeDoc(t, 'union')),
    );
    return needsParens(parent) ? ['(', doc, ')'] : doc;
  }
  const doc = group(types.map((t, i) => [i === 0 ? ifBreak('| ') : [line, '| '], align(2, typeDoc(t, 'union'))]));
  if (needsParens(parent)) return ['(', group([indent([softline, doc]), softline]), ')'];
  if (parent === 'tuple-of-many') return group([indent([ifBreak(['(', softline]), doc]), softline, ifBreak(')')]);
  // After `=` the assignment indents it; in a tuple or type arguments it is not indented.
  if (parent === 'alias' || parent === 'tuple' || parent === 'type-args') return doc;
  return group(indent([softline, doc]));
}

/** Objects side by side stay together; other members move to the next line when the group breaks. */
function intersectionDoc(types: readonly TypeNode[]): Doc {
  let wasIndented = false;
  const parts = types.map((node, i): Doc => {
    const doc = typeDoc(node, 'intersection');
    if (i === 0) return doc;
    const current = node.kind === 'object';
    const previous = types[i - 1]!.kind === 'object';
    if (previous && current) return [' & ', wasIndented ? indent(doc) : doc];
    if (!previous && !current) return indent([' &', line, doc]);
    if (i > 1) wasIndented = true;
    return [' & ', i > 1 ? indent(doc) : doc];
  });
  return group(parts);
}

function tupleDoc(elements: readonly TypeNode[]): Doc {
  if (elements.length === 0) return '[]';
  const parent: Parent = elements.length > 1 ? 'tuple-of-many' : 'tuple';
  const printed = elements.map((e) => group(typeDoc(e, parent)));
  return group(['[', indent([softline, join([',', line], printed), ifBreak(',')]), softline, ']']);
}

/** One simple or object argument prints inline (`Foo<Bar>`); others may break one a line. */
function typeArgumentsDoc(args: readonly TypeNode[]): Doc {
  const only = args.length === 1 ? args[0]! : undefined;
  if (only && (isSimple(only) || only.kind === 'object' || (only.kind === 'union' && shouldHugUnion(only.types))))
    return ['<', typeDoc(only, 'type-args'), '>'];
  return group([
    '<',
    indent([
      softline,
      join(
        [',', line],
        args.map((a) => typeDoc(a, 'type-args')),
      ),
    ]),
    softline,
    '>',
  ]);
}

function isSimple(node: TypeNode): boolean {
  return ['keyword', 'string', 'number'].includes(node.kind) || (node.kind === 'reference' && !node.args);
}
