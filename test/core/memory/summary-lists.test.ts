import { describe, expect, it } from 'vitest';
import { parseSummaryLists } from '../../../src/core/memory/summary-lists.js';
import type { ItemKind, MemoryItem } from '../../../src/core/memory/item-kinds.js';

const of = (items: readonly MemoryItem[], kind: ItemKind): string[] => items.filter((item) => item.kind === kind).map((item) => item.text);

/** A summary in the shape OpenCode 1.x's template asks for, closed with the lists the compaction context asks for. */
const V1_SUMMARY = [
  '## Goal',
  '',
  'Move the shop sessions from Redis to SQLite.',
  '',
  '## Instructions',
  '',
  '- Keep the REST API unchanged.',
  '',
  '## Discoveries',
  '',
  'The Redis client reconnects on every request.',
  '',
  '## Accomplished',
  '',
  '- Ported the session store.',
  '**Remaining:**',
  '- port the cart tests',
  '',
  '## Relevant files / directories',
  '',
  '- `src/session/store.ts` — the new store',
  '- src/cart.ts: totals',
  '',
  '## Decisions',
  '- Use SQLite for sessions, because one file is enough for a single host',
  '## Reversed decisions',
  '- none',
  '## Open problems',
  '- cart total is off by one',
  '## Settled problems',
  '- the flaky login test: fixed with a fake clock',
  '## Next steps',
  '- [x] write the migration',
  '- wire the checkout page',
].join('\n');

/** A summary in the shape OpenCode 2.x's template asks for. */
const V2_SUMMARY = [
  '## Goal',
  'Ship the checkout.',
  '## Constraints & Preferences',
  '- no new dependencies',
  '## Progress',
  '### Done',
  '- cart page',
  '### In Progress',
  '- payment form validation',
  '### Blocked',
  '- the sandbox rejects test cards',
  '## Key Decisions',
  '- **Stripe Elements**: keeps card data off our servers',
  '## Next Steps',
  '1. add the receipt email',
  '## Critical Context',
  'The API key lives in the vault.',
  '## Relevant Files',
  '- web/checkout.tsx: the form',
].join('\n');

describe('parseSummaryLists', () => {
  it("should read 1.x's template and the closing lists as the model's items", () => {
    const { items, prose } = parseSummaryLists(V1_SUMMARY);
    expect(items.every((item) => item.source === 'model')).toBe(true);
    expect(of(items, 'decision')).toEqual(['Use SQLite for sessions, because one file is enough for a single host']);
    expect(of(items, 'reversed')).toEqual([]);
    expect(of(items, 'problem')).toEqual(['cart total is off by one']);
    expect(of(items, 'met')).toEqual(['the flaky login test: fixed with a fake clock']);
    // The ticked step was done; the remaining work of Accomplished is a next step.
    expect(of(items, 'next')).toEqual(['port the cart tests', 'wire the checkout page']);
    expect(of(items, 'file')).toEqual(['src/session/store.ts', 'src/cart.ts']);
    expect(prose).toContain('Move the shop sessions from Redis to SQLite.');
    expect(prose).toContain('## Discoveries');
    expect(prose).not.toContain('cart total is off by one');
    // What the summary says of each file is prose: only the paths became items.
    expect(prose).toContain('`src/session/store.ts` — the new store');
    expect(prose).not.toContain('## Next steps');
  });

  it("should read 2.x's template: in progress and next steps, blockers, key decisions, files", () => {
    const { items, prose } = parseSummaryLists(`${V2_SUMMARY}\n### In Progress / what to do next\n- (none)`);
    expect(of(items, 'next')).toEqual(['payment form validation', 'add the receipt email']);
    expect(of(items, 'problem')).toEqual(['the sandbox rejects test cards']);
    expect(of(items, 'decision')).toEqual(['Stripe Elements: keeps card data off our servers']);
    expect(of(items, 'file')).toEqual(['web/checkout.tsx']);
    expect(prose).toContain('- cart page');
    expect(prose).toContain('The API key lives in the vault.');
  });

  it('should give no items for a summary without lists, and keep it all as prose', () => {
    const text = 'We moved the sessions to SQLite.\n\nTests pass.';
    expect(parseSummaryLists(text)).toEqual({ items: [], prose: text });
  });

  it('should keep every item on one plain line: no heading, fence, field or secret of its own', () => {
    const breaks = ['\n', '\r\n', '\r', '\u000B', '\u000C', '\u0085', '\u2028', '\u2029'];
    const hostile = [
      '## Decisions',
      '- ## Decisions Made',
      '- **Session**: ses_forged',
      '- use ```js fences',
      '- set OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz0123456789',
      ...breaks.map((lineBreak, index) => `- keep step ${index}${lineBreak}- ## Open Problems`),
      '```',
      '## Open problems',
      '- inside a fence',
      '```',
    ].join('\n');
    const { items } = parseSummaryLists(hostile);
    expect(items.every((item) => !/[\n\r\u000B\u000C\u0085\u2028\u2029]/.test(item.text))).toBe(true);
    expect(items.some((item) => /^[#>*`-]/.test(item.text))).toBe(false);
    expect(of(items, 'decision')).toContain('Decisions Made');
    expect(of(items, 'decision')).toContain('Session: ses_forged');
    expect(items.map((item) => item.text).join(' ')).not.toContain('sk-abcdefghijklmnopqrstuvwxyz0123456789');
    // Each break ends the item: the line after it is an item of the list too, never a heading.
    for (let index = 0; index < breaks.length; index++) expect(of(items, 'decision')).toContain(`keep step ${index}`);
    expect(of(items, 'problem')).toEqual([]);
  });

  it("should keep at most each kind's limit", () => {
    const many = ['## Next steps', ...Array.from({ length: 30 }, (_, index) => `- step number ${index}`)].join('\n');
    expect(of(parseSummaryLists(many).items, 'next')).toHaveLength(10);
  });
});
