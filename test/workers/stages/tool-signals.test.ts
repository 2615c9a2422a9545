import { describe, expect, it } from 'vitest';
import { classifySignalLine, signalsFromToolOutput } from '../../../src/workers/stages/tool-signals.js';

describe('classifySignalLine', () => {
  it('should recognize problems, warnings and successes', () => {
    expect(classifySignalLine("TypeError: Cannot read properties of undefined (reading 'x')")).toBe('problem');
    expect(classifySignalLine('error[E0382]: borrow of moved value')).toBe('problem');
    expect(classifySignalLine(' FAIL  test/a.test.ts > adds')).toBe('problem');
    expect(classifySignalLine('Traceback (most recent call last):')).toBe('problem');
    expect(classifySignalLine('warning: unused variable `x`')).toBe('warning');
    expect(classifySignalLine('npm warn deprecated glob@7')).toBe('warning');
    expect(classifySignalLine(' ✓ test/a.test.ts (3 tests)')).toBe('success');
    expect(classifySignalLine('Tests  12 passed (12)')).toBe('success');
  });

  it('should leave ordinary lines alone', () => {
    expect(classifySignalLine('const errorCount = 0;')).toBeNull();
    expect(classifySignalLine('src/index.ts')).toBeNull();
    expect(classifySignalLine('')).toBeNull();
  });
});

describe('signalsFromToolOutput', () => {
  it('should turn output lines into typed, deduplicated observations', () => {
    const output = 'running\nError: boom\nError: boom\nwarning: slow\n✓ done\n';
    const signals = signalsFromToolOutput('bash', output, false, 7);
    expect(signals.map((signal) => [signal.type, signal.text])).toEqual([
      ['problem', 'Error: boom'],
      ['warning', 'warning: slow'],
      ['success', '✓ done'],
    ]);
    expect(signals.every((signal) => signal.order === 7 && signal.topics?.[0] === 'bash')).toBe(true);
  });

  it('should report a failed call as a problem', () => {
    const [first] = signalsFromToolOutput('edit', 'oldString not found in content', true, 1);
    expect(first).toMatchObject({ type: 'problem', text: 'edit failed: oldString not found in content' });
  });

  it('should stay bounded on huge output', () => {
    const distinctErrors = Array.from({ length: 50_000 }, (_, index) => `Error: case ${index}`).join('\n');
    const signals = signalsFromToolOutput('bash', `${distinctErrors}\n${'E'.repeat(5_000_000)}\n`, false, 0);
    expect(signals.length).toBeLessThanOrEqual(8);
  });

  it('should never cut a character in half', () => {
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const signals = [
      ...signalsFromToolOutput('bash', `Error: ${'😀'.repeat(1_000)}\nFAIL x${'😀'.repeat(1_000)}`, false, 0),
      ...signalsFromToolOutput('bash', `xy${'😀'.repeat(1_000)}`, true, 0),
    ];
    expect(signals).toHaveLength(3);
    for (const signal of signals) expect(signal.text).not.toMatch(lone);
  });
});
