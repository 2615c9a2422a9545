import { describe, expect, it } from 'vitest';
import { keyOf } from '../../../../src/core/extraction/problems/output-lines.js';
import { LOOKAHEAD_LINES, ReadingState } from '../../../../src/core/extraction/problems/reading-state.js';

describe('ReadingState', () => {
  it('should keep a problem as one clean line and merge repeats by key', () => {
    const state = new ReadingState(8, false);
    state.push('problem', '  Error:\n  build   failed:');
    state.push('problem', 'Build failed again', keyOf('  Error:\n  build   failed:'));
    state.push('warning', 'ok');
    expect(state.problems).toEqual([{ type: 'problem', text: 'Error: build failed', key: keyOf('  Error:\n  build   failed:') }]);
  });

  it('should keep room for four times max before grouping, and report at most max', () => {
    const state = new ReadingState(2, false);
    for (let index = 0; index < 20; index++) state.push('problem', `failure number ${'x'.repeat(index)}`);
    expect(state.problems).toHaveLength(8);
    expect(state.grouped()).toHaveLength(2);
  });

  it('should keep the waiting problem when flushed, once', () => {
    const state = new ReadingState(8, false);
    state.pending = { type: 'problem', text: 'TypeError: x is undefined', key: 'typeerror', wants: 'location', ttl: LOOKAHEAD_LINES };
    state.flush();
    state.flush();
    expect(state.pending).toBeNull();
    expect(state.problems.map((problem) => problem.text)).toEqual(['TypeError: x is undefined']);
  });
});
