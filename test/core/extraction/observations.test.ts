import { describe, expect, it } from 'vitest';
import {
  TYPE_WEIGHTS,
  calculateRelevanceScore,
  observationTopics,
  type Observation,
  type ObservationType,
} from '../../../src/core/extraction/observations.js';

const observation = (overrides: Partial<Observation> = {}): Observation => ({
  id: 'x',
  type: 'decision',
  text: 'Use piscina for the worker pool',
  order: 100,
  frequency: 1,
  ...overrides,
});

describe('TYPE_WEIGHTS', () => {
  it('should rank decision and problem highest, then next, warning, file, success, concept and note', () => {
    const ranked: ObservationType[] = ['decision', 'problem', 'next', 'warning', 'file', 'success', 'concept', 'note'];
    const weights = ranked.map((type) => TYPE_WEIGHTS[type]);
    expect([...weights].sort((a, b) => b - a)).toEqual(weights);
    expect(new Set(weights).size).toBe(8);
    expect(TYPE_WEIGHTS.problem).toBeGreaterThan(TYPE_WEIGHTS.warning);
    expect(Object.isFrozen(TYPE_WEIGHTS)).toBe(true);
  });
});

describe('calculateRelevanceScore', () => {
  it('should follow the documented formula', () => {
    const latest = { latestOrder: 100 };
    expect(calculateRelevanceScore(observation(), latest)).toBeCloseTo(1, 10);
    // 25 positions old: recency 0.3 + 0.7 × 0.5 = 0.65.
    expect(calculateRelevanceScore(observation({ order: 75 }), latest)).toBeCloseTo(0.65, 10);
    expect(calculateRelevanceScore(observation({ frequency: 2 }), latest)).toBeCloseTo(1.5, 10);
    expect(calculateRelevanceScore(observation({ frequency: 4 }), latest)).toBeCloseTo(2, 10);
    expect(calculateRelevanceScore(observation({ type: 'note' }), latest)).toBeCloseTo(TYPE_WEIGHTS.note, 10);
  });

  it('should decay with age but keep a floor, so an old decision outranks a fresh note', () => {
    const latest = { latestOrder: 1_000 };
    const scores = [1_000, 990, 950, 800, 0].map((order) => calculateRelevanceScore(observation({ order }), latest));
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThan(scores[i - 1]!);
    expect(scores.at(-1)).toBeGreaterThan(0.29);
    expect(scores.at(-1)).toBeGreaterThan(calculateRelevanceScore(observation({ type: 'note', order: 1_000 }), latest));
  });

  it('should grow with frequency with diminishing returns', () => {
    const latest = { latestOrder: 100 };
    const [once, twice, eight, nine] = [1, 2, 8, 9].map((frequency) => calculateRelevanceScore(observation({ frequency }), latest));
    // One more sighting is worth less the more often it was already seen.
    expect(twice! - once!).toBeGreaterThan(nine! - eight!);
    expect(nine).toBeGreaterThan(eight!);
  });

  it('should be deterministic and tolerate odd values without throwing', () => {
    const latest = { latestOrder: 10 };
    const odd = observation({ order: Number.NaN, frequency: Number.NaN, type: 'unknown' as ObservationType });
    expect(calculateRelevanceScore(odd, latest)).toBe(calculateRelevanceScore(odd, latest));
    expect(calculateRelevanceScore(odd, latest)).toBeCloseTo(TYPE_WEIGHTS.note, 10);
    expect(calculateRelevanceScore(observation({ order: 50 }), latest)).toBeCloseTo(1, 10);
    expect(calculateRelevanceScore(observation({ frequency: 0 }), latest)).toBe(calculateRelevanceScore(observation({ frequency: 1 }), latest));
  });
});

describe('observationTopics', () => {
  it('should use the given topics, lowercased and cleaned', () => {
    expect(observationTopics(observation({ topics: ['Worker Pool', ' piscina ', 'a,\nb', '', 'PISCINA'] }))).toEqual([
      'worker pool',
      'piscina',
      'a b',
    ]);
  });

  it('should fall back to the salient words of the text', () => {
    const topics = observationTopics(observation({ text: 'We decided to use the Piscina pool for src/workers/pool.ts in 2024, and it is fast.' }));
    expect(topics).toEqual(['decided', 'piscina', 'pool', 'src/workers/pool.ts', 'fast']);
  });

  it('should keep at most twelve topics', () => {
    const text = Array.from({ length: 30 }, (_, i) => `topic${String.fromCharCode(97 + (i % 26))}${i}`).join(' ');
    expect(observationTopics(observation({ text }))).toHaveLength(12);
  });
});
