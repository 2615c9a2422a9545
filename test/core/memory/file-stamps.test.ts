import { describe, expect, it } from 'vitest';
import { forEachStamp, packStamps } from '../../../src/core/memory/file-stamps.js';

function unpack(packed: ReturnType<typeof packStamps>): { uri: string; mtimeMs: number; size: number }[] {
  const out: { uri: string; mtimeMs: number; size: number }[] = [];
  const count = forEachStamp(packed, (uri, mtimeMs, size) => out.push({ uri, mtimeMs, size }));
  expect(count).toBe(out.length);
  return out;
}

describe('packStamps and forEachStamp', () => {
  it('should give back every stamp in order, fractional times and odd names included', () => {
    const stamps = [
      { uri: 'memory://a/first', mtimeMs: 1_732_000_000_123.456, size: 10 },
      { uri: 'memory://a/with space and ünïcode 文件', mtimeMs: 0, size: 0 },
      { uri: 'memory://b/c/d', mtimeMs: 1, size: 2 ** 40 },
    ];
    const packed = packStamps(stamps);
    expect(packed.numbers).toHaveLength(6);
    expect(unpack(packed)).toEqual(stamps);
    expect(unpack(structuredClone(packed))).toEqual(stamps);
  });

  it('should visit nothing for an empty folder, and one stamp for one file', () => {
    expect(unpack(packStamps([]))).toEqual([]);
    expect(unpack(packStamps([{ uri: 'memory://x', mtimeMs: 5, size: 6 }]))).toEqual([{ uri: 'memory://x', mtimeMs: 5, size: 6 }]);
  });
});
