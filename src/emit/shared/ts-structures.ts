/**
 * The ts-morph statement structures the emitters build files from: imports and re-exports, type
 * aliases, constants, classes and functions (ts-project.ts writes a file from a list of them at once).
 */
import type {
  ClassDeclarationStructure,
  ExportDeclarationStructure,
  FunctionDeclarationStructure,
  ImportDeclarationStructure,
  InterfaceDeclarationStructure,
  OptionalKind,
  ParameterDeclarationStructure,
  TypeAliasDeclarationStructure,
  VariableStatementStructure,
} from 'ts-morph';
import { docText, type Param, type TypeMember } from './ts-text.js';
import { propertyKey } from './ts-names.js';
import { tsMorph } from './ts-project.js';

// This module is loaded only to emit (never by `--check`): ts-morph is required with it.
const { Scope, StructureKind, VariableDeclarationKind } = tsMorph();

const docs = (doc: string | undefined) => (doc === undefined ? [] : [docText(doc)]);

/** `import type * as T from './types.js'` (`{ namespace }`), or `import { a, type B } from 'x'` (names). */
export function importDecl(
  typeOnly: boolean,
  names: readonly string[] | { namespace: string },
  from: string,
): ImportDeclarationStructure {
  const base = { kind: StructureKind.ImportDeclaration, isTypeOnly: typeOnly, moduleSpecifier: from } as const;
  if (!Array.isArray(names)) return { ...base, namespaceImport: (names as { namespace: string }).namespace };
  return {
    ...base,
    namedImports: (names as readonly string[]).map((n) =>
      n.startsWith('type ') ? { name: n.slice(5), isTypeOnly: true } : { name: n },
    ),
  };
}

/** `export { a, b } from 'x'`, `export type { … } from …`, or `export type * from …` (no names). */
export function exportDecl(
  typeOnly: boolean,
  names: readonly string[] | '*',
  from: string,
): ExportDeclarationStructure {
  return {
    kind: StructureKind.ExportDeclaration,
    isTypeOnly: typeOnly,
    moduleSpecifier: from,
    ...(names === '*' ? {} : { namedExports: names.map((name) => ({ name })) }),
  };
}

/** `export type Name<…> = type;` (`name` may carry its type parameters: `ParamsOf<M extends Method>`). */
export function typeAlias(name: string, type: string, doc?: string): TypeAliasDeclarationStructure {
  const [, bare = name, params] = /^([^<]+)(?:<(.*)>)?$/s.exec(name) ?? [];
  return {
    kind: StructureKind.TypeAlias,
    name: bare,
    isExported: true,
    type,
    docs: docs(doc),
    ...(params === undefined ? {} : { typeParameters: [params] }),
  };
}

/** `export const NAME: Type = value;` */
export function constDecl(
  name: string,
  initializer: string,
  options: { type?: string; exported?: boolean; doc?: string } = {},
): VariableStatementStructure {
  return {
    kind: StructureKind.VariableStatement,
    isExported: options.exported !== false,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs(options.doc),
    declarations: [{ name, initializer, ...(options.type === undefined ? {} : { type: options.type }) }],
  };
}

const parameters = (params: readonly Param[]): OptionalKind<ParameterDeclarationStructure>[] =>
  params.map((p) => ({
    name: p.name,
    type: p.type,
    hasQuestionToken: p.optional === true,
    ...(p.initializer === undefined ? {} : { initializer: p.initializer }),
    ...(p.rest === true ? { isRestParameter: true } : {}),
  }));

/** `export declare const NAME: Type;` (a declaration file's value). */
export function declareConst(name: string, type: string, doc?: string): VariableStatementStructure {
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    hasDeclareKeyword: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs(doc),
    declarations: [{ name, type }],
  };
}

/** `export interface Name<…> extends … { (call): R; readonly member: T; }`. */
export function interfaceDecl(i: {
  name: string;
  typeParameters?: string[];
  extends?: string[];
  doc?: string;
  calls?: { params: Param[]; returns: string }[];
  members?: TypeMember[];
}): InterfaceDeclarationStructure {
  return {
    kind: StructureKind.Interface,
    name: i.name,
    isExported: true,
    docs: docs(i.doc),
    typeParameters: i.typeParameters ?? [],
    extends: i.extends ?? [],
    callSignatures: (i.calls ?? []).map((c) => ({ parameters: parameters(c.params), returnType: c.returns })),
    properties: (i.members ?? []).map((m) => ({
      name: propertyKey(m.name),
      type: m.type,
      hasQuestionToken: m.optional === true,
      isReadonly: m.readonly === true,
      docs: docs(m.doc),
    })),
  };
}

export interface ClassSpec {
  name: string;
  /** The base class with its type arguments (`McpClientBase<…>`). */
  extends: string;
  doc?: string;
  /** `type` is written where declarations cannot infer it (`isolatedDeclarations`). */
  properties: { name: string; value: string; type?: string }[];
  ctor: { params: Param[]; body: string[] };
  methods: {
    name: string;
    doc?: string;
    /** Type parameters as written, e.g. `M extends keyof ClientCalls & string`. */
    typeParams?: string[];
    /** Overrides the base class's member (`override`, which `noImplicitOverride` asks for). */
    override?: boolean;
    params: Param[];
    returns: string;
    body: string[];
  }[];
}

/** An exported class: public readonly properties, the constructor, then the methods (names quoted unless identifiers). */
export function classDecl(c: ClassSpec): ClassDeclarationStructure {
  return {
    kind: StructureKind.Class,
    name: c.name,
    isExported: true,
    extends: c.extends,
    docs: docs(c.doc),
    properties: c.properties.map((p) => ({
      name: propertyKey(p.name),
      scope: Scope.Public,
      isReadonly: true,
      initializer: p.value,
      ...(p.type === undefined ? {} : { type: p.type }),
    })),
    ctors: [{ parameters: parameters(c.ctor.params), statements: c.ctor.body }],
    methods: c.methods.map((m) => ({
      name: propertyKey(m.name),
      docs: docs(m.doc),
      ...(m.typeParams ? { typeParameters: m.typeParams } : {}),
      ...(m.override === true ? { hasOverrideKeyword: true } : {}),
      parameters: parameters(m.params),
      returnType: m.returns,
      statements: m.body,
    })),
  };
}

export function functionDecl(f: {
  name: string;
  doc?: string;
  /** Type parameters as written, e.g. `Id extends keyof ExtensionSettings`. */
  typeParams?: string[];
  params: Param[];
  returns: string;
  body: string[];
}): FunctionDeclarationStructure {
  return {
    kind: StructureKind.Function,
    name: f.name,
    isExported: true,
    docs: docs(f.doc),
    ...(f.typeParams ? { typeParameters: f.typeParams } : {}),
    parameters: parameters(f.params),
    returnType: f.returns,
    statements: f.body,
  };
}
