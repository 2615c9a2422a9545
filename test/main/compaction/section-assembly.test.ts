import { describe, expect, it } from 'vitest';
import { assembleBoundarySections, FALLBACK_CHARS } from '../../../src/main/compaction/section-assembly.js';
import type { UnitAnalysis } from '../../../src/workers/protocol.js';

function unit(order: number, fields: Partial<UnitAnalysis>): UnitAnalysis {
  return {
    key: `m${order}`,
    order,
    chars: 0,
    h2Count: 0,
    lead: '',
    leadIsWhole: true,
    firstSection: '',
    firstSectionOpen: false,
    lastSection: '',
    lastSectionOpen: false,
    decisions: [],
    files: [],
    signals: [],
    notes: [],
    terms: [],
    language: 'und',
    redactions: 0,
    ...fields,
  };
}

describe('assembleBoundarySections', () => {
  it('should continue an open first section into the following messages until a heading', () => {
    const analyses = [
      unit(0, { lead: 'intro' }),
      unit(1, { h2Count: 1, leadIsWhole: false, firstSection: '## A\nfirst', firstSectionOpen: true, lastSection: '## A\nfirst', lastSectionOpen: true }),
      unit(2, { lead: 'more of A' }),
      unit(3, { h2Count: 1, leadIsWhole: false, lead: 'tail of A', firstSection: '## B\nlast', firstSectionOpen: true, lastSection: '## B\nlast', lastSectionOpen: true }),
      unit(4, { lead: 'more of B' }),
    ];
    expect(assembleBoundarySections(analyses, 1_000)).toEqual({
      kind: 'h2',
      sections: ['## A\nfirst\n\nmore of A\n\ntail of A', '## B\nlast\n\nmore of B'],
    });
  });

  it('should return one section when the conversation has a single H2', () => {
    const analyses = [unit(0, { h2Count: 1, leadIsWhole: false, firstSection: '## Only', firstSectionOpen: true, lastSection: '## Only', lastSectionOpen: true })];
    expect(assembleBoundarySections(analyses, 1_000)).toEqual({ kind: 'h2', sections: ['## Only'] });
  });

  it('should keep two sections of one message apart', () => {
    const analyses = [unit(0, { h2Count: 2, leadIsWhole: false, firstSection: '## A', lastSection: '## B', lastSectionOpen: true })];
    expect(assembleBoundarySections(analyses, 1_000).sections).toEqual(['## A', '## B']);
  });

  it('should cap a continued section', () => {
    const analyses = [
      unit(0, { h2Count: 1, leadIsWhole: false, firstSection: '## A', firstSectionOpen: true, lastSection: '## A', lastSectionOpen: true }),
      ...Array.from({ length: 50 }, (_, index) => unit(index + 1, { lead: 'x'.repeat(100) })),
    ];
    const [section] = assembleBoundarySections(analyses, 500).sections;
    expect(section?.length).toBe(500);
  });

  it('should fall back to a bounded head and tail without any H2', () => {
    const analyses = Array.from({ length: 10 }, (_, index) => unit(index, { lead: `${index}`.repeat(1_000) }));
    const result = assembleBoundarySections(analyses, 16_000);
    expect(result.kind).toBe('fallback');
    expect(result.sections).toHaveLength(2);
    expect(result.sections[0]?.startsWith('0000')).toBe(true);
    expect(result.sections[1]?.endsWith('9999')).toBe(true);
    expect(result.sections.every((section) => section.length <= FALLBACK_CHARS)).toBe(true);
  });

  it('should report an empty conversation', () => {
    expect(assembleBoundarySections([], 100)).toEqual({ kind: 'empty', sections: [] });
    expect(assembleBoundarySections([unit(0, { lead: '  \n ' })], 100)).toEqual({ kind: 'empty', sections: [] });
  });
});
