/**
 * Derive the protocol model from a loaded schema: which methods exist, who sends them, their params and
 * their results. The schema never states the request → result link nor the directions directly:
 * - directions come from the message unions, found from structure in unions.ts (the spec's names
 *   ClientRequest, … only where structure leaves it open);
 * - results are paired in pairing.ts (user pairings, `<X>ResultResponse`, `<X>Result`, the package
 *   table); an unpaired request gets the generic `Result`, marked `resultUnknown`, with a warning.
 * Features (batches, per-request `_meta`, …) are detected from structure in features.ts.
 */
import { markTaskAugmented } from './task-augmented.js';
import { CONTROL_CHARACTERS, InputError } from '../errors.js';
import { isObject, type LoadedSchema } from '../load/schema.js';
import { protocolFacts } from './protocol-facts.js';
import type { JsonSchema } from '../load/schema-types.js';
import { locateFeatures } from './features.js';
import { GENERIC_RESULT, pairResult, type UserPairing } from './pairing.js';
import { pairByStructure } from './pair-structure.js';
import { isUnion, messageParts, messageUnions, methodConst } from './unions.js';
import { unwrapAllOf } from '../load/schema-keywords.js';
import {
  DIRECTIONS,
  type Direction,
  type MethodDeclaration,
  type MethodInfo,
  type MethodKind,
  type ParamsRef,
  type ProtocolModel,
} from './types.js';
import { decodeFragmentToken, definitionPointer } from '../load/pointer.js';
import { compareStrings } from '../load/order.js';
import { refuseMemberCollisions } from './member-paths.js';

export { methodConst } from './unions.js';

export interface BuildOptions {
  /** The user's request → result pairings (`--pairing <file>` / config `pairing`). */
  pairing?: UserPairing;
}

export function buildModel(schema: LoadedSchema, options: BuildOptions = {}): ProtocolModel {
  const ctx = new ModelContext(schema);
  const byMethod = new Map<string, MethodInfo>();
  for (const union of messageUnions(schema, (ref) => ctx.refName(ref), options.pairing)) {
    for (const member of ctx.unionMembers(union.definition)) {
      const info = ctx.describeMessage(member, union.kind);
      const existing = byMethod.get(info.method);
      if (existing) {
        refuseSecondMessage(existing, info, union.direction, schema.file, ctx.defPointer(member.name));
        if (existing.definition !== info.definition) {
          existing.declarations ??= {};
          existing.declarations[union.direction] = declarationOf(info);
        }
        if (!existing.directions.includes(union.direction)) existing.directions.push(union.direction);
      } else {
        info.directions.push(union.direction);
        byMethod.set(info.method, info);
      }
    }
  }
  const methods = [...byMethod.values()].sort((a, b) => compareStrings(a.method, b.method));
  refuseMemberCollisions(methods, schema.file, (m) => {
    const at = ctx.defPointer(m.definition);
    return hasMethodProperty(schema.definitions[m.definition]) ? `${at}/properties/method` : at;
  });
  const warningsOf = new Map<MethodInfo, string[]>();
  for (const info of methods) {
    info.directions.sort((a, b) => DIRECTIONS.indexOf(a) - DIRECTIONS.indexOf(b));
    if (info.kind !== 'request') continue;
    const paired = pairResult(schema, info, (ref) => ctx.refName(ref), options.pairing);
    info.result = paired.result;
    if (paired.unknown) info.resultUnknown = true;
    if (paired.by !== undefined) info.pairedBy = paired.by;
    warningsOf.set(info, paired.warnings);
  }
  // Task results first: structure must not pair a request with the result its task-augmented calls get.
  markTaskAugmented(methods, schema.definitions, schema.defsKeyword, (ref) => ctx.refName(ref));
  for (const info of pairByStructure(schema, methods, (ref) => ctx.refName(ref), options.pairing))
    warningsOf.delete(info);
  const warnings = [...warningsOf.values()].flat();
  const definitions: Record<string, JsonSchema> = Object.fromEntries(
    Object.entries(schema.definitions).sort(([a], [b]) => compareStrings(a, b)),
  );
  // An unpaired request's result is the generic Result; a schema without one gets it synthesized.
  if (methods.some((m) => m.resultUnknown) && !isObject(definitions.Result)) definitions.Result = GENERIC_RESULT;
  const { features, definitions: featureDefinitions } = locateFeatures(schema, methods);
  return {
    version: schema.version,
    protocolVersion: schema.known ? schema.version : null,
    dialect: schema.dialect,
    defsKeyword: schema.defsKeyword,
    definitions,
    methods,
    features,
    featureDefinitions,
    facts: protocolFacts(schema, methods, features),
    warnings,
  };
}

interface MessageRef {
  /** Definition name of the whole message. */
  name: string;
  schema: JsonSchema;
}

class ModelContext {
  /** Method → the definitions declaring it, in name order (never the file's key order). */
  private readonly defsByMethod = new Map<string, string[]>();

  constructor(private readonly schema: LoadedSchema) {
    for (const [name, def] of Object.entries(schema.definitions)) {
      const method = methodConst(def);
      if (method === undefined) continue;
      if (CONTROL_CHARACTERS.test(method))
        throw new InputError(
          schema.file,
          `${this.defPointer(name)}/properties/method`,
          'a method name holds a control character or line break',
        );
      const declaring = this.defsByMethod.get(method);
      if (declaring) declaring.push(name);
      else this.defsByMethod.set(method, [name]);
    }
    for (const declaring of this.defsByMethod.values()) declaring.sort(compareStrings);
  }

  /**
   * The definition an inline message of a union stands for: one declaring the same method other than
   * the union itself (2026-07-28's ClientNotification restates CancelledNotification), the first by name
   * when several do.
   */
  private declaringOther(method: string | undefined, unionName: string): string | undefined {
    if (method === undefined) return undefined;
    return this.defsByMethod.get(method)?.find((name) => name !== unionName);
  }

  defPointer(name: string): string {
    return definitionPointer(this.schema.defsKeyword, name);
  }

  /** A definition a ref or a method named: refName and the method index only name existing ones. */
  private definition(name: string): JsonSchema {
    const schema = Object.hasOwn(this.schema.definitions, name) ? this.schema.definitions[name] : undefined;
    if (schema === undefined) throw new Error(`internal error: no definition "${name}"`);
    return schema;
  }

  /** A `$ref` to a definition of this schema → its name. */
  refName(ref: unknown): string | undefined {
    if (typeof ref !== 'string') return undefined;
    const prefix = `#/${this.schema.defsKeyword}/`;
    if (!ref.startsWith(prefix)) return undefined;
    const name = decodeFragmentToken(ref.slice(prefix.length));
    return Object.hasOwn(this.schema.definitions, name) ? name : undefined;
  }

  /**
   * The message definitions a union names. A union is an anyOf/oneOf of `$ref`s, a single `$ref`, or —
   * as 2026-07-28's ClientNotification — a message schema written inline, which we map back to the
   * definition that declares the same method.
   */
  unionMembers(unionName: string): MessageRef[] {
    const members: MessageRef[] = [];
    const visit = (wrapped: JsonSchema, wrappedAt: string): void => {
      // A union (or member) wrapped in a single-member allOf is what it wraps.
      const inner = unwrapAllOf(wrapped);
      const node = isObject(inner.node) ? inner.node : wrapped;
      const pointer = `${wrappedAt}${isObject(inner.node) ? inner.at : ''}`;
      const alternatives = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
      if (alternatives) {
        alternatives.forEach((alt, i) => {
          if (isObject(alt)) visit(alt, `${pointer}/${Array.isArray(node.anyOf) ? 'anyOf' : 'oneOf'}/${i}`);
        });
        return;
      }
      const ref = this.refName(node.$ref);
      if (ref) {
        const target = this.definition(ref);
        if (
          methodConst(target) === undefined &&
          (isUnion(target) || unwrapAllOf(target).node !== target || target.$ref)
        ) {
          visit(target, this.defPointer(ref));
        } else {
          members.push({ name: ref, schema: target });
        }
        return;
      }
      const named = this.declaringOther(methodConst(node), unionName);
      if (!named) {
        throw new InputError(
          this.schema.file,
          pointer,
          `cannot tell which message this ${unionName} member is (no $ref and no method const)`,
        );
      }
      members.push({ name: named, schema: this.definition(named) });
    };
    visit(this.definition(unionName), this.defPointer(unionName));
    return members;
  }

  describeMessage(message: MessageRef, kind: MethodKind): MethodInfo {
    const method = methodConst(message.schema);
    if (method === undefined) {
      throw new InputError(
        this.schema.file,
        // The pointer resolves in the file: at `method` when there is one, else at the message.
        `${this.defPointer(message.name)}${hasMethodProperty(message.schema) ? '/properties/method' : ''}`,
        `message ${message.name} has no method const`,
      );
    }
    const { properties, required } = messageParts(message.schema);
    const params = properties.get('params');
    let paramsRef: ParamsRef | null = null;
    if (params && isObject(params.schema)) {
      const name = this.refName(params.schema.$ref);
      paramsRef = name
        ? { kind: 'definition', name }
        : {
            kind: 'inline',
            pointer: `#${this.defPointer(message.name)}${params.at}`,
            direct: params.at === '/properties/params',
          };
    }
    return {
      method,
      kind,
      directions: [],
      definition: message.name,
      params: paramsRef,
      paramsRequired: paramsRef !== null && required.has('params'),
      source: 'mcp',
    };
  }
}

function hasMethodProperty(schema: unknown): boolean {
  return isObject(schema) && isObject(schema.properties) && Object.hasOwn(schema.properties, 'method');
}

/** A message's own declaration: what a direction declared by a definition of its own keeps. */
function declarationOf(info: MethodInfo): MethodDeclaration {
  return { definition: info.definition, params: info.params, paramsRequired: info.paramsRequired };
}

/**
 * One method, one message per direction: a second kind, or a second definition in a direction that
 * already has one, would be dropped unseen. A definition of its own for another direction is kept
 * (a draft of 2026 declared `elicitation/create` both as a server request and as an input request).
 */
function refuseSecondMessage(
  existing: MethodInfo,
  info: MethodInfo,
  direction: Direction,
  file: string,
  at: string,
): void {
  if (existing.kind !== info.kind)
    throw new InputError(file, at, `method "${info.method}" is both a request and a notification`);
  const declared = existing.declarations?.[direction]?.definition ?? existing.definition;
  const sameDirection = existing.directions.includes(direction);
  if (sameDirection && declared !== info.definition)
    throw new InputError(
      file,
      `${at}/properties/method`,
      `method "${info.method}" is declared again (first by ${declared}) for ${direction}: one definition per method and direction`,
    );
}
