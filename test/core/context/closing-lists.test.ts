import { describe, expect, it } from 'vitest';
import { CLOSING_LISTS_REQUEST, CLOSING_LISTS_TOKENS } from '../../../src/core/context/closing-lists.js';
import { parseSummaryLists } from '../../../src/core/memory/summary-lists.js';
import { countTokens } from '../../../src/core/text/tokens/tokens.js';

describe('CLOSING_LISTS_REQUEST', () => {
  it('should take exactly the tokens the budget gives up for it', () => {
    expect(countTokens(CLOSING_LISTS_REQUEST, 'o200k_base')).toBe(CLOSING_LISTS_TOKENS);
  });

  it('should ask for lists the summary reader reads back, even with the hints copied into the headings', () => {
    const headings = CLOSING_LISTS_REQUEST.split('\n').filter((line) => line.startsWith('## ')).slice(1);
    const summary = headings.map((heading, index) => `${heading}\n- item number ${index}`).join('\n');
    const kinds = parseSummaryLists(summary).items.map((item) => item.kind);
    expect(kinds).toEqual(['decision', 'reversed', 'problem', 'met', 'next']);
  });
});
