/**
 * What both example servers serve that does not depend on the spec version: the test media, texts and
 * schemas the suite's scenarios ask for. Plain data (no generated type): each server types it with its
 * own version's types where it uses it.
 */

/** A 1×1 red PNG. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A WAV file: 8 kHz mono 8-bit, 8 samples of silence. */
export const WAV_BASE64 = wav(8);

/** The resources both servers list and read. */
export const RESOURCES = [
  { uri: 'test://static-text', name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' },
  {
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource',
    mimeType: 'image/png',
  },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource to subscribe to',
    mimeType: 'text/plain',
  },
];

export const RESOURCE_TEMPLATE = {
  uriTemplate: 'test://template/{id}/data',
  name: 'template',
  description: 'A resource template with an id parameter',
  mimeType: 'application/json',
};

/** The text of each fixed resource, or of the template's resource for `uri`; undefined when there is none. */
export function resourceContents(
  uri: string,
): { mimeType: string; text: string } | { mimeType: string; blob: string } | undefined {
  if (uri === 'test://static-text') {
    return { mimeType: 'text/plain', text: 'This is the content of the static text resource.' };
  }
  if (uri === 'test://static-binary') return { mimeType: 'image/png', blob: PNG_BASE64 };
  if (uri === 'test://watched-resource') return { mimeType: 'text/plain', text: 'Watched resource content.' };
  const match = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
  if (!match) return undefined;
  const id = decodeURIComponent(match[1]!);
  return { mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) };
}

/** The prompt completion candidates of `test_prompt_with_arguments`. */
export function completions(promptName: string, prefix: string): string[] {
  const candidates = promptName === 'test_prompt_with_arguments' ? ['paris', 'park', 'party'] : [];
  return candidates.filter((value) => value.startsWith(prefix));
}

/**
 * The input schema of `json_schema_2020_12_tool`: JSON Schema 2020-12 keywords a server must list as written
 * (SEP-1613: `$schema`, `$defs`, `additionalProperties`; SEP-2106: `$anchor`, `allOf`/`anyOf`, `if`/`then`/`else`).
 */
export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object' as const,
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

/** A RIFF/WAVE file of `samples` silent 8-bit mono samples at 8 kHz, as base64. */
function wav(samples: number): string {
  const buffer = Buffer.alloc(44 + samples);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + samples, 4);
  buffer.write('WAVE', 8, 'ascii');
  buffer.write('fmt ', 12, 'ascii');
  buffer.writeUInt32LE(16, 16); // fmt chunk size
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(8000, 24); // sample rate
  buffer.writeUInt32LE(8000, 28); // byte rate
  buffer.writeUInt16LE(1, 32); // block align
  buffer.writeUInt16LE(8, 34); // bits per sample
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(samples, 40);
  buffer.fill(0x80, 44); // 8-bit PCM silence
  return buffer.toString('base64');
}
