/**
 * sdk-tokens.ts: what an SDK program names things by, beside sdk.ts's functions: `METHOD_NAMES` (every method
 * name, spec and vendor, by its definition: typed tokens) and `extensionCapabilities` (the extensions' settings
 * this peer advertises, typed).
 */
import type { ProtocolModel } from '../../model/types.js';
import { compareStrings } from '../../load/order.js';
import { hasExtensionSettings } from '../maps/tables.js';
import type { Statement } from '../shared/ts-project.js';
import { constDecl, functionDecl, typeAlias } from '../shared/ts-structures.js';
import { objectLiteral, str, type Prop } from '../shared/ts-text.js';

/** Every method name by the definition declaring it: `METHOD_NAMES.CallToolRequest` is `'tools/call'`. */
export function methodTokens(model: ProtocolModel): Statement {
  const rows = [...model.methods]
    .sort((a, b) => compareStrings(a.definition, b.definition))
    .map((m): Prop => ({ name: m.definition, value: str(m.method) }));
  return constDecl('METHOD_NAMES', `${objectLiteral(rows, true)} as const`, {
    doc: 'Every method name, spec and vendor, by the definition that declares it: typed tokens instead of string literals.',
  });
}

/**
 * Extension settings for the SDK: `extensionCapabilities` types what this peer advertises with maps.ts's
 * `ExtensionSettings`, and returns it as JSON for the SDK's capability types; maps.ts's
 * `extensionSettings(capabilities, id)` reads what the other peer advertised.
 */
export function settingsStatements(model: ProtocolModel): Statement[] {
  if (!hasExtensionSettings(model)) return [];
  return [
    typeAlias(
      'JsonObject',
      '{ [key: string]: string | number | boolean | null | JsonObject | (string | number | boolean | null | JsonObject)[] }',
      'A JSON object, as the SDK types capability entries.',
    ),
    functionDecl({
      name: 'extensionCapabilities',
      doc: "The `extensions` capability advertising these extensions with their settings (typed by each extension's `settings` schema): pass it to `registerCapabilities` or the constructor's `capabilities`.",
      params: [{ name: 'settings', type: 'Partial<ExtensionSettings>' }],
      // Typed as JSON for the SDK's capability types (index signatures the generated interfaces lack).
      returns: '{ extensions: { [id: string]: JsonObject } }',
      body: ['return { extensions: settings as unknown as { [id: string]: JsonObject } };'],
    }),
  ];
}
