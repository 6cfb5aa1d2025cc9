export { buildModel, compareStrings, methodConst } from './build.js';
export * from './types.js';
