/**
 * Generated modules that read single validators (channel ends, settings checks) import validators.ts as a
 * namespace and name each one (`V.UiOpenLinkRequestParams`): a bundler then keeps only those.
 */
import { jsModuleSpecifier } from '../shared/ts-names.js';
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
