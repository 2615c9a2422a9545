import { describe, expect, it } from 'vitest';
import { INDEX_CACHE_PIECE_CHARS, indexCachePieces, MEMORY_INDEX_VERSION } from '../../../src/core/memory/index-cache.js';
import { indexMemoryText, type MemoryIndexEntry } from '../../../src/core/memory/memory-index.js';

async function collect(pieces: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of pieces) out.push(piece);
  return out;
}

function entries(count: number): MemoryIndexEntry[] {
  return Array.from({ length: count }, (_, index) =>
    indexMemoryText(
      { uri: `memory://notes/note-${index}`, mtimeMs: 1_780_000_000_000 + index, size: 900 },
      `---\ntitle: Note ${index}\n---\n\n# Note ${index}\n\nThe [[cart]] keeps its "sessions" in [[sqlite]] — step ${index}.\n\n## Limits\n\n${'Eviction is LRU. '.repeat(40)}\n`,
    ),
  );
}

describe('indexCachePieces', () => {
  it('should join to the JSON of the whole cache, in pieces of about the set size', async () => {
    const all = entries(600);
    const pieces = await collect(indexCachePieces('/home/dev/.maenifold/memory', all));
    expect(pieces.join('')).toBe(JSON.stringify({ version: MEMORY_INDEX_VERSION, memoryDir: '/home/dev/.maenifold/memory', entries: all }));
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces.slice(0, -1)) expect(piece.length).toBeGreaterThanOrEqual(INDEX_CACHE_PIECE_CHARS);
  });

  it('should write an empty index as an empty list', async () => {
    expect(JSON.parse((await collect(indexCachePieces('/m', []))).join(''))).toEqual({ version: MEMORY_INDEX_VERSION, memoryDir: '/m', entries: [] });
  });
});
