import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handleSessionCompacting, renderObservation } from '../../../src/core/context/compaction-budget.js';
import { CONSERVATIVE_STRATEGY } from '../../../src/core/context/compaction-strategy.js';
import { calculateRelevanceScore, observationTopics, type Observation, type ObservationType } from '../../../src/core/extraction/observations.js';
import { countTokens } from '../../../src/core/text/tokens/tokens.js';

const SESSION: readonly Observation[] = JSON.parse(
  readFileSync(new URL('../../fixtures/observations/session-20.json', import.meta.url), 'utf8'),
) as Observation[];
const IMPORTANT: readonly ObservationType[] = ['decision', 'problem', 'warning'];

/** The text the result stands for: summary line first, then the kept observations. */
function renderedResult(result: { observations: Observation[]; summary: string | null }, render = renderObservation): string {
  return [...(result.summary === null ? [] : [result.summary]), ...result.observations.map(render)].join('\n');
}

const scoreOf = (observations: readonly Observation[]) => {
  const latestOrder = Math.max(...observations.map((observation) => observation.order));
  return (observation: Observation): number => calculateRelevanceScore(observation, { latestOrder });
};

describe('handleSessionCompacting', () => {
  afterEach(() => {
    vi.doUnmock('../../../src/core/extraction/observations.js');
    vi.resetModules();
  });

  it('should return observations under the target unchanged', () => {
    const five = SESSION.slice(0, 5);
    const result = handleSessionCompacting(five);
    expect(result.observations).toEqual(five);
    result.observations.forEach((kept, index) => expect(kept).toBe(five[index]));
    expect(result).toMatchObject({ removed: 0, summary: null, degraded: false });
    expect(result.tokens).toBe(countTokens(five.map(renderObservation).join('\n')));
  });

  it('should keep the important types and drop the lowest-scored others first in conservative mode', () => {
    const target = 200;
    expect(countTokens(SESSION.map(renderObservation).join('\n'))).toBeGreaterThan(target);
    const result = handleSessionCompacting(SESSION, { targetTokenCount: target });
    const keptIds = new Set(result.observations.map((observation) => observation.id));
    const removed = SESSION.filter((observation) => !keptIds.has(observation.id));

    for (const observation of SESSION.filter((candidate) => IMPORTANT.includes(candidate.type))) {
      expect(keptIds.has(observation.id)).toBe(true);
    }
    const score = scoreOf(SESSION);
    const preserved = CONSERVATIVE_STRATEGY.preserveTypes;
    const keptOthers = result.observations.filter((observation) => !preserved.includes(observation.type)).map(score);
    const removedOthers = removed.filter((observation) => !preserved.includes(observation.type)).map(score);
    expect(removedOthers.length).toBeGreaterThan(0);
    expect(Math.max(...removedOthers)).toBeLessThanOrEqual(Math.min(...keptOthers));

    expect(result.removed).toBe(removed.length);
    expect(result.summary).toBeNull();
    expect(result.tokens).toBe(countTokens(renderedResult(result)));
    expect(result.tokens).toBeLessThanOrEqual(target);
    expect(result.observations.map((observation) => observation.order)).toEqual(
      [...result.observations.map((observation) => observation.order)].sort((a, b) => a - b),
    );
  });

  it('should preserve whichever types the strategy names', () => {
    const result = handleSessionCompacting(SESSION, { targetTokenCount: 120, preserveTypes: ['file', 'note'] });
    const keptTypes = new Set(result.observations.map((observation) => observation.type));
    expect(keptTypes).toEqual(new Set(['file', 'note']));
    expect(result.tokens).toBeLessThanOrEqual(120);
  });

  it('should keep the highest-scored preserved observations that fit when they alone exceed the target', () => {
    const result = handleSessionCompacting(SESSION, { targetTokenCount: 60 });
    expect(result.degraded).toBe(false);
    expect(result.observations.length).toBeGreaterThan(0);
    expect(result.observations.every((observation) => CONSERVATIVE_STRATEGY.preserveTypes.includes(observation.type))).toBe(true);
    expect(result.tokens).toBeLessThanOrEqual(60);
  });

  it('should drop regardless of type and summarize what it dropped in aggressive mode', () => {
    const target = 150;
    const result = handleSessionCompacting(SESSION, { mode: 'aggressive', targetTokenCount: target });
    const keptIds = new Set(result.observations.map((observation) => observation.id));
    const removed = SESSION.filter((observation) => !keptIds.has(observation.id));

    expect(removed.some((observation) => CONSERVATIVE_STRATEGY.preserveTypes.includes(observation.type))).toBe(true);
    expect(result.summary).toMatch(new RegExp(`^\\[${removed.length}\\] older observations summarized: \\S`));
    // The named topics are topics of dropped observations, at most eight.
    const named = result.summary!.split(': ')[1]!.split(', ');
    const droppedTopics = new Set(removed.flatMap((observation) => observationTopics(observation)));
    expect(named.length).toBeGreaterThan(0);
    expect(named.length).toBeLessThanOrEqual(8);
    expect(named.every((topic) => droppedTopics.has(topic))).toBe(true);
    expect(result.tokens).toBe(countTokens(renderedResult(result)));
    expect(result.tokens).toBeLessThanOrEqual(target);
    const score = scoreOf(SESSION);
    expect(Math.max(...removed.map(score))).toBeLessThanOrEqual(Math.min(...result.observations.map(score)));
  });

  it('should shorten or leave out the summary when even it does not fit', () => {
    const tight = handleSessionCompacting(SESSION, { mode: 'aggressive', targetTokenCount: 12 });
    expect(tight.tokens).toBeLessThanOrEqual(12);
    expect(tight.tokens).toBe(countTokens(renderedResult(tight)));
    const none = handleSessionCompacting(SESSION, { mode: 'aggressive', targetTokenCount: 3 });
    expect(none).toMatchObject({ observations: [], removed: SESSION.length, summary: null, tokens: 0, degraded: false });
  });

  it('should return the original observations when rendering throws', () => {
    const render = (): string => {
      throw new Error('render failed');
    };
    const result = handleSessionCompacting(SESSION, { targetTokenCount: 10 }, { render });
    expect(result.observations).toEqual(SESSION);
    expect(result).toMatchObject({ removed: 0, summary: null, degraded: true });
    expect(result.tokens).toBeNaN();
  });

  it('should return the original observations when scoring throws', async () => {
    vi.resetModules();
    vi.doMock('../../../src/core/extraction/observations.js', async (importOriginal) => ({
      ...(await importOriginal<typeof import('../../../src/core/extraction/observations.js')>()),
      calculateRelevanceScore: () => {
        throw new Error('scoring failed');
      },
    }));
    const mocked = await import('../../../src/core/context/compaction-budget.js');
    const result = mocked.handleSessionCompacting(SESSION, { targetTokenCount: 100 });
    expect(result.observations).toEqual(SESSION);
    expect(result.degraded).toBe(true);
  });

  it('should return the original observations for an invalid strategy', () => {
    for (const strategy of [{ targetTokenCount: -1 }, { targetTokenCount: 1.5 }, { mode: 'gentle' as 'aggressive' }]) {
      const result = handleSessionCompacting(SESSION, strategy);
      expect(result.observations).toEqual(SESSION);
      expect(result.degraded).toBe(true);
    }
  });

  it('should stop exactly at the token threshold', () => {
    const total = countTokens(SESSION.map(renderObservation).join('\n'));
    expect(handleSessionCompacting(SESSION, { targetTokenCount: total }).removed).toBe(0);
    const justUnder = handleSessionCompacting(SESSION, { targetTokenCount: total - 1 });
    expect(justUnder.removed).toBe(1);
    expect(justUnder.tokens).toBeLessThanOrEqual(total - 1);

    // Uniform notes: the result must fit, and keeping any dropped one as well must not.
    const notes: Observation[] = Array.from({ length: 60 }, (_, i) => ({
      id: `n${i}`,
      type: 'note',
      text: `checked module ${i} and found nothing unusual.`,
      order: i,
      frequency: 1,
    }));
    for (const target of [97, 150, 233]) {
      const result = handleSessionCompacting(notes, { targetTokenCount: target });
      expect(result.tokens).toBe(countTokens(renderedResult(result)));
      expect(result.tokens).toBeLessThanOrEqual(target);
      const keptIds = new Set(result.observations.map((observation) => observation.id));
      for (const dropped of notes.filter((observation) => !keptIds.has(observation.id))) {
        const withIt = notes.filter((observation) => keptIds.has(observation.id) || observation === dropped);
        expect(countTokens(withIt.map(renderObservation).join('\n'))).toBeGreaterThan(target);
      }
    }
  });

  it('should count with the requested encoding and render', () => {
    const render = (observation: Observation): string => `* ${observation.text}`;
    const result = handleSessionCompacting(SESSION, { targetTokenCount: 150 }, { encoding: 'cl100k_base', render });
    expect(result.tokens).toBe(countTokens(renderedResult(result, render), 'cl100k_base'));
    expect(result.tokens).toBeLessThanOrEqual(150);
  });

  it('should pass over an observation that alone exceeds the target', () => {
    const huge: Observation = { id: 'huge', type: 'decision', text: 'word '.repeat(5_000), order: 21, frequency: 9 };
    const result = handleSessionCompacting([...SESSION, huge], { targetTokenCount: 200 });
    expect(result.observations.some((observation) => observation.id === 'huge')).toBe(false);
    expect(result.observations.length).toBeGreaterThan(5);
  });

  it('should compact 50,000 observations within the target', () => {
    const types: ObservationType[] = ['decision', 'problem', 'warning', 'success', 'concept', 'file', 'note'];
    const many: Observation[] = Array.from({ length: 50_000 }, (_, i) => ({
      id: `o${i}`,
      type: types[i % types.length]!,
      text: `observation ${i} about ${SESSION[i % SESSION.length]!.text}`,
      order: i,
      frequency: 1 + (i % 5),
    }));
    for (const mode of ['conservative', 'aggressive'] as const) {
      const result = handleSessionCompacting(many, { mode, targetTokenCount: 1_000 });
      expect(result.degraded).toBe(false);
      expect(result.tokens).toBeLessThanOrEqual(1_000);
      expect(result.tokens).toBeGreaterThan(900);
      expect(result.removed + result.observations.length).toBe(many.length);
    }
  });
});
