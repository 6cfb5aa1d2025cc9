/**
 * Code in prettier's layout (see layout.ts): the expressions and declarations the generated modules
 * write — object and array literals, calls, arrow functions, imports and re-exports, type aliases,
 * constants, classes and functions — each as the document prettier builds for it.
 */
import {
  blockDoc,
  breakParent,
  commaList,
  conditionalGroup,
  docs,
  group,
  hardline,
  ifBreak,
  indent,
  indentIfBreak,
  join,
  key,
  line,
  quote,
  type Doc,
} from './layout.js';
import { paramsDoc, typeDoc, annotation, type Param, type TypeNode } from './layout-types.js';

/** An expression with what prettier's choices depend on: its kind. */
export type Expr =
  | { kind: 'string'; value: string }
  /** Literals, names and anything that never breaks (`true`, `null`, `PROTOCOL`). */
  | { kind: 'atom'; text: string }
  | { kind: 'object'; props: Prop[]; expanded: boolean }
  | { kind: 'array'; items: Expr[] }
  | { kind: 'call'; callee: string; args: Expr[] }
  | { kind: 'arrow'; params: Param[]; returns: TypeNode; body: Expr }
  | { kind: 'asConst'; value: Expr };

/** An object literal property; no value is shorthand (`paramsValidators,`). */
export interface Prop {
  name: string;
  value?: Expr;
  /** A doc comment, written as a block above the property. */
  doc?: string;
  /** Computed key (`['__proto__']`), which as a plain key would set the prototype. */
  computed?: boolean;
}

export const str = (value: string): Expr => ({ kind: 'string', value });
export const atom = (text: string): Expr => ({ kind: 'atom', text });
export const array = (items: Expr[]): Expr => ({ kind: 'array', items });
export const object = (props: Prop[], expanded = false): Expr => ({ kind: 'object', props, expanded });
export const call = (callee: string, ...args: Expr[]): Expr => ({ kind: 'call', callee, args });
export const asConst = (value: Expr): Expr => ({ kind: 'asConst', value });

/** `left = value` / `key: value` in the layout prettier calls fluid: the value stays on the line while its start fits. */
function fluid(left: Doc, operator: string, value: Doc): Doc {
  const id = Symbol('assignment');
  return group([left, operator, group(indent(line), { id }), indentIfBreak(value, { groupId: id })]);
}

function propDoc(p: Prop): Doc {
  const name = p.computed ? `[${quote(p.name)}]` : key(p.name);
  if (p.value === undefined) return name;
  const value = exprDoc(p.value);
  let printed: Doc;
  // prettier's assignment layouts: a short key or a boolean/number never moves its value to the next
  // line; a string moves there whole; anything else stays on the line while its start fits.
  if (name.length < 5 || (p.value.kind === 'atom' && /^(true|false|\d+)$/.test(p.value.text)))
    printed = group([group(name), ': ', value]);
  else if (p.value.kind === 'string') printed = group([group(name), ':', group(indent([line, value]))]);
  else printed = fluid(group(name), ':', value);
  return p.doc === undefined ? printed : [blockDoc(p.doc), hardline, printed];
}

function argsDoc(args: readonly Expr[]): Doc {
  if (args.length === 0) return '()';
  const printed = args.map(exprDoc);
  const last = args[args.length - 1]!;
  if (args.length === 1 && (last.kind === 'array' || last.kind === 'object')) {
    // The lone array or object argument hugs the parentheses (`Object.freeze([` … `])`).
    return conditionalGroup([
      ['(', printed[0]!, ')'],
      ['(', group(printed[0]!, { shouldBreak: true }), ')'],
      group(['(', indent([line, printed[0]!]), ifBreak(','), line, ')'], { shouldBreak: true }),
    ]);
  }
  if (
    args.length > 1 &&
    last.kind === 'object' &&
    last.expanded &&
    args.slice(0, -1).every((a) => a.kind !== 'object')
  ) {
    // `Object.assign(stub, {` … `})`: the expanded object last hugs the call when what precedes it fits.
    const head = printed.slice(0, -1).map((d) => [d, ',', line]);
    return [
      breakParent,
      conditionalGroup([
        ['(', ...head, group(printed[printed.length - 1]!, { shouldBreak: true }), ')'],
        group(['(', indent([line, join([',', line], printed)]), ifBreak(','), line, ')'], { shouldBreak: true }),
      ]),
    ];
  }
  return group(['(', commaList(printed), ')']);
}

/** prettier breaks an array of two or more objects (or arrays) that each have two or more entries. */
function isMatrix(items: readonly Expr[]): boolean {
  const size = (e: Expr) => (e.kind === 'object' ? e.props.length : e.kind === 'array' ? e.items.length : 0);
  return items.length > 1 && items.every((e) => e.kind === items[0]!.kind && size(e) > 1);
}

export function exprDoc(e: Expr): Doc {
  switch (e.kind) {
    case 'string':
      return quote(e.value);
    case 'atom':
      return e.text;
    case 'object':
      if (e.props.length === 0) return '{}';
      return group(['{', indent([line, join([',', line], e.props.map(propDoc))]), ifBreak(','), line, '}'], {
        shouldBreak: e.expanded,
      });
    case 'array':
      if (e.items.length === 0) return '[]';
      return group(['[', commaList(e.items.map(exprDoc)), ']'], { shouldBreak: isMatrix(e.items) });
    case 'call':
      return e.callee.includes('.') ? group([e.callee, argsDoc(e.args)]) : [e.callee, argsDoc(e.args)];
    case 'arrow':
      return group([
        group(group([paramsDoc(e.params), ': ', typeDoc(e.returns)])),
        ' =>',
        group(indent([line, exprDoc(e.body)])),
      ]);
    case 'asConst':
      return [exprDoc(e.value), ' as const'];
  }
}

/** `import type * as T from './types.js';`, `import { a, type B } from 'x';`, `export { … } from …`. */
export function moduleDecl(
  keyword: 'import' | 'export',
  typeOnly: boolean,
  names: readonly string[] | { namespace: string },
  from: string,
): Doc {
  const head = `${keyword}${typeOnly ? ' type' : ''} `;
  if (!Array.isArray(names)) return `${head}* as ${(names as { namespace: string }).namespace} from ${quote(from)};`;
  const list = names as readonly string[];
  const braces =
    list.length === 1
      ? `{ ${list[0]} }`
      : group(['{', indent([line, join([',', line], [...list])]), ifBreak(','), line, '}']);
  return [head, braces, ` from ${quote(from)};`];
}

/** `export type Name = …;` (object types and intersections stay on the line while they start there). */
export function typeAlias(name: string, type: TypeNode, exported = true): Doc {
  const left = group(['type ', name]);
  const body =
    type.kind === 'union'
      ? group([left, ' =', group(indent([line, annotation(type)]))])
      : fluid(left, ' =', group(typeDoc(type)));
  return [exported ? 'export ' : '', body, ';'];
}

/** `export const NAME: Type = value;` */
export function constDecl(name: string, value: Expr, options: { type?: string; exported?: boolean } = {}): Doc {
  const left = group(options.type === undefined ? name : [name, ': ', options.type]);
  return [options.exported === false ? '' : 'export ', group(['const ', fluid(left, ' =', exprDoc(value)), ';'])];
}

/** A statement of a function or constructor body. */
export type BodyStatement = { return: Expr } | { expression: Expr };

function bodyDoc(body: readonly BodyStatement[]): Doc {
  const statements = body.map((s) =>
    'return' in s ? ['return ', exprDoc(s.return), ';'] : [exprDoc(s.expression), ';'],
  );
  return [' {', indent([hardline, join(hardline, statements)]), hardline, '}'];
}

export interface ClassSpec {
  name: string;
  /** The base class (`McpClientBase`) with its type arguments. */
  extends: TypeNode;
  doc?: string;
  properties: { name: string; value: Expr }[];
  ctor: { params: Param[]; body: BodyStatement[] };
  methods: { name: string; doc?: string; params: Param[]; returns: TypeNode; body: BodyStatement[] }[];
}

/** An exported class as ts-morph lays it out: properties, a blank line, the constructor, then each method after a blank line. */
export function classDecl(c: ClassSpec): Doc {
  const members: Doc[] = c.properties.map((p) => [
    fluid(group(['public readonly ', key(p.name)]), ' =', exprDoc(p.value)),
    ';',
  ]);
  const blocks: Doc[] = [];
  if (members.length > 0) blocks.push(join(hardline, members));
  blocks.push(['constructor', group(paramsDoc(c.ctor.params)), bodyDoc(c.ctor.body)]);
  for (const m of c.methods) {
    const signature = [key(m.name), group([paramsDoc(m.params), ': ', typeDoc(m.returns)]), bodyDoc(m.body)];
    blocks.push(m.doc === undefined ? signature : [docs(m.doc), hardline, signature]);
  }
  const head = ['export class ', c.name, ' extends ', typeDoc(c.extends), ' {'];
  const decl = [head, indent([hardline, join([hardline, hardline], blocks)]), hardline, '}'];
  return c.doc === undefined ? decl : [docs(c.doc), hardline, decl];
}

export interface FunctionSpec {
  name: string;
  doc?: string;
  params: Param[];
  returns: TypeNode;
  body: BodyStatement[];
}

export function functionDecl(f: FunctionSpec): Doc {
  const decl = ['export function ', f.name, group([paramsDoc(f.params), ': ', typeDoc(f.returns)]), bodyDoc(f.body)];
  return f.doc === undefined ? decl : [docs(f.doc), hardline, decl];
}
