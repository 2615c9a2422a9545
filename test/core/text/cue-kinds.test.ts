import { describe, expect, it } from 'vitest';
import { cueTable, type CueWords } from '../../../src/core/text/cue-kinds.js';

const NONE = {
  goalHeading: [],
  purpose: [],
  summaryHeading: [],
  decisionHeading: [],
  problemHeading: [],
  nextHeading: [],
  planHeading: [],
  problem: [],
  next: [],
  minor: [],
  hedge: [],
} satisfies Omit<CueWords, 'instruction' | 'change' | 'weakChange'>;

describe('cueTable', () => {
  it('should make every instruction verb an instruction cue and add each group to the change kind it marks', () => {
    const table = cueTable({
      ...NONE,
      instruction: { change: ['replace'], weakChange: ['add'], only: ['consider'] },
      change: ['replaced'],
      weakChange: ['added'],
    });
    expect(table.instruction).toEqual(['replace', 'add', 'consider']);
    expect(table.change).toEqual(['replaced', 'replace']);
    expect(table.weakChange).toEqual(['added', 'add']);
    expect(table.purpose).toEqual([]);
  });

  it('should take a language without instruction verbs', () => {
    const table = cueTable({ ...NONE, instruction: {}, change: ['変更'], weakChange: ['追加'] });
    expect(table).toMatchObject({ instruction: [], change: ['変更'], weakChange: ['追加'] });
  });
});
