import { describe, expect, it } from 'vitest';
import { completePending, readCompiler, readLooseError, readTestRunner, readTraceback } from '../../../../src/core/extraction/problems/line-readers.js';
import { ReadingState } from '../../../../src/core/extraction/problems/reading-state.js';

const texts = (state: ReadingState): string[] => state.problems.map((problem) => `${problem.type}: ${problem.text}`);

describe('completePending', () => {
  it('should add the location an error waits for, and leave other lines', () => {
    const state = new ReadingState(8, false);
    expect(completePending('--> src/main.rs:4:18', '  --> src/main.rs:4:18', state)).toBe(false);
    state.pending = { type: 'problem', text: 'error[E0308]: mismatched types', key: 'e0308', wants: 'location', ttl: 6 };
    expect(completePending('|', '   |', state)).toBe(false);
    expect(completePending('--> src/main.rs:4:18', '  --> src/main.rs:4:18', state)).toBe(true);
    expect(texts(state)).toEqual(['problem: error[E0308]: mismatched types (src/main.rs:4:18)']);
  });
});

describe('readTraceback', () => {
  it('should take every line of an open traceback and report its exception with the project frame', () => {
    const state = new ReadingState(8, false);
    expect(readTraceback('Traceback (most recent call last):', 'Traceback (most recent call last):', state)).toBe(true);
    const frame = '  File "/srv/shop/report.py", line 14, in <module>';
    expect(readTraceback(frame.trim(), frame, state)).toBe(true);
    expect(readTraceback('totals = load()', '    totals = load()', state)).toBe(true);
    expect(readTraceback("KeyError: 'sku'", "KeyError: 'sku'", state)).toBe(true);
    expect(texts(state)).toEqual(["problem: KeyError: 'sku' (/srv/shop/report.py:14)"]);
    expect(readTraceback('Done.', 'Done.', state)).toBe(false);
  });
});

describe('readTestRunner', () => {
  it('should hold a failing test until its message, and mark the output failed', () => {
    const state = new ReadingState(8, false);
    expect(readTestRunner('--- FAIL: TestParseDate (0.00s)', state)).toBe(true);
    expect(state.pending?.wants).toBe('message');
    expect(state.failed).toBe(true);
    expect(readTestRunner('compiling…', state)).toBe(false);
  });
});

describe('readCompiler', () => {
  it('should read a type-checker line with its location', () => {
    const state = new ReadingState(8, false);
    const line = "src/cart.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.";
    expect(readCompiler(line, line, state)).toBe(true);
    expect(texts(state)).toEqual(["problem: TS2322: Type 'string' is not assignable to type 'number'. (src/cart.ts:12)"]);
  });
});

describe('readLooseError', () => {
  it('should read a package manager error and leave plain prose', () => {
    const state = new ReadingState(8, false);
    expect(readLooseError('npm error Missing script: "build"', state)).toBe(true);
    expect(readLooseError('All good here', state)).toBe(false);
    expect(texts(state)).toEqual(['problem: npm error: Missing script: "build"']);
  });
});
