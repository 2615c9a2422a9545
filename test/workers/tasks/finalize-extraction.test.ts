import { describe, expect, it } from 'vitest';
import { mergeSignals, sessionRoot } from '../../../src/workers/tasks/finalize-extraction.js';
import { signalsFromToolCall } from '../../../src/workers/stages/tool-signals.js';

describe('mergeSignals', () => {
  it('should merge repeats, settle problems a later clean run fixed, and make paths relative', () => {
    const run = (command: string, output: string, order: number) => signalsFromToolCall({ tool: 'bash', input: { command }, output, failed: false, order });
    const signals = [
      ...run('npx tsc --noEmit', "/w/app/src/a.ts(3,1): error TS2304: Cannot find name 'foo'.", 1),
      ...run('npx tsc --noEmit', "/w/app/src/a.ts(3,1): error TS2304: Cannot find name 'foo'.", 2),
      ...run('npm run lint', 'C:\\w\\app\\src\\b.ts:4:2: error: unexpected any', 3),
      ...run('npx tsc --noEmit', '', 4),
    ];
    const merged = mergeSignals(signals, '/w/app');
    expect(merged.map((signal) => [signal.type, signal.text, signal.frequency])).toEqual([
      ['warning', "resolved: TS2304: Cannot find name 'foo'. (src/a.ts:3)", 2],
      ['problem', 'unexpected any (C:/w/app/src/b.ts:4)', 1],
    ]);
  });
});

describe('sessionRoot', () => {
  it('should infer a root only when no path is already relative', () => {
    expect(sessionRoot([{ path: 'src/a.ts', tool: 'edit', order: 1, action: 'edit' }, { path: '/home/u/.config/x.json', tool: 'edit', order: 2, action: 'edit' }])).toBeNull();
    expect(sessionRoot([{ path: '/home/u/p/src/a.ts', tool: 'edit', order: 1, action: 'edit' }, { path: '/home/u/p/package.json', tool: 'read', order: 1 }])).toBe('/home/u/p');
    // A command's relative path (no cd) is not a sign the paths were already made relative.
    expect(sessionRoot([{ path: '/home/u/p/package.json', tool: 'edit', order: 1, action: 'edit' }, { path: 'package-lock.json', tool: 'bash', order: 2, action: 'delete' }])).toBe('/home/u/p');
  });
});
