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
    expect(storedMessages([kept, null, 'text', { role: 'user' }, { role: 'user', content: [null, { type: 'image' }] }, { role: 'wizard', content: 'x' }], 's')).toEqual([kept]);
  });
});
