import { relative } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Writes `.vite/chunk-map.json` beside Vite's manifest: each JavaScript chunk's file and the source
 * modules it holds. The manifest names only entry and dynamic-import chunks, so a screen grouped into
 * an audience chunk (vite.config.ts `advancedChunks`) can only be weighed through this map
 * (scripts/bench/budget.mjs).
 */
export function chunkMap(root: string): Plugin {
  return {
    name: 'survey-bird-chunk-map',
    apply: 'build',
    generateBundle(_options, bundle) {
      const map: Record<string, string[]> = {};
      for (const out of Object.values(bundle)) {
        if (out.type === 'chunk') map[out.fileName] = out.moduleIds.filter((id) => !id.startsWith('\0')).map((id) => relative(root, id).replace(/\\/g, '/'));
      }
      this.emitFile({ type: 'asset', fileName: '.vite/chunk-map.json', source: JSON.stringify(map) });
    },
  };
}
