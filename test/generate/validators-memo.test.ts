/**
 * The validators are compiled once per distinct set of definitions in a process (watch, `--all`, the API):
 * the same definitions give the same module back, and a change that validates differently is compiled anew,
 * never answered from the memo.
 */
import { expect, it } from 'vitest';
import { validatorModule } from '../../src/emit/validators/validators.js';

it('reuses a compiled module only for the same definitions', () => {
  const defs = { Thing: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } };
  const first = validatorModule('2020-12', '$defs', defs);
  expect(validatorModule('2020-12', '$defs', structuredClone(defs))).toBe(first);
  const stricter = { Thing: { ...defs.Thing, additionalProperties: false } };
  const changed = validatorModule('2020-12', '$defs', stricter);
  expect(changed).not.toBe(first);
  expect(changed).toContain('additionalProperty');
  // An annotation-only change of the user's schema never reaches here (stripAnnotations), but a keyword does.
  expect(validatorModule('2020-12', '$defs', { Thing: { ...defs.Thing, minProperties: 1 } })).toContain(
    'minProperties',
  );
});
