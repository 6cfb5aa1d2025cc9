import type { ProtocolModel } from '../model/types.js';
export function emitServer(_model: ProtocolModel, _importExt: string): string {
  return 'export {};\n';
}
export function serverExports(): { types: string[]; values: string[] } {
  return { types: [], values: [] };
}
