export { buildModel, methodConst } from './build.js';
export * from './types.js';
