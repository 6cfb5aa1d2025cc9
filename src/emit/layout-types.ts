/**
 * Types in prettier's layout (see layout.ts): the few kinds of type the generated modules write — names,
 * generic references, unions, intersections, object types and function types — as a small tree, printed
 * as the document prettier builds for each (where a union or a type argument list breaks, how an
 * intersection with an object type hugs it).
 */
import { align, blockDoc, group, hardline, ifBreak, indent, join, key, line, softline, type Doc } from './layout.js';

export type TypeNode =
  /** A name (`T.Tool`, `undefined`) or any type that never breaks (`'complete'`). */
  | { kind: 'text'; text: string }
  | { kind: 'ref'; name: string; args: TypeNode[] }
  | { kind: 'union'; types: TypeNode[] }
  | { kind: 'and'; types: TypeNode[] }
  | { kind: 'object'; members: TypeMember[]; expanded: boolean }
  | { kind: 'fn'; params: Param[]; returns: TypeNode };

export interface TypeMember {
  name: string;
  type: TypeNode;
  optional?: boolean;
  readonly?: boolean;
  /** A doc comment, written as a block above the member. */
  doc?: string;
}

export interface Param {
  name: string;
  type: TypeNode;
  optional?: boolean;
  /** A default value (`{}`). */
  initializer?: string;
}

export const text = (t: string): TypeNode => ({ kind: 'text', text: t });
export const ref = (name: string, ...args: TypeNode[]): TypeNode => ({ kind: 'ref', name, args });
/** A union; one member is that member. */
export const union = (types: TypeNode[]): TypeNode => (types.length === 1 ? types[0]! : { kind: 'union', types });
export const and = (...types: TypeNode[]): TypeNode => ({ kind: 'and', types });
export const objectType = (members: TypeMember[], expanded = false): TypeNode => ({
  kind: 'object',
  members,
  expanded,
});

/** prettier keeps a lone type argument on the line when it is a plain name or an object type. */
function isSimple(t: TypeNode): boolean {
  if (t.kind === 'object' || (t.kind === 'ref' && t.args.length === 0)) return true;
  return t.kind === 'text' && /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(t.text) && !/^(true|false)$/.test(t.text);
}

function unionDoc(types: TypeNode[]): Doc {
  const members = types.map((t) => align(2, t.kind === 'and' || t.kind === 'fn' ? ['(', typeDoc(t), ')'] : typeDoc(t)));
  return group([ifBreak('| '), join([line, '| '], members)]);
}

function intersectionDoc(types: TypeNode[]): Doc {
  const parts: Doc[] = [];
  let wasIndented = false;
  types.forEach((t, i) => {
    const printed = typeDoc(t);
    const isObject = t.kind === 'object';
    const previousIsObject = types[i - 1]?.kind === 'object';
    if (i === 0) parts.push(printed);
    else if (!previousIsObject && !isObject) parts.push(indent([' &', line, printed]));
    else if (previousIsObject && isObject) parts.push(' & ', wasIndented ? indent(printed) : printed);
    else {
      if (i > 1) wasIndented = true;
      parts.push(' & ', i > 1 ? indent(printed) : printed);
    }
  });
  return group(parts);
}

/** A member of an object type, or a parameter: a union there breaks onto its own indented lines. */
export function annotation(t: TypeNode): Doc {
  return t.kind === 'union' ? group(indent([softline, unionDoc(t.types)])) : typeDoc(t);
}

function memberDoc(m: TypeMember): Doc {
  const printed = group([
    m.readonly ? 'readonly ' : '',
    key(m.name),
    m.optional ? '?' : '',
    ':',
    ' ',
    annotation(m.type),
  ]);
  return m.doc === undefined ? printed : [blockDoc(m.doc), hardline, printed];
}

export function paramsDoc(params: readonly Param[]): Doc {
  const printed = params.map((p) => [
    p.name,
    p.optional ? '?' : '',
    ': ',
    annotation(p.type),
    p.initializer === undefined ? '' : [' = ', p.initializer],
  ]);
  return ['(', indent([softline, join([',', line], printed)]), ifBreak(','), softline, ')'];
}

export function typeDoc(t: TypeNode): Doc {
  switch (t.kind) {
    case 'text':
      return t.text;
    case 'ref':
      if (t.args.length === 0) return t.name;
      if (t.args.length === 1 && isSimple(t.args[0]!)) return [t.name, '<', typeDoc(t.args[0]!), '>'];
      return [t.name, group(['<', indent([softline, join([',', line], t.args.map(typeDoc))]), softline, '>'])];
    case 'union':
      return unionDoc(t.types);
    case 'and':
      return intersectionDoc(t.types);
    case 'object':
      if (t.members.length === 0) return '{}';
      return group(['{', indent([line, join([';', line], t.members.map(memberDoc))]), ifBreak(';'), line, '}'], {
        shouldBreak: t.expanded,
      });
    case 'fn':
      return group([paramsDoc(t.params), ' => ', annotation(t.returns)]);
  }
}
