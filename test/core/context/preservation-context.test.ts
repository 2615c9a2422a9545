import { describe, expect, it } from 'vitest';
import {
  DROPPED_HEADING,
  MAX_ENTRY_TOKENS,
  MAX_SHORT_ENTRY_TOKENS,
  PRESERVATION_HEADING,
  contextOverheadTokens,
  entryKey,
  renderObservationLine,
  renderPreservationContext,
} from '../../../src/core/context/preservation-context.js';
import type { Observation, ObservationType } from '../../../src/core/extraction/observations.js';
import { countTokens } from '../../../src/core/text/tokens/tokens.js';
import { contextWithoutFiles } from '../../../src/eval/truth-match.js';

let next = 0;
const seen = (type: ObservationType, text: string): Observation => ({ id: `o${next++}`, type, text, order: next, frequency: 1 });

const MIXED: readonly Observation[] = [
  seen('file', 'src/payments/refund.ts'),
  seen('note', 'the staging database was reset at noon'),
  seen('success', '42 tests passed'),
  seen('next', 'add a regression test for partial refunds'),
  seen('warning', 'npm warn deprecated request@2.88.2'),
  seen('problem', 'TypeError: Cannot read properties of undefined (reading amount)'),
  seen('decision', 'refund amounts are stored in cents instead of floats'),
  seen('concept', '[[refunds]]'),
];

const headingsOf = (text: string): string[] => text.split('\n').filter((line) => line.startsWith('#'));

describe('renderPreservationContext', () => {
  it('should print groups in order of value: decisions, open problems, in progress, warnings, then the working set', () => {
    const { text, tokens } = renderPreservationContext(MIXED, 500, 'o200k_base');
    expect(headingsOf(text)).toEqual([
      PRESERVATION_HEADING,
      '### Decisions',
      '### Open problems',
      '### In progress / next',
      '### Warnings',
      '### Working set',
      '### Verified',
      '### Concepts (keep the double brackets)',
      '### Also',
    ]);
    expect(text).toContain('### In progress / next\n- add a regression test for partial refunds');
    expect(tokens).toBe(countTokens(text));
  });

  it('should not print a group that has no entry', () => {
    const { text } = renderPreservationContext([seen('decision', 'keep the retry queue in Redis'), seen('file', 'src/queue.ts')], 500, 'o200k_base');
    expect(headingsOf(text)).toEqual([PRESERVATION_HEADING, '### Decisions', '### Working set']);
  });

  it('should print an entry once, whether repeated in one group or named by two', () => {
    const { text } = renderPreservationContext(
      [
        seen('problem', 'Build failed: missing module ./config'),
        seen('problem', 'build failed:  missing module ./config.'),
        seen('warning', 'Build failed: missing module ./config'),
        seen('decision', 'Build failed: missing module ./config'),
      ],
      500,
      'o200k_base',
    );
    expect(text.match(/missing module/g)).toHaveLength(1);
    expect(headingsOf(text)).toEqual([PRESERVATION_HEADING, '### Decisions']);
  });

  it('should cut from the least valuable end, never leave a heading without entries, and fit the budget exactly', () => {
    const many = [
      ...Array.from({ length: 12 }, (_, index) => seen('decision', `decision number ${index} about the refund ledger and its rounding`)),
      ...Array.from({ length: 12 }, (_, index) => seen('file', `src/ledger/part-${index}.ts`)),
    ];
    const kept = [40, 97, 150, 233].map((budget) => {
      const { text, tokens } = renderPreservationContext(many, budget, 'o200k_base');
      expect(tokens).toBe(countTokens(text));
      expect(tokens).toBeLessThanOrEqual(budget);
      expect(text.split('\n').at(-1)?.startsWith('#')).toBe(false);
      return [budget, text.match(/decision number/g)?.length ?? 0, text.includes('decision number 11'), text.includes('src/ledger/')];
    });
    // Budget, decisions kept, the last decision kept, files kept: the files give way before any decision,
    // and only the largest budget leaves room for them.
    expect(kept).toEqual([
      [40, 2, false, false],
      [97, 6, false, false],
      [150, 10, false, false],
      [233, 12, true, true],
    ]);
    expect(renderPreservationContext(many, 150, 'o200k_base').text).not.toContain('### Working set');
  });

  it('should keep the line standing for dropped entries at the end, even when entries must give way', () => {
    const many = Array.from({ length: 30 }, (_, index) => seen('problem', `assertion ${index} failed in the refund suite`));
    const summary = '[25] older observations summarized: refund, ledger';
    const { text, tokens } = renderPreservationContext(many, 120, 'o200k_base', summary);
    expect(text.endsWith(`${DROPPED_HEADING}\n- ${summary}`)).toBe(true);
    expect(tokens).toBeLessThanOrEqual(120);
    expect(tokens).toBe(countTokens(text));
    // Too small for the summary: left out rather than over budget.
    expect(renderPreservationContext(many, 10, 'o200k_base', summary).text).not.toContain(DROPPED_HEADING);
  });

  it('should put files under a heading read as a working set, so their paths are not taken for prose', () => {
    const { text } = renderPreservationContext([seen('decision', 'ledger rows are append-only'), seen('file', 'src/refund-rounding.ts')], 500, 'o200k_base');
    const prose = contextWithoutFiles(text);
    expect(prose).toContain('append-only');
    expect(prose).not.toContain('refund-rounding');
  });

  it('should return nothing for no observations or no budget', () => {
    expect(renderPreservationContext([], 500, 'o200k_base')).toEqual({ text: '', tokens: 0 });
    expect(renderPreservationContext(MIXED, 0, 'o200k_base')).toEqual({ text: '', tokens: 0 });
  });
});

describe('renderObservationLine', () => {
  it('should cut an entry longer than its share and mark the cut', () => {
    const log = `Error: ${'connection refused at 10.0.0.12:5432 while running migrations; '.repeat(20)}`;
    const line = renderObservationLine(seen('problem', log));
    expect(line.startsWith('- Error: connection refused')).toBe(true);
    expect(line.endsWith('…')).toBe(true);
    expect(countTokens(line)).toBeLessThanOrEqual(MAX_SHORT_ENTRY_TOKENS + 2);
    // A decision keeps the longer share: it is the context's most valuable entry.
    const decision = renderObservationLine(seen('decision', log));
    expect(countTokens(decision)).toBeGreaterThan(MAX_SHORT_ENTRY_TOKENS + 2);
    expect(countTokens(decision)).toBeLessThanOrEqual(MAX_ENTRY_TOKENS + 2);
    expect(renderObservationLine(seen('problem', 'short one'))).toBe('- short one');
  });
});

describe('entryKey', () => {
  it('should ignore case, spacing, width and trailing punctuation', () => {
    expect(entryKey('  Use  ＰＮＰＭ workspaces. ')).toBe(entryKey('use pnpm workspaces'));
    expect(entryKey('use pnpm')).not.toBe(entryKey('use npm'));
  });
});

describe('contextOverheadTokens', () => {
  it('should count the headings of the groups present, and the dropped-to-fit heading on request', () => {
    const two = [seen('decision', 'a'), seen('file', 'b')];
    const plain = contextOverheadTokens(two, false, 'o200k_base');
    expect(plain).toBe(countTokens(`${PRESERVATION_HEADING}\n### Decisions\n### Working set`));
    expect(contextOverheadTokens(two, true, 'o200k_base')).toBeGreaterThan(plain);
  });
});
