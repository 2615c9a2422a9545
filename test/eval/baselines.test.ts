import { describe, expect, it } from 'vitest';
import { lastTokens, seedBaseline, tailBaseline } from '../../src/eval/baselines.js';
import { countTokens } from '../../src/core/text/tokens/tokens.js';

const text = (id: string, role: string, body: string, tools: unknown[] = []): unknown => ({
  info: { id, role },
  parts: [{ type: 'text', text: body }, ...tools],
});

const session = {
  info: { id: 'ses_seedbase', directory: '/home/dev/shop' },
  messages: [
    text('m1', 'user', '## Goal\nThe [[checkout flow]] double-charges on retry.'),
    text('m2', 'assistant', '## Middle\nLooked at [[payment webhooks]] in passing.', [
      { type: 'tool', tool: 'read', state: { status: 'completed', input: { filePath: '/home/dev/shop/src/pay.ts' }, output: '...' } },
      { type: 'tool', tool: 'bash', state: { status: 'completed', input: { command: 'rm src/old.ts' }, output: '' } },
    ]),
    text('m3', 'assistant', '## Outcome\nWe decided to add an idempotency key to every charge request. Tests pass for [[idempotency]].'),
  ],
};

describe('seedBaseline', () => {
  it('should link only the first and last H2 sections, find the pattern decisions and read paths from tool inputs', () => {
    const seed = seedBaseline(session, '/home/dev/shop');
    expect(seed.concepts).toEqual(['checkout-flow', 'idempotency']);
    expect(seed.decisions.map((decision) => decision.text)).toContain('add an idempotency key to every charge request.');
    expect(seed.decisions[0]?.category).toBe('implementation');
    // Tool-input paths only: the bash command's file is not read.
    expect(seed.files).toEqual(['src/pay.ts']);
    expect(seed.context.text).toContain('**Key Decisions** (1):');
    expect(seed.context.tokens).toBe(countTokens(seed.context.text));
    expect(seed.context.tokens).toBeLessThanOrEqual(500);
  });

  it('should keep at most 20 working-set paths, sorted', () => {
    const tools = Array.from({ length: 30 }, (_, index) => ({
      type: 'tool',
      tool: 'edit',
      state: { status: 'completed', input: { filePath: `src/f${String(29 - index).padStart(2, '0')}.ts` }, output: 'ok' },
    }));
    const seed = seedBaseline({ messages: [text('m1', 'assistant', 'Edited many files.', tools)] }, null);
    expect(seed.files).toHaveLength(20);
    expect(seed.files[0]).toBe('src/f00.ts');
    expect(seed.files.at(-1)).toBe('src/f19.ts');
  });
});

describe('lastTokens', () => {
  it('should keep the longest suffix within the budget', () => {
    const long = Array.from({ length: 2_000 }, (_, index) => `word${index}`).join(' ');
    const tail = lastTokens(long, 500);
    expect(long.endsWith(tail)).toBe(true);
    expect(countTokens(tail)).toBeLessThanOrEqual(500);
    expect(countTokens(tail)).toBeGreaterThanOrEqual(495);
  });

  it('should keep a short text whole', () => {
    expect(lastTokens('short text', 500)).toBe('short text');
  });
});

describe('tailBaseline', () => {
  it('should keep only the end of the conversation text as its context', () => {
    const tail = tailBaseline(session);
    expect(tail.context.text.endsWith('Tests pass for [[idempotency]].')).toBe(true);
    expect(tail.decisions).toEqual([]);
    expect(tail.files).toEqual([]);
    expect(tail.context.budget).toBe(500);
  });
});
