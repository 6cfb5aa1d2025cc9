import type { ProtocolModel } from '../model/types.js';
export function emitClient(_model: ProtocolModel, _importExt: string): string {
  return 'export {};\n';
}
export function clientExports(): { types: string[]; values: string[] } {
  return { types: [], values: [] };
}
