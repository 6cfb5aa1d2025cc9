/**
 * Generated modules that read single validators (channel ends, settings checks) import validators.ts as a
 * namespace and name each one (`V.UiOpenLinkRequestParams`): a bundler then keeps only those.
 */
import type { MethodInfo } from '../../model/types.js';
import { jsModuleSpecifier } from '../shared/ts-names.js';
import { arrayLiteral, objectLiteral, str } from '../shared/ts-text.js';
import { paramsValidatorName } from './validators.js';
import type { Statement } from '../shared/ts-project.js';
import { importDecl } from '../shared/ts-structures.js';

/** The namespace: `import * as V from './validators.js'`. */
export const VALIDATORS = 'V';

/** The namespace import, when the module reads single validators (`needed`) and validators.ts is generated. */
export function validatorsNamespaceImport(importExt: string, validators: boolean, needed: boolean): Statement[] {
  return validators && needed
    ? [importDecl(false, { namespace: VALIDATORS }, jsModuleSpecifier('validators', importExt))]
    : [];
}

/**
 * The params validators of `methods` as the runtime's checks take them: an object literal of each method's
 * validator by name (`V.UiOpenLinkRequestParams`: a bundle keeps only those), and an array literal of the methods
 * whose params must be sent.
 */
export function paramsValidatorLiterals(methods: readonly MethodInfo[]): { params: string; required: string } {
  const params = methods.flatMap((m) =>
    m.params === null
      ? []
      : [
          {
            name: m.method,
            value: `${VALIDATORS}.${paramsValidatorName(m.params, m.definition)}`,
            computed: m.method === '__proto__',
          },
        ],
  );
  const required = methods.filter((m) => m.paramsRequired).map((m) => str(m.method));
  return { params: objectLiteral(params, true), required: arrayLiteral(required) };
}
