/**
 * A reader for the TypeScript that json-schema-to-typescript writes unformatted (`format: false`):
 * exported interfaces and type aliases built from unions, intersections, arrays, tuples, indexed
 * accesses, literals, references and object types, with JSDoc blocks on their own lines before
 * declarations and members. types-layout.ts prints what this reads in prettier's layout.
 *
 * Anything outside that subset (a comment elsewhere, a function type, a non-ASCII identifier, …)
 * throws `LayoutUnsupported`, and the caller falls back to prettier: never a guess.
 */

export class LayoutUnsupported extends Error {}

/** A JSDoc block: `value` is the text between `/*` and `*\/`. */
export interface Comment {
  value: string;
}

export type TypeNode =
  | { kind: 'keyword' | 'reference'; name: string; args?: TypeNode[] }
  | { kind: 'string'; raw: string }
  | { kind: 'number'; raw: string }
  | { kind: 'union' | 'intersection'; types: TypeNode[] }
  | { kind: 'array'; element: TypeNode }
  | { kind: 'indexed'; object: TypeNode; index: TypeNode }
  | { kind: 'tuple'; elements: TypeNode[] }
  | { kind: 'rest'; type: TypeNode }
  | { kind: 'object'; members: Member[] };

export type Key = { kind: 'identifier'; name: string } | { kind: 'string'; raw: string };

export interface Member {
  comments: Comment[];
  /** Property key, or the parameter of an index signature (`[k: string]`). */
  key: Key | { kind: 'index'; name: string; type: TypeNode };
  optional: boolean;
  type: TypeNode;
  /** An empty line follows it in the source (prettier keeps one). */
  blankAfter: boolean;
}

export interface Statement {
  comments: Comment[];
  declaration: { kind: 'interface'; name: string; body: Member[] } | { kind: 'alias'; name: string; type: TypeNode };
  blankAfter: boolean;
}

interface Token {
  kind: 'punct' | 'identifier' | 'string' | 'number' | 'comment' | 'end';
  text: string;
  /** A line break precedes the token (an empty line, for `blankBefore`). */
  lineBefore: boolean;
  blankBefore: boolean;
}

const KEYWORDS = new Set([
  'any',
  'unknown',
  'never',
  'string',
  'number',
  'boolean',
  'bigint',
  'symbol',
  'object',
  'null',
  'undefined',
  'void',
  'true',
  'false',
]);
/** Words that start type syntax this reader does not know; a reference by such a name is not one. */
const RESERVED = new Set(['typeof', 'keyof', 'readonly', 'infer', 'unique', 'asserts', 'is', 'new', 'abstract']);
const PUNCTUATION = ['...', '{', '}', '(', ')', '[', ']', '<', '>', '|', '&', ':', ';', ',', '?', '=', '.', '-'];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const pattern =
    /[ \t]+|\n|\/\*[\s\S]*?\*\/|"(?:[^"\\\n\r\u2028\u2029]|\\[^\n\r\u2028\u2029])*"|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[A-Za-z_$][\w$]*|\.\.\.|[{}()[\]<>|&:;,?=.-]/y;
  let newlines = 0;
  let at = 0;
  while (at < text.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) throw new LayoutUnsupported(`unexpected text at ${at}: ${JSON.stringify(text.slice(at, at + 20))}`);
    const value = match[0];
    at += value.length;
    if (value === '\n') newlines++;
    else if (value[0] === ' ' || value[0] === '\t') continue;
    else {
      tokens.push({ kind: kindOf(value), text: value, lineBefore: newlines > 0, blankBefore: newlines > 1 });
      newlines = 0;
    }
  }
  tokens.push({ kind: 'end', text: '', lineBefore: true, blankBefore: newlines > 1 });
  return tokens;
}

function kindOf(value: string): Token['kind'] {
  if (value.startsWith('/*')) return 'comment';
  if (value[0] === '"') return 'string';
  if (/^\d/.test(value)) return 'number';
  if (PUNCTUATION.includes(value)) return 'punct';
  return 'identifier';
}

/** The declarations of a whole file, in order. */
export function parseDeclarations(text: string): Statement[] {
  if (/[\r\u2028\u2029]/.test(text)) throw new LayoutUnsupported('a carriage return or Unicode line separator');
  return new Reader(tokenize(text)).file();
}

class Reader {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  file(): Statement[] {
    const statements: Statement[] = [];
    for (;;) {
      const comments = this.comments();
      if (this.peek().kind === 'end') {
        if (comments.length) throw new LayoutUnsupported('a comment at the end of the file');
        return statements;
      }
      if (!this.peek().lineBefore && statements.length) throw new LayoutUnsupported('two declarations on one line');
      this.expect('export');
      const declaration = this.declaration();
      if (this.peek().text === ';') this.next();
      statements.push({ comments, declaration, blankAfter: this.peek().blankBefore });
    }
  }

  private declaration(): Statement['declaration'] {
    const word = this.next().text;
    const name = this.identifier();
    if (word === 'interface') {
      if (this.peek().text !== '{') throw new LayoutUnsupported(`interface ${name} has a heritage clause`);
      return { kind: 'interface', name, body: this.members() };
    }
    if (word === 'type') {
      this.expect('=');
      return { kind: 'alias', name, type: this.type() };
    }
    throw new LayoutUnsupported(`export ${word}`);
  }

  /** JSDoc blocks, each alone on its lines, directly before what they document. */
  private comments(): Comment[] {
    const comments: Comment[] = [];
    while (this.peek().kind === 'comment') {
      const token = this.next();
      if ((!token.lineBefore && this.at > 1) || !this.peek().lineBefore || this.peek().blankBefore)
        throw new LayoutUnsupported('a comment that does not sit on its own lines');
      comments.push({ value: token.text.slice(2, -2) });
    }
    return comments;
  }

  private type(): TypeNode {
    return this.operands('|', 'union', () => this.operands('&', 'intersection', () => this.postfix()));
  }

  private operands(operator: string, kind: 'union' | 'intersection', operand: () => TypeNode): TypeNode {
    if (this.peek().text === operator) throw new LayoutUnsupported(`a leading ${operator}`);
    const types = [operand()];
    while (this.peek().text === operator) {
      this.next();
      types.push(operand());
    }
    return types.length === 1 ? types[0]! : { kind, types };
  }

  private postfix(): TypeNode {
    let type = this.primary();
    // As in TypeScript, `[` on a new line starts the next member (an index signature), not `T[]`.
    while (this.peek().text === '[' && !this.peek().lineBefore) {
      this.next();
      if (this.peek().text === ']') {
        this.next();
        type = { kind: 'array', element: type };
      } else {
        const index = this.type();
        this.expect(']');
        type = { kind: 'indexed', object: type, index };
      }
    }
    return type;
  }

  private primary(): TypeNode {
    const token = this.next();
    switch (token.kind) {
      case 'string':
        return { kind: 'string', raw: token.text };
      case 'number':
        return { kind: 'number', raw: token.text };
      case 'identifier':
        return this.reference(token.text);
      case 'punct':
        return this.bracketed(token.text);
      default:
        throw new LayoutUnsupported(`${token.kind} where a type belongs`);
    }
  }

  private bracketed(text: string): TypeNode {
    if (text === '(') {
      const inner = this.type();
      this.expect(')');
      return inner;
    }
    if (text === '{') {
      this.at--;
      return { kind: 'object', members: this.members() };
    }
    if (text === '[') return { kind: 'tuple', elements: this.tupleElements() };
    if (text === '-' && this.peek().kind === 'number') return { kind: 'number', raw: `-${this.next().text}` };
    throw new LayoutUnsupported(`"${text}" where a type belongs`);
  }

  private reference(first: string): TypeNode {
    if (KEYWORDS.has(first)) return { kind: 'keyword', name: first };
    if (RESERVED.has(first)) throw new LayoutUnsupported(`type operator ${first}`);
    let name = first;
    while (this.peek().text === '.') {
      this.next();
      name += `.${this.identifier()}`;
    }
    if (this.peek().text !== '<') return { kind: 'reference', name };
    this.next();
    const args = [this.type()];
    while (this.peek().text === ',') {
      this.next();
      args.push(this.type());
    }
    this.expect('>');
    return { kind: 'reference', name, args };
  }

  private tupleElements(): TypeNode[] {
    const elements: TypeNode[] = [];
    while (this.peek().text !== ']') {
      if (this.peek().text === '...') {
        this.next();
        elements.push({ kind: 'rest', type: this.type() });
      } else elements.push(this.type());
      if (this.peek().text !== ',') break;
      this.next();
    }
    this.expect(']');
    return elements;
  }

  /** `{ … }`: property signatures and index signatures, one a line. */
  private members(): Member[] {
    this.expect('{');
    const members: Member[] = [];
    for (;;) {
      const comments = this.comments();
      if (this.peek().text === '}') {
        if (comments.length) throw new LayoutUnsupported('a comment at the end of an object type');
        this.next();
        return members;
      }
      if (!this.peek().lineBefore) throw new LayoutUnsupported('two members on one line');
      const key = this.key();
      const optional = this.peek().text === '?';
      if (optional) this.next();
      this.expect(':');
      const type = this.type();
      if (this.peek().text === ';' || this.peek().text === ',') this.next();
      const next = this.peek();
      members.push({ comments, key, optional, type, blankAfter: next.text !== '}' && next.blankBefore });
    }
  }

  private key(): Member['key'] {
    const token = this.next();
    if (token.kind === 'identifier') return { kind: 'identifier', name: token.text };
    if (token.kind === 'string') return { kind: 'string', raw: token.text };
    if (token.text !== '[') throw new LayoutUnsupported(`a ${token.kind} key`);
    const name = this.identifier();
    this.expect(':');
    const type = this.type();
    this.expect(']');
    return { kind: 'index', name, type };
  }

  private identifier(): string {
    const token = this.next();
    if (token.kind !== 'identifier') throw new LayoutUnsupported(`"${token.text}" where a name belongs`);
    return token.text;
  }

  private expect(text: string): void {
    const token = this.next();
    if (token.text !== text) throw new LayoutUnsupported(`"${token.text}" where "${text}" belongs`);
  }

  private peek(): Token {
    return this.tokens[this.at]!;
  }

  private next(): Token {
    const token = this.tokens[this.at]!;
    if (token.kind === 'end') throw new LayoutUnsupported('the text ends early');
    this.at++;
    return token;
  }
}
