import { describe, expect, it } from 'vitest';
import { storedMessages } from '../../../../src/main/host/v2/v2-messages.js';
import { readMessage } from '../../../../src/main/session/message-view.js';

describe('storedMessages', () => {
  it('should read model messages as the plugin reads stored ones: text, reasoning, and a tool call joined with its result', () => {
    const stored = storedMessages(
      [
        { role: 'system', content: 'You are a coding agent.' },
        { role: 'user', content: 'Fix the failing test in src/cart.ts' },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Look at the cart first.' },
            { type: 'text', text: 'Reading it.' },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'read', input: { filePath: 'src/cart.ts' } },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'read', output: { type: 'text', value: 'export const total = 1;' } }] },
      ],
      'ses_a',
    );
    expect(stored).toHaveLength(2);
    const views = stored.map((entry) => readMessage(entry));
    expect(views[0]).toMatchObject({ id: 'ses_a:1', role: 'user' });
    expect(views[0]?.text).toContain('Fix the failing test');
    expect(views[1]?.role).toBe('assistant');
    expect(views[1]?.tools[0]).toMatchObject({ tool: 'read', input: { filePath: 'src/cart.ts' }, output: 'export const total = 1;' });
  });

  it('should keep messages already in the stored shape and leave out what is malformed', () => {
    const kept = { info: { id: 'm1', role: 'assistant' }, parts: [{ type: 'text', text: 'ok' }] };
    expect(storedMessages([kept, null, 'text', { role: 'user' }, { role: 'user', content: 7 }, { role: 'wizard', content: 'x' }], 's')).toEqual([kept]);
  });

  it('should keep an empty reply as a reply, and a failed tool call as failed, as 1.x stores them', () => {
    const stored = storedMessages(
      [
        { role: 'assistant', content: [] },
        { role: 'assistant', content: [null, { type: 'tool-call', toolCallId: 'c1', toolName: 'edit', input: { filePath: 'src/a.ts' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'edit', output: { type: 'error-text', value: 'edit failed: oldString not found' } }] },
      ],
      's',
    );
    expect(stored).toHaveLength(2);
    expect(readMessage(stored[0])).toMatchObject({ role: 'assistant', text: '' });
    expect(readMessage(stored[1])?.tools[0]).toMatchObject({ tool: 'edit', status: 'error', error: 'edit failed: oldString not found', output: undefined });
  });
});
