import { describe, expect, it } from 'vitest';
import { MAX_ITEMS, MAX_ITEM_CHARS, MAX_PROSE_CHARS, proseItems } from '../../../../src/core/extraction/prose/prose-items.js';

const REPORT = [
  'Done. Here is a summary of what changed:',
  '',
  '## Changes',
  '',
  '### Backend',
  '- **`RateLimiter`**: switched from a fixed window to a token bucket',
  '- Removed the unused `legacyAuth` import',
  '',
  '| # | Change | Files |',
  '|---|--------|-------|',
  '| 1 | Retry budget moved into `QueueConfig` | `src/queue/config.ts` |',
  '',
  'Clean the build cache before the next run:',
  '```bash',
  'rm -rf .cache dist',
  '```',
  '',
  '### Run the tests',
  '```bash',
  'npm test -- queue',
  '```',
  '',
  'Want me to add a benchmark for the bucket next?',
].join('\n');

describe('proseItems', () => {
  it('should read list items, table rows and sentences under their headings and lead-ins', () => {
    const items = proseItems(REPORT);
    const bucket = items.find((item) => item.text.includes('token bucket'));
    expect(bucket).toMatchObject({ kind: 'bullet', section: 'changes / backend', lead: 'ratelimiter' });
    expect(bucket?.text).toBe('RateLimiter: switched from a fixed window to a token bucket');
    const row = items.find((item) => item.kind === 'row');
    expect(row).toMatchObject({ text: 'Retry budget moved into QueueConfig — src/queue/config.ts', lead: 'change | files' });
  });

  it("should keep a table's header as the lead of a row whose first cell is bold", () => {
    const items = proseItems(['| Change | Files |', '|---|---|', '| **Retry budget** | `src/queue/config.ts` |', '| **Timeouts per job** — no global default | `src/queue/worker.ts` |'].join('\n'));
    expect(items.map((item) => [item.text, item.lead])).toEqual([
      ['Retry budget: src/queue/config.ts', 'change | files'],
      ['Timeouts per job: no global default — src/queue/worker.ts', 'change | files'],
    ]);
  });

  it('should keep the bold line above a list as the lead of its bullets with bold labels, and a lone bullet its own label', () => {
    const items = proseItems(['**So the work is three steps:**', '', '1. **Audit** — every rule against the guideline pages', '2. **Fill the gaps** in the knowledge base', '', '- **Root cause:** the cache key ignored the locale'].join('\n'));
    expect(items.map((item) => [item.text, item.lead])).toEqual([
      ['Audit: every rule against the guideline pages', 'so the work is three steps'],
      ['Fill the gaps in the knowledge base', 'so the work is three steps'],
      ['Root cause: the cache key ignored the locale', 'so the work is three steps'],
    ]);
    expect(proseItems('- **Root cause:** the cache key ignored the locale')[0]?.lead).toBe('root cause');
  });

  it('should join a short code block to the item that announces it, and skip other code', () => {
    const items = proseItems(REPORT);
    expect(items.find((item) => item.text.startsWith('Clean the build cache'))?.text).toBe('Clean the build cache before the next run: rm -rf .cache dist');
    expect(items.find((item) => item.label)?.text).toBe('run the tests: npm test -- queue');
    expect(items.some((item) => item.text === 'rm -rf .cache dist')).toBe(false);
  });

  it('should mark the last three items as the closing', () => {
    const items = proseItems(REPORT);
    expect(items.filter((item) => item.closing).map((item) => item.index)).toEqual([items.length - 3, items.length - 2, items.length - 1]);
    expect(items.at(-1)?.text).toBe('Want me to add a benchmark for the bucket next?');
  });

  it('should give a list the plain line above it, or the colon-ended bullet it is nested under, as its lead-in', () => {
    const items = proseItems([
      'What I checked',
      '- Export path: src/export/csv.ts',
      '- Cause of the empty file:',
      '  - the writer is closed before the last flush',
      '  - the header row is written twice',
      '- Tests: 14 passed',
      '',
      'Then I reran the export.',
      '- one more thing',
    ].join('\n'));
    const at = (text: string) => items.find((item) => item.text.startsWith(text));
    expect(at('What I checked')).toMatchObject({ kind: 'sentence', leadsList: true });
    expect(at('Export path')?.listLead).toBe('what i checked');
    expect(at('Cause of the empty file')).toMatchObject({ leadsList: true, listLead: 'what i checked' });
    expect(at('the writer is closed')?.listLead).toBe('cause of the empty file');
    expect(at('Tests: 14 passed')?.listLead).toBe('what i checked');
    expect(at('one more thing')?.listLead).toBe('');
  });

  it('should stay bounded on a huge message and on one huge line', () => {
    const many = proseItems('- add one more thing to the list\n'.repeat(100_000));
    expect(many.length).toBe(MAX_ITEMS);
    const line = proseItems(`${'word '.repeat(1_000_000)}`);
    expect(line.every((item) => item.text.length <= MAX_ITEM_CHARS)).toBe(true);
  });

  it('should skip code fenced with CRLF line endings', () => {
    const items = proseItems('Clean the cache first.\r\n\r\n```\r\n- rm -rf build\r\n```\r\n\r\nThen run the tests.\r\n');
    expect(items.map((item) => item.text)).toEqual(['Clean the cache first.', 'Then run the tests.']);
  });

  it('should never leave half of a surrogate pair where a huge message is cut to its head and tail', () => {
    const head = (MAX_PROSE_CHARS * 3) / 4;
    const line = 'Ship it 😀 now.\n';
    // The head ends inside the first emoji and the tail starts inside the last one.
    const before = 'a'.repeat(head - 9 - 1) + '\n';
    const middle = 'b'.repeat(MAX_PROSE_CHARS) + '\n';
    const text = `${before}${line}${middle}${line}${'c'.repeat(MAX_PROSE_CHARS / 4 - line.length + 9)}`;
    expect(text.charCodeAt(head - 1)).toBe(0xd83d);
    expect(text.charCodeAt(text.length - MAX_PROSE_CHARS / 4)).toBe(0xde00);
    const loneHalf = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    expect(proseItems(text).filter((item) => loneHalf.test(item.text))).toEqual([]);
  });
});
