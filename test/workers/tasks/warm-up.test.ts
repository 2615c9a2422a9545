import { describe, expect, it } from 'vitest';
import { FINAL_COPIES, runWarmUp, warmUpFinalInput, warmUpUnits } from '../../../src/workers/tasks/warm-up.js';
import { analyzeUnits } from '../../../src/core/extraction/pipeline/analyze-unit.js';
import { warmUp } from '../../../src/workers/extract-worker.js';

describe('the warm-up', () => {
  it('should reach every stage a real conversation reaches: decisions, files, problems, next steps, terms and several languages', () => {
    const { analyses } = analyzeUnits({ units: warmUpUnits(0), settings: { projectRoot: '/home/dev/shop', maxSectionChars: 16_000, maxDecisionsPerUnit: 10 } });
    expect(analyses.flatMap((analysis) => analysis.decisions).length).toBeGreaterThanOrEqual(3);
    expect(new Set(analyses.flatMap((analysis) => analysis.files).map((touch) => touch.path)).size).toBeGreaterThanOrEqual(3);
    const kinds = new Set([...analyses.flatMap((analysis) => analysis.signals), ...analyses.flatMap((analysis) => analysis.notes)].map((item) => item.type));
    expect(kinds).toContain('problem');
    expect(kinds).toContain('next');
    expect(analyses.flatMap((analysis) => analysis.terms).length).toBeGreaterThan(0);
    expect(new Set(analyses.map((analysis) => analysis.language)).size).toBeGreaterThanOrEqual(3);
  });

  it('should give its final passes windows of hundreds of distinct items, as a real compaction reads', () => {
    const { analyses } = analyzeUnits({ units: warmUpUnits(0), settings: { projectRoot: '/home/dev/shop', maxSectionChars: 16_000, maxDecisionsPerUnit: 10 } });
    const copies = Math.max(...FINAL_COPIES);
    const input = warmUpFinalInput(analyses, copies);
    const once = warmUpFinalInput(analyses, 1);
    const distinct = (values: readonly string[]): number => new Set(values).size;
    // Each copy is told apart from the others, as items of different messages are (a message's own repeats stay repeats).
    expect(distinct(input.signals.map((signal) => signal.id))).toBe(copies * distinct(once.signals.map((signal) => signal.id)));
    expect(distinct(input.notes.map((note) => note.id))).toBe(copies * distinct(once.notes.map((note) => note.id)));
    expect(distinct(input.decisions.map((decision) => decision.text))).toBe(copies * distinct(once.decisions.map((decision) => decision.text)));
    expect(distinct(input.files.map((touch) => touch.path))).toBe(copies * distinct(once.files.map((touch) => touch.path)));
    expect(input.signals.length + input.notes.length + input.decisions.length + input.terms.length).toBeGreaterThanOrEqual(500);
    // Later copies come later in the conversation, as a window's items do.
    expect(Math.max(...input.decisions.map((decision) => decision.order ?? 0))).toBeGreaterThan(analyses.length);
  });

  it('should give each final pass sections of its own, so the markdown parser runs on every pass rather than once', () => {
    const { analyses } = analyzeUnits({ units: warmUpUnits(0), settings: { projectRoot: '/home/dev/shop', maxSectionChars: 16_000, maxDecisionsPerUnit: 10 } });
    const first = warmUpFinalInput(analyses, 1, 1);
    const second = warmUpFinalInput(analyses, 1, 2);
    expect(first.sections.length).toBe(2);
    expect(first.sections[0]).not.toBe(first.sections[1]);
    for (const [index, section] of first.sections.entries()) {
      expect(section).not.toBe(second.sections[index]);
      // The pass's mark follows the real text: what the parser compiles for is still a conversation's sections.
      expect(section).toMatch(/^## \w+/);
    }
  });

  it('should end in a preservation context, and report it as a task value', () => {
    expect(runWarmUp(768)).toBeGreaterThan(50);
    expect(runWarmUp(768, 1)).toBeGreaterThan(50);
    expect(runWarmUp(64)).toBeGreaterThan(50);
    // Outside a pool worker nothing asks for a lower priority.
    expect(warmUp({ rounds: 2 })).toEqual({ ok: true, value: { tokens: expect.any(Number), priority: { kind: 'unchanged', reason: 'niceness 0' } } });
    // No passes: the pool's first wave, which only tells that the worker loaded.
    expect(warmUp({ rounds: 0 })).toEqual({ ok: true, value: { tokens: 0, priority: { kind: 'unchanged', reason: 'niceness 0' } } });
    expect(warmUp({ rounds: -1 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(warmUp(null)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});
