import { describe, expect, it } from 'vitest';
import { cuesFor } from '../../../src/workers/stages/cues.js';
import { proseItems } from '../../../src/workers/stages/prose-items.js';
import { DECISION_THRESHOLD, decisionScore, isReport, proseDecisions, seedDecisionScore } from '../../../src/workers/stages/prose-decisions.js';

const PLAIN = { summary: false, report: false, edits: false };

function decisionsOf(text: string, language = 'eng', source = PLAIN) {
  const items = proseItems(text);
  const cues = cuesFor(language);
  return proseDecisions(items, cues, { ...source, report: source.report || isReport(items, cues) }, 10);
}

describe('proseDecisions', () => {
  it('should take changes with their object from a report, and leave cleanups and questions out', () => {
    const text = [
      'All done. Summary of the fix:',
      '',
      '- Replaced the polling loop in `useOrders` with a WebSocket subscription',
      '- `ORDER_TTL` now reads from `config.ts` instead of a hardcoded constant',
      '- Removed an unused import in `orders.tsx`',
      '',
      'Should I also add a reconnect backoff?',
    ].join('\n');
    const texts = decisionsOf(text).map((decision) => decision.text);
    expect(texts).toEqual([
      'Replaced the polling loop in useOrders with a WebSocket subscription',
      'ORDER_TTL now reads from config.ts instead of a hardcoded constant',
    ]);
  });

  it('should not take a keyword alone, nor a hedge', () => {
    expect(decisionsOf('The architecture of this module is quite old and the approach is unclear to me.')).toEqual([]);
    expect(decisionsOf('## Summary\n- We could maybe switch to Redis instead of the in-memory map if you want.')).toEqual([]);
  });

  it('should read Spanish, German and Chinese reports', () => {
    expect(decisionsOf('## Cambios\n- Cambié `next` de 16.2.4 a 15.2.4 en `package.json`', 'spa')).toHaveLength(1);
    expect(decisionsOf('## Zusammenfassung\n- Den Parser in `parse.ts` durch `markdown-it` ersetzt', 'deu')).toHaveLength(1);
    expect(decisionsOf('## 总结\n- 把 `fetchUser()` 改为使用缓存', 'cmn')).toHaveLength(1);
  });

  it('should weigh a prior compaction summary higher, and keep its key decisions even without a verb', () => {
    const summary = '## Key Decisions\n- Pydantic models for every schema, one package with `cli` and `mcp` extras';
    const [decision] = decisionsOf(summary, 'eng', { summary: true, report: false, edits: false });
    expect(decision).toMatchObject({ family: 'carried', category: 'architecture' });
    expect(decision?.score).toBeGreaterThan(DECISION_THRESHOLD + 1);
  });

  it('should cut the text at a word and keep the item whole in the context', () => {
    const long = `## Changes\n- Replaced the \`SessionStore\` ${'with a much longer explanation of the reasons '.repeat(6)}end`;
    const [decision] = decisionsOf(long);
    expect(decision?.text.length).toBeLessThanOrEqual(120);
    expect(decision?.text.endsWith('…')).toBe(true);
    expect(decision?.context.startsWith('changes: Replaced the SessionStore')).toBe(true);
  });
});

describe('decisionScore', () => {
  it('should score an item that only announces what follows as nothing, unless a tool call follows it', () => {
    const [item] = proseItems('Now I wrap the `AudioPage` constructor in try/except:');
    expect(item).toBeDefined();
    if (!item) return;
    expect(decisionScore(item, cuesFor('eng'), { ...PLAIN, edits: true })).toBe(0);
    expect(decisionScore(item, cuesFor('eng'), { ...PLAIN, edits: true }, true)).toBeGreaterThan(0);
  });
});

describe('seedDecisionScore', () => {
  const decision = { family: 'rationale' as const, category: 'rationale' as const, text: 'it is faster', context: 'because it is faster' };
  it('should rank the seed families, raise a [[link]] and drop pasted templates', () => {
    expect(seedDecisionScore(decision, 'assistant', false)).toBeLessThan(DECISION_THRESHOLD);
    expect(seedDecisionScore({ ...decision, family: 'explicit' }, 'assistant', false)).toBeGreaterThanOrEqual(DECISION_THRESHOLD);
    expect(seedDecisionScore({ ...decision, text: 'use [[sqlite]] for the index' }, 'assistant', false)).toBeGreaterThanOrEqual(DECISION_THRESHOLD);
    expect(seedDecisionScore({ ...decision, family: 'explicit' }, 'user', true)).toBe(0);
  });
});
