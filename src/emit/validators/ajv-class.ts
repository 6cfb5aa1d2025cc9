/**
 * ajv's class for a schema's dialect. Imported statically rather than through createRequire, so the CLI
 * bundle (scripts/bundle-cli.mjs) carries ajv instead of resolving its ~70 modules at every start.
 * ajv is CommonJS: Node's default import is its `module.exports`, whose `default` is the class.
 */
import ajvDraft7 from 'ajv';
import ajv2020 from 'ajv/dist/2020.js';
import type AjvCore from 'ajv/dist/core.js';

export function ajvClass(dialect: 'draft-07' | '2020-12'): new (options: object) => AjvCore.default {
  return dialect === '2020-12' ? ajv2020.default : ajvDraft7.default;
}
