import { describe, expect, it } from 'vitest';
import { todoDecisions } from '../../../../src/core/extraction/decisions/todo-decisions.js';
import { FILL_THRESHOLD } from '../../../../src/core/extraction/decisions/prose-decisions.js';

const call = (todos: Array<{ content: string; status: string }>, failed = false) => ({ tool: 'todowrite', input: { todos }, output: '', failed });

describe('todoDecisions', () => {
  it('should read the completed items that name a change, as fill-level todo decisions', () => {
    const decisions = todoDecisions(call([
      { content: 'Update queue.ts: worker concurrency from 8 to 2', status: 'completed' },
      { content: 'Inspect the current retry setup', status: 'completed' },
      { content: 'Replace the polling loop in useOrders with a subscription', status: 'in_progress' },
    ]), 10);
    expect(decisions.map((decision) => decision.text)).toEqual(['Update queue.ts: worker concurrency from 8 to 2']);
    expect(decisions[0]?.family).toBe('todo');
    expect(decisions[0]?.score).toBeLessThanOrEqual(FILL_THRESHOLD);
  });

  it('should read nothing from a failed call, another tool or a list with nothing completed', () => {
    expect(todoDecisions(call([{ content: 'Add a cache to fetchRates()', status: 'completed' }], true), 10)).toEqual([]);
    expect(todoDecisions({ ...call([{ content: 'Add a cache to fetchRates()', status: 'completed' }]), tool: 'bash' }, 10)).toEqual([]);
    expect(todoDecisions(call([{ content: 'Add a cache to fetchRates()', status: 'pending' }]), 10)).toEqual([]);
  });
});
