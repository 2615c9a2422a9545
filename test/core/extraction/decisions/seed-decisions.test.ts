import { describe, expect, it } from 'vitest';
import { DECISION_THRESHOLD } from '../../../../src/core/extraction/decisions/prose-decisions.js';
import { seedDecisionScore, seedFamiliesWorthReading } from '../../../../src/core/extraction/decisions/seed-decisions.js';

describe('seedDecisionScore', () => {
  const decision = { family: 'rationale' as const, category: 'rationale' as const, text: 'it is faster', context: 'because it is faster' };
  it('should rank the seed families, raise a [[link]] and drop pasted templates', () => {
    expect(seedDecisionScore(decision, 'assistant', false)).toBeLessThan(DECISION_THRESHOLD);
    expect(seedDecisionScore({ ...decision, family: 'explicit' }, 'assistant', false)).toBeGreaterThanOrEqual(DECISION_THRESHOLD);
    expect(seedDecisionScore({ ...decision, text: 'use [[sqlite]] for the index' }, 'assistant', false)).toBeGreaterThanOrEqual(DECISION_THRESHOLD);
    expect(seedDecisionScore({ ...decision, family: 'explicit' }, 'user', true)).toBe(0);
  });

  it('should take a first-person choice from the user at the same worth, and the looser families lower', () => {
    expect(seedDecisionScore({ ...decision, family: 'explicit' }, 'user', false)).toBeGreaterThanOrEqual(DECISION_THRESHOLD);
    expect(seedDecisionScore({ ...decision, family: 'labelled' }, 'user', false)).toBeGreaterThanOrEqual(DECISION_THRESHOLD);
    expect(seedDecisionScore({ ...decision, family: 'rejection' }, 'user', false)).toBeLessThan(DECISION_THRESHOLD);
  });
});

describe('seedFamiliesWorthReading', () => {
  it('should read only the families that can reach the threshold', () => {
    expect([...seedFamiliesWorthReading('assistant', false, false)].sort()).toEqual(['explicit', 'labelled', 'rejection']);
    expect([...seedFamiliesWorthReading('user', false, false)].sort()).toEqual(['explicit', 'labelled']);
    expect([...seedFamiliesWorthReading('user', true, false)].sort()).toEqual(['approach', 'architectural', 'explicit', 'labelled', 'rationale', 'rejection']);
    expect(seedFamiliesWorthReading('assistant', true, true).size).toBe(0);
  });
});
