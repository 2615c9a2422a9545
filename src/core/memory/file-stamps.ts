/**
 * A memory folder's file stamps packed for the crossing from a worker: one
 * string of URIs and one array of numbers instead of an object per file.
 * As objects, ten thousand stamps hold the hook thread while it receives them
 * (each object is cloned field by field); packed, they cross as two copies.
 */
import type { FileStamp } from './memory-index.js';

/** Stamps packed: URIs joined by NUL (no file name holds one), and `mtimeMs, size` for each in turn. */
export interface PackedStamps {
  uris: string;
  numbers: Float64Array;
}

/** Packs stamps in order. */
export function packStamps(stamps: readonly FileStamp[]): PackedStamps {
  const numbers = new Float64Array(stamps.length * 2);
  stamps.forEach((stamp, index) => {
    numbers[index * 2] = stamp.mtimeMs;
    numbers[index * 2 + 1] = stamp.size;
  });
  return { uris: stamps.map((stamp) => stamp.uri).join('\0'), numbers };
}

/**
 * Calls `visit` with each stamp in order, without building an object per stamp.
 *
 * @returns how many stamps were visited.
 */
export function forEachStamp(packed: PackedStamps, visit: (uri: string, mtimeMs: number, size: number) => void): number {
  if (packed.uris === '') return 0;
  let start = 0;
  let index = 0;
  const count = packed.numbers.length / 2;
  while (index < count) {
    const end = packed.uris.indexOf('\0', start);
    const uri = end < 0 ? packed.uris.slice(start) : packed.uris.slice(start, end);
    visit(uri, packed.numbers[index * 2] as number, packed.numbers[index * 2 + 1] as number);
    index += 1;
    if (end < 0) break;
    start = end + 1;
  }
  return index;
}
