import { describe, expect, it } from 'vitest';
import { longestFirst, readTimings } from './timings-sequencer.js';

const files = (...paths: string[]): { path: string; item: string }[] => paths.map((path) => ({ path, item: path }));

describe('longestFirst', () => {
  it('should start the longest recorded file first and a file without a time before any recorded one', () => {
    const timings = { 'test/a.test.ts': 0.4, 'test/b.test.ts': 7.1, 'test/c.test.ts': 2 };
    expect(longestFirst(files('test/a.test.ts', 'test/b.test.ts', 'test/new.test.ts', 'test/c.test.ts'), timings)).toEqual([
      'test/new.test.ts',
      'test/b.test.ts',
      'test/c.test.ts',
      'test/a.test.ts',
    ]);
  });

  it('should keep the given order between files of equal or unknown time', () => {
    expect(longestFirst(files('test/x.test.ts', 'test/y.test.ts', 'test/z.test.ts'), { 'test/y.test.ts': 1, 'test/z.test.ts': 1 })).toEqual([
      'test/x.test.ts',
      'test/y.test.ts',
      'test/z.test.ts',
    ]);
  });
});

describe('readTimings', () => {
  it('should read the recorded seconds of this suite, by path from the repository root', () => {
    const timings = readTimings();
    expect(timings['test/main/plugin/adversarial.test.ts']).toBeTypeOf('number');
    expect(Object.values(timings).every((seconds) => Number.isFinite(seconds) && seconds >= 0)).toBe(true);
  });
});
