import type { Linter } from 'eslint';

/** See eslint-layers.js. */
export function layerEntries(folders: string[], appFiles: string[]): Linter.Config[];
