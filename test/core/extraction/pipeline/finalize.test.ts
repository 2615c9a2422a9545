import { describe, expect, it } from 'vitest';
import { finalizeExtraction, mergeSignals, sessionRoot } from '../../../../src/core/extraction/pipeline/finalize.js';
import { signalsFromToolCall } from '../../../../src/core/extraction/problems/tool-signals.js';
import type { FinalizeInput } from '../../../../src/workers/protocol.js';
import type { Observation } from '../../../../src/core/extraction/observations.js';
import { AGGRESSIVE_STRATEGY, CONSERVATIVE_STRATEGY } from '../../../../src/core/context/compaction-strategy.js';
import { DROPPED_HEADING } from '../../../../src/core/context/preservation-context.js';
import { countTokens } from '../../../../src/core/text/tokens/tokens.js';

const signal = (type: Observation['type'], text: string, order: number): Observation => ({ id: `${type}:${text.toLowerCase()}`, type, text, order, frequency: 1, topics: ['bash'] });

function input(overrides: Partial<FinalizeInput> = {}, budget = 500, strategy = CONSERVATIVE_STRATEGY): FinalizeInput {
  return {
    sections: [],
    sectionKind: 'empty',
    decisions: [],
    files: [],
    signals: [],
    notes: [],
    terms: [],
    latestOrder: 40,
    settings: { encoding: 'o200k_base', contextTokenBudget: budget, maxConcepts: 20, maxDecisions: 10, maxFiles: 20, strategy: { ...strategy } },
    ...overrides,
  };
}

describe('finalizeExtraction', () => {
  it('should keep one entry for a text that comes as a decision and as a note, under the decision', () => {
    const text = 'Moved the session store from cookies to Redis';
    const result = finalizeExtraction(
      input({
        decisions: [{ family: 'explicit', category: 'implementation', text, context: `We ${text}.` }],
        notes: [signal('decision', `${text}.`, 12), { ...signal('next', 'wire the Redis store into the login route', 39), id: 'next:step:wire the redis store into the login route' }],
        files: [{ path: 'src/session/store.ts', tool: 'edit', order: 30 }],
      }),
    );
    expect(result.observations.filter((observation) => observation.text.includes('session store'))).toHaveLength(1);
    expect(result.context.text).toContain(`### Decisions\n- ${text}\n`);
    expect(result.context.text).not.toContain('implementation:');
    expect(result.context.text).toContain('### In progress / next\n- wire the Redis store into the login route');
    expect(result.context.text).toContain('### Working set\n- src/session/store.ts');
  });

  it('should bring the aggressive strategy\'s summary of what it dropped into the context, within budget', () => {
    // Edits: problems are capped to the few worth keeping before any budget, edits are not.
    const signals = Array.from({ length: 40 }, (_, index) => signal('note', `src/hooks/handler-${index}.ts: parsePayload → parseWebhookPayload${index}`, index));
    const budget = 200;
    const aggressive = finalizeExtraction(input({ signals }, budget, AGGRESSIVE_STRATEGY));
    expect(aggressive.observationsRemoved).toBeGreaterThan(0);
    expect(aggressive.context.text).toContain(`${DROPPED_HEADING}\n- [${aggressive.observationsRemoved}] older observations summarized`);
    expect(aggressive.context.tokens).toBe(countTokens(aggressive.context.text));
    expect(aggressive.context.tokens).toBeLessThanOrEqual(budget);

    const conservative = finalizeExtraction(input({ signals }, budget, CONSERVATIVE_STRATEGY));
    expect(conservative.observationsRemoved).toBeGreaterThan(0);
    expect(conservative.context.text).not.toContain(DROPPED_HEADING);
    expect(conservative.context.tokens).toBeLessThanOrEqual(budget);
  });
});


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
