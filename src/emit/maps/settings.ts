/**
 * Extension settings in generated code (issue 35, item 3):
 * - maps.ts: `ExtensionSettings` (extension id → its settings type) and `extensionSettings(capabilities, id)`,
 *   the typed read of what a peer advertised (`client.serverCapabilities`, `ctx.session.clientCapabilities`);
 * - client.ts and server.ts: the constructor checks the settings the peer itself will advertise
 *   (`checkExtensionSettings`, templates/capabilities.ts) with each extension's settings validator, or, in
 *   output without validators.ts, with the names its settings schema requires.
 */
import { isObject } from '../../load/schema.js';
import type { ProtocolModel } from '../../model/types.js';
import { extensionSettingsOf } from './tables.js';
import { VALIDATORS } from '../validators/validator-refs.js';
import type { Statement } from '../shared/ts-project.js';
import { functionDecl, typeAlias } from '../shared/ts-structures.js';
import { arrayLiteral, call, objectLiteral, objectType, str } from '../shared/ts-text.js';

/** `ExtensionSettings` and `extensionSettings()`, for maps.ts. */
export function settingsStatements(model: ProtocolModel): Statement[] {
  const extensions = extensionSettingsOf(model);
  if (extensions.length === 0) return [];
  return [
    typeAlias(
      'ExtensionSettings',
      objectType(
        extensions.map((e) => ({ name: e.id, type: `T.${e.definition}` })),
        true,
      ),
      'Each extension generated in, by id → the type of its settings (what `capabilities.extensions[id]` holds).',
    ),
    functionDecl({
      name: 'extensionSettings',
      doc:
        "The settings a peer advertised for an extension, typed by the extension's `settings` schema, or undefined when it did not advertise the extension: `extensionSettings(client.serverCapabilities, id)` on a client, `extensionSettings(ctx.session.clientCapabilities, id)` in a server handler.\n" +
        'Typed, not checked: validate them where a peer you do not trust sends them.',
      typeParams: ['Id extends keyof ExtensionSettings'],
      params: [
        { name: 'capabilities', type: '{ readonly [key: string]: unknown } | undefined' },
        { name: 'id', type: 'Id' },
      ],
      returns: 'ExtensionSettings[Id] | undefined',
      body: [
        "const extensions = capabilities?.['extensions'];",
        "if (typeof extensions !== 'object' || extensions === null || !Object.hasOwn(extensions, id)) return undefined;",
        'const settings: unknown = (extensions as { readonly [key: string]: unknown })[id];',
        "return typeof settings === 'object' && settings !== null ? (settings as ExtensionSettings[Id]) : undefined;",
      ],
    }),
  ];
}

/**
 * The constructor line that checks the settings a peer advertises, after `super(...)` (none without
 * extensions). `validators`: whether the module can read the settings validators (`V`, validators.ts).
 */
export function settingsCheck(model: ProtocolModel, peer: 'client' | 'server', validators: boolean): string[] {
  const extensions = extensionSettingsOf(model);
  if (extensions.length === 0) return [];
  const checks = extensions.map((e) => ({
    name: e.id,
    value: validators
      ? `${VALIDATORS}.${e.definition}`
      : arrayLiteral(requiredOf(model, e.definition).map((r) => str(r))),
    computed: e.id === '__proto__',
  }));
  return [`${call('checkExtensionSettings', 'this.capabilities', objectLiteral(checks, true), str(peer))};`];
}

/** The property names a settings definition requires at its top level. */
function requiredOf(model: ProtocolModel, definition: string): string[] {
  const schema = model.definitions[definition];
  const required = isObject(schema) && Array.isArray(schema.required) ? schema.required : [];
  return required.filter((r): r is string => typeof r === 'string');
}
