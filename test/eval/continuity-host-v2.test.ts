import { describe, expect, it } from 'vitest';
import { storedMessages } from '../../src/main/host/v2/v2-messages.js';
import { COMPACTION_REQUEST_TEXT, createContinuityContextV2, modelMessages } from '../../src/eval/continuity-host-v2.js';
import type { V2Event } from '../../src/main/host/v2/opencode-v2.js';

const session = [
  { info: { id: 'msg_1', sessionID: 'ses_a', role: 'user' }, parts: [{ type: 'text', text: 'Persist the queue.' }] },
  {
    info: { id: 'msg_2', sessionID: 'ses_a', role: 'assistant' },
    parts: [
      { type: 'reasoning', text: 'SQLite ships with the binary.' },
      { type: 'tool', tool: 'bash', callID: 'call_1', state: { status: 'completed', input: { command: 'npm test' }, output: '3 passed' } },
      { type: 'tool', tool: 'read', callID: 'call_2', state: { status: 'error', input: { filePath: 'x.ts' }, error: 'ENOENT: x.ts' } },
      { type: 'text', text: 'Use SQLite.' },
      { type: 'text', text: 'not sent', ignored: true },
    ],
  },
  { info: { id: 'msg_3', sessionID: 'ses_a', role: 'user' }, parts: [{ type: 'compaction', auto: false }] },
];

describe('modelMessages', () => {
  it('should hand text, reasoning and each finished tool call over as model messages, a tool message answering the calls', () => {
    expect(modelMessages(session)).toEqual([
      { role: 'user', id: 'msg_1', content: 'Persist the queue.' },
      {
        role: 'assistant',
        id: 'msg_2',
        content: [
          { type: 'reasoning', text: 'SQLite ships with the binary.' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'bash', input: { command: 'npm test' } },
          { type: 'tool-call', toolCallId: 'call_2', toolName: 'read', input: { filePath: 'x.ts' } },
          { type: 'text', text: 'Use SQLite.' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_1', toolName: 'bash', output: { type: 'text', value: '3 passed' } },
          { type: 'tool-result', toolCallId: 'call_2', toolName: 'read', output: { type: 'error-text', value: 'ENOENT: x.ts' } },
        ],
      },
      { role: 'user', id: 'msg_3', content: COMPACTION_REQUEST_TEXT },
    ]);
  });

  it('should start the history at the latest compaction: its request, then its summary as a reply', () => {
    const summary = { info: { id: 'msg_4', sessionID: 'ses_a', role: 'assistant', summary: true }, parts: [{ type: 'text', text: '## Goal\nPersist the queue.' }] };
    const after = { info: { id: 'msg_5', sessionID: 'ses_a', role: 'user' }, parts: [{ type: 'text', text: 'Go on.' }] };
    expect(modelMessages([...session, summary, after])).toEqual([
      { role: 'user', id: 'msg_3', content: COMPACTION_REQUEST_TEXT },
      { role: 'assistant', id: 'msg_4', content: [{ type: 'text', text: '## Goal\nPersist the queue.' }] },
      { role: 'user', id: 'msg_5', content: 'Go on.' },
    ]);
  });

  it("should read back through the 2.x adapter as the session's messages, each call with its output", () => {
    const read = storedMessages(modelMessages(session), 'ses_a') as { info: { id: string; role: string }; parts: { type: string; tool?: string; state?: { output?: string } }[] }[];
    expect(read.map((message) => [message.info.id, message.info.role, message.parts.map((part) => part.tool ?? part.type)])).toEqual([
      ['msg_1', 'user', ['text']],
      ['msg_2', 'assistant', ['reasoning', 'bash', 'read', 'text']],
      ['msg_3', 'user', ['text']],
    ]);
    expect(read[1]?.parts[1]?.state?.output).toBe('3 passed');
  });
});

describe('createContinuityContextV2', () => {
  it('should collect the hooks, call them as 2.x does, and stop calling one once disposed', async () => {
    const host = createContinuityContextV2({ store: 'files' }, '/work/p');
    const seen: string[] = [];
    const context = await host.ctx.session?.hook('context', (event) => {
      seen.push(`${event.kind ?? 'none'}:${event.sessionID}`);
      event.system.push({ type: 'text', text: 'block' });
    });
    await host.ctx.session?.hook('compaction', (event) => {
      seen.push(`compaction:${event.messages.length}`);
      event.system.push({ type: 'text', text: 'preserve' });
    });
    expect(host.ctx).toMatchObject({ options: { store: 'files' }, app: { version: '2.0.24' }, location: { directory: '/work/p' } });
    expect(await host.context('ses_next', { id: 'm' })).toEqual(['block']);
    expect(await host.compaction('ses_a', session)).toEqual(['preserve']);
    await context?.dispose();
    expect(await host.context('ses_next', { id: 'm' })).toEqual([]);
    expect(seen).toEqual(['primary:ses_next', 'compaction:4']);
    expect(host.registered()).toMatchObject({ context: 0, compaction: 1 });
    await expect(host.ctx.session?.prompt({ sessionID: 'ses_a', prompt: { text: 'hi' } })).rejects.toThrow('prompts no session');
  });

  it('should send session.compaction.ended to a subscriber with the summary text, and end the stream when closed', async () => {
    const host = createContinuityContextV2({}, '/work/p');
    const events = host.ctx.event?.subscribe()[Symbol.asyncIterator]();
    const first = events?.next();
    host.compactionEnded('ses_a', '## Goal\nPersist the queue.');
    const second = events?.next();
    host.close();
    expect(await first).toEqual({ done: false, value: { type: 'session.compaction.ended', data: { sessionID: 'ses_a', text: '## Goal\nPersist the queue.', reason: 'manual' } } satisfies V2Event });
    expect(await second).toEqual({ done: true, value: undefined });
  });
});
