import { describe, expect, it } from 'vitest';
import { recentItems, type PlacedAnalysis } from '../../../src/main/compaction/placed-analyses.js';
import type { UnitAnalysis } from '../../../src/workers/protocol.js';

function found(order: number, paths: string[]): UnitAnalysis {
  return {
    key: `m${order}`, order, chars: 1, h2Count: 0, lead: '', leadIsWhole: true, firstSection: '', firstSectionOpen: false, lastSection: '', lastSectionOpen: false,
    decisions: [{ family: 'explicit', category: 'architecture', text: `decision ${order}`, context: '', order }, { family: 'explicit', category: 'architecture', text: 'no position', context: '' }],
    files: paths.map((path) => ({ path, tool: 'edit', order, action: 'edit' as const })),
    signals: [], notes: [], terms: [], language: 'und', redactions: 0,
  };
}

describe('recentItems', () => {
  it("should move the items of a kept analysis to its message's position in this read, and leave the rest as found", () => {
    // Found at 50 and 60 by an earlier read; this read starts 30 messages later, so they sit at 20 and 30.
    const kept = found(50, ['src/a.ts']);
    const placed: PlacedAnalysis[] = [{ analysis: kept, order: 20 }, { analysis: found(60, ['src/b.ts', 'src/c.ts']), order: 30 }, { analysis: found(31, ['src/d.ts']), order: 31 }];
    expect(recentItems(placed, (analysis) => analysis.files, 10).map((touch) => [touch.path, touch.order])).toEqual([['src/a.ts', 20], ['src/b.ts', 30], ['src/c.ts', 30], ['src/d.ts', 31]]);
    expect(recentItems(placed, (analysis) => analysis.decisions, 10).map((decision) => decision.order)).toEqual([20, undefined, 30, undefined, 31, undefined]);
    // The kept analysis itself is left as it was, for the next read.
    expect(kept.files[0]?.order).toBe(50);
  });

  it('should keep only the most recent items, in conversation order', () => {
    const placed: PlacedAnalysis[] = [0, 1, 2].map((order) => ({ analysis: found(order, [`f${order}a`, `f${order}b`]), order }));
    expect(recentItems(placed, (analysis) => analysis.files, 3).map((touch) => touch.path)).toEqual(['f1b', 'f2a', 'f2b']);
  });

  it('should move the position a note id holds with the note, and leave other ids and their like texts alone', () => {
    const kept: UnitAnalysis = {
      ...found(50, []),
      notes: [
        { id: 'next:request:50', type: 'next', text: 'asked: run the tests', order: 50, frequency: 1 },
        { id: 'next:step:50:run the tests 50', type: 'next', text: 'next: run the tests 50', order: 50, frequency: 1 },
        { id: 'next:todo:50:closed', type: 'next', text: '', order: 50, frequency: 1 },
        { id: 'next:request:500', type: 'next', text: 'asked: another position', order: 50, frequency: 1 },
        { id: 'said:stated:build fails', type: 'problem', text: 'the build fails', order: 50, frequency: 1 },
      ],
    };
    const ids = recentItems([{ analysis: kept, order: 7 }], (analysis) => analysis.notes, 10).map((note) => note.id);
    expect(ids).toEqual(['next:request:7', 'next:step:7:run the tests 50', 'next:todo:7:closed', 'next:request:500', 'said:stated:build fails']);
  });
});
