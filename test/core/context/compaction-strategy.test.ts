import { describe, expect, it } from 'vitest';
import { AGGRESSIVE_STRATEGY, CONSERVATIVE_STRATEGY, resolveStrategy } from '../../../src/core/context/compaction-strategy.js';

describe('CONSERVATIVE_STRATEGY', () => {
  it('should be frozen, target 1000 tokens and preserve decisions, problems, work in progress and warnings', () => {
    expect(CONSERVATIVE_STRATEGY).toEqual({
      mode: 'conservative',
      targetTokenCount: 1_000,
      preserveTypes: ['decision', 'problem', 'next', 'warning'],
    });
    expect(Object.isFrozen(CONSERVATIVE_STRATEGY)).toBe(true);
    expect(Object.isFrozen(CONSERVATIVE_STRATEGY.preserveTypes)).toBe(true);
    expect(AGGRESSIVE_STRATEGY.mode).toBe('aggressive');
    expect(Object.isFrozen(AGGRESSIVE_STRATEGY)).toBe(true);
  });
});

describe('resolveStrategy', () => {
  it('should fill missing fields from the preset of the mode', () => {
    expect(resolveStrategy({})).toEqual({ ...CONSERVATIVE_STRATEGY });
    expect(resolveStrategy({ mode: 'aggressive', targetTokenCount: 200 })).toEqual({ mode: 'aggressive', targetTokenCount: 200, preserveTypes: [] });
  });

  it('should name the field that is wrong', () => {
    expect(() => resolveStrategy({ mode: 'gentle' as 'aggressive' })).toThrow(/strategy\.mode/);
    expect(() => resolveStrategy({ targetTokenCount: 1.5 })).toThrow(/strategy\.targetTokenCount/);
    expect(() => resolveStrategy({ preserveTypes: 'decision' as never })).toThrow(/strategy\.preserveTypes/);
  });
});
