/**
 * Merging vendor extensions into the protocol model. Loading and the name rules live in
 * src/extensions/; this file only folds checked extensions into a model.
 */
import type { LoadedSchema } from '../load/schema.js';
import type { ProtocolModel } from './types.js';

export interface LoadedExtension {
  file: string;
  sha256: string;
  warnings: string[];
}

export async function loadExtensionsFor(files: string[], _cwd: string): Promise<LoadedExtension[]> {
  if (files.length > 0) throw new Error('extensions: not wired yet');
  return [];
}

export function applyExtensions(model: ProtocolModel, _extensions: LoadedExtension[], _schema: LoadedSchema): ProtocolModel {
  return model;
}
