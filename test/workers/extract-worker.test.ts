import { describe, expect, it } from 'vitest';
import runTask, { TASKS } from '../../src/workers/extract-worker.js';

describe('runTask', () => {
  it('should run the task the request names with its input', () => {
    const result = runTask({ name: 'fitContext', input: { heading: '## Notes', entries: ['one entry'], entryBudget: 20, totalBudget: 40, encoding: 'o200k_base' } });
    expect(result.ok).toBe(true);
    expect(result.ok && (result.value as { text: string }).text).toContain('one entry');
  });

  it('should answer a request without a known task name with INVALID_INPUT, never a throw', () => {
    for (const request of [null, 'analyzeUnits', {}, { name: 'toString' }, { name: 'constructor' }, { name: 'noSuchTask', input: {} }]) {
      const result = runTask(request);
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    }
  });

  it('should reject a known task given the wrong input as data, naming the field', () => {
    const result = runTask({ name: 'analyzeUnits', input: { units: 'not a list', settings: {} } });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(!result.ok && result.error.message).toContain('units: expected Array');
    const escape = runTask({ name: 'indexMemoryFiles', input: { memoryDir: '/m', uris: ['memory://notes/../../etc/passwd'] } });
    expect(!escape.ok && escape.error.message).toContain('uris.0');
  });

  it('should clean a summary for another session: controls out, secrets redacted, capped, and refuse a cap below one', () => {
    const result = runTask({ name: 'cleanSummary', input: { summary: 'Token\u0000 ghp_abcdefghijklmnopqrstuvwxyz0123456789 used. And more text.', maxChars: 40 } });
    expect(result.ok).toBe(true);
    const text = result.ok ? (result.value as string) : '';
    expect(text).not.toContain('\u0000');
    expect(text).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(text).toContain('[REDACTED:');
    expect(text.length).toBeLessThanOrEqual(40);
    expect(runTask({ name: 'cleanSummary', input: { summary: 'x', maxChars: 0 } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it("should read a summary's lists as the model's items, and refuse a summary that is no text", () => {
    const note = { uri: 'memory://sessions/compaction/shop/compaction-shop-1', content: '**Session**: ses_a\n## In Progress\n- fix login\n' };
    const result = runTask({ name: 'summaryLists', input: { summary: '## Goal\nShip it.\n## Next steps\n- wire the checkout page', note } });
    expect(result).toEqual({
      ok: true,
      value: { items: [{ kind: 'next', text: 'wire the checkout page', source: 'model' }], note: { uri: note.uri, session: 'ses_a', timestamp: '', items: [{ kind: 'next', text: 'fix login', source: 'heuristic' }] } },
    });
    expect(runTask({ name: 'summaryLists', input: { summary: 42, note: null } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});

describe('TASKS', () => {
  it('should hold every task of the protocol once', () => {
    expect(Object.keys(TASKS).sort()).toEqual([
      'analyzeUnits', 'cleanSummary', 'digestPass', 'finalizeExtraction', 'fitContext', 'indexMemoryFiles', 'loadMemoryIndex', 'projectMemory', 'scanMemoryFolder', 'searchMemoryIndex', 'summaryLists', 'summaryThought', 'warmUp',
    ]);
  });
});
