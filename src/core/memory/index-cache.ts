/**
 * The memory index's cache file: one JSON object, `{ version, memoryDir,
 * entries }`, written as pieces so the hook thread that holds the index
 * never serializes (or copies to a worker) tens of megabytes in one go.
 */
import type { MemoryIndexEntry } from './memory-index.js';
import { createTimeSlicer } from '../text/time-slicer.js';

/** The cache's format; a cache of another version is rebuilt. */
export const MEMORY_INDEX_VERSION = 2;

/** Characters of a piece: a write each, and a hand-back of the thread whenever a slice is spent. */
export const INDEX_CACHE_PIECE_CHARS = 256 * 1024;

/**
 * The cache's text, in pieces that join to `JSON.stringify({ version, memoryDir, entries })`.
 *
 * @param memoryDir - the memory folder the index was built for.
 * @param entries - the index's entries, as they stand when the write starts.
 */
export async function* indexCachePieces(memoryDir: string, entries: readonly MemoryIndexEntry[]): AsyncGenerator<string> {
  const slicer = createTimeSlicer();
  let piece = `{"version":${MEMORY_INDEX_VERSION},"memoryDir":${JSON.stringify(memoryDir)},"entries":[`;
  for (const [index, entry] of entries.entries()) {
    piece += `${index === 0 ? '' : ','}${JSON.stringify(entry)}`;
    if (piece.length >= INDEX_CACHE_PIECE_CHARS) {
      yield piece;
      piece = '';
    }
    if (slicer.due) await slicer.yield();
  }
  yield `${piece}]}`;
}
