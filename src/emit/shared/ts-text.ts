/**
 * Type and expression text for the ts-morph structures the emitters build (ts-project.ts): names,
 * generic references, unions, intersections, object and function types, object and array literals,
 * calls. Only what is written, never how it is laid out: prettier formats every file afterwards.
 */
import { docLines, propertyKey, stringLiteral } from './ts-names.js';

export { stringLiteral as str };

/** A member of an object type. */
export interface TypeMember {
  name: string;
  type: string;
  optional?: boolean;
  readonly?: boolean;
  /** A doc comment, written as a block above the member. */
  doc?: string;
}

/** A parameter of a function type (also what ts-morph's parameter structures are built from). */
export interface Param {
  name: string;
  type: string;
  optional?: boolean;
  /** A default value (`{}`). */
  initializer?: string;
  /** A rest parameter (`...args`). */
  rest?: boolean;
}

/** An object literal property; no value is shorthand (`paramsValidators,`). */
export interface Prop {
  name: string;
  value?: string;
  /** A doc comment, written as a block above the property. */
  doc?: string;
  /** Computed key (`['__proto__']`), which as a plain key would set the prototype. */
  computed?: boolean;
}

export const ref = (name: string, ...args: string[]): string =>
  args.length === 0 ? name : `${name}<${args.join(', ')}>`;

export const and = (...types: string[]): string => types.join(' & ');

/** A union; an intersection or a function type among the members is parenthesised, as prettier keeps it. */
export function union(types: readonly string[]): string {
  return types.map((t) => (types.length > 1 && atTopLevel(t, ['&', '=>']) ? `(${t})` : t)).join(' | ');
}

/** Does one of the tokens occur outside brackets and string literals? */
function atTopLevel(text: string, tokens: readonly string[]): boolean {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(' || c === '{' || c === '[' || c === '<') depth++;
    else if (c === ')' || c === '}' || c === ']' || (c === '>' && text[i - 1] !== '=')) depth--;
    else if (depth === 0 && tokens.some((t) => text.startsWith(t, i))) return true;
  }
  return false;
}

/** A JSDoc block on its own lines; nothing in the text can close it. */
function jsDoc(text: string): string {
  return ['/**', ...docLines(text).map((l) => ` * ${l}`.trimEnd()), ' */'].join('\n');
}

/** The text of ts-morph's `docs` entry (one line stays `/** … *\/`, more make a block). */
export const docText = (text: string): string => docLines(text).join('\n');

const withDoc = (doc: string | undefined, text: string): string =>
  doc === undefined ? text : `${jsDoc(doc)}\n${text}`;

/** `{ a: A; b?: B }`, one member a line when `expanded` (prettier keeps an object written that way expanded). */
export function objectType(members: readonly TypeMember[], expanded = false): string {
  if (members.length === 0) return '{}';
  const texts = members.map((m) =>
    withDoc(m.doc, `${m.readonly ? 'readonly ' : ''}${propertyKey(m.name)}${m.optional ? '?' : ''}: ${m.type};`),
  );
  return expanded || members.some((m) => m.doc !== undefined) ? `{\n${texts.join('\n')}\n}` : `{ ${texts.join(' ')} }`;
}

const paramText = (p: Param): string =>
  `${p.name}${p.optional ? '?' : ''}: ${p.type}${p.initializer === undefined ? '' : ` = ${p.initializer}`}`;

export const fnType = (params: readonly Param[], returns: string): string =>
  `(${params.map(paramText).join(', ')}) => ${returns}`;

export const arrow = (params: readonly Param[], returns: string, body: string): string =>
  `(${params.map(paramText).join(', ')}): ${returns} => ${body}`;

/** An object literal; one property a line when `expanded`. */
export function objectLiteral(props: readonly Prop[], expanded = false): string {
  if (props.length === 0) return '{}';
  const texts = props.map((p) => {
    const name = p.computed ? `[${stringLiteral(p.name)}]` : propertyKey(p.name);
    return withDoc(p.doc, p.value === undefined ? `${name},` : `${name}: ${p.value},`);
  });
  return expanded || props.some((p) => p.doc !== undefined) ? `{\n${texts.join('\n')}\n}` : `{ ${texts.join(' ')} }`;
}

export const arrayLiteral = (items: readonly string[]): string => `[${items.join(', ')}]`;

export const call = (callee: string, ...args: string[]): string => `${callee}(${args.join(', ')})`;

/** A JSON value (the protocol facts) as a literal. */
export function jsonLiteral(value: unknown): string {
  if (typeof value === 'string') return stringLiteral(value);
  if (Array.isArray(value)) return arrayLiteral(value.map(jsonLiteral));
  if (value !== null && typeof value === 'object')
    return objectLiteral(
      Object.entries(value).map(([name, v]) => ({ name, value: jsonLiteral(v), computed: name === '__proto__' })),
    );
  return JSON.stringify(value);
}
