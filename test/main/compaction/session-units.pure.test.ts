import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fixtureArgv } from '../../../support/fixture-process.js';
import { describe, expect, it } from 'vitest';
import { messagesOf, messageToUnit, readableMessage, TOOL_OUTPUT_HEAD_CHARS, TOOL_OUTPUT_TAIL_CHARS } from '../../../src/main/compaction/session-units.js';
import { isSummaryMessage, messageWeight } from '../../../src/main/compaction/conversation-window.js';
import { generateSession } from '../../../src/synth/session-generator.js';

const sample: unknown = JSON.parse(readFileSync(new URL('../../fixtures/export-sample.json', import.meta.url), 'utf8'));

describe('messagesOf', () => {
  it('should accept an export and a bare message list, nothing else', () => {
    const messages = messagesOf(sample);
    expect(messages?.length).toBeGreaterThan(5);
    expect(messagesOf(messages)).toBe(messages);
    expect(messagesOf({ info: {} })).toBeNull();
    expect(messagesOf('text')).toBeNull();
    expect(messagesOf(null)).toBeNull();
  });
});

describe('messageToUnit', () => {
  it('should join text parts and keep tool calls from a real export', () => {
    const messages = messagesOf(sample) ?? [];
    const units = messages.map((message, order) => messageToUnit(message, order));
    expect(units[0]).toMatchObject({ order: 0, role: 'user', text: 'please USETOOL to read README.md', tools: [] });
    const withTool = units.find((unit) => (unit?.tools.length ?? 0) > 0);
    expect(withTool?.tools[0]).toMatchObject({ tool: 'read', input: { filePath: 'README.md' }, failed: false });
    expect(withTool?.tools[0]?.output).toContain('hello');
  });

  it('should skip synthetic and ignored text parts', () => {
    const unit = messageToUnit({ info: { id: 'm', role: 'user' }, parts: [
      { type: 'text', text: 'real' },
      { type: 'text', text: 'injected', synthetic: true },
      { type: 'text', text: 'hidden', ignored: true },
    ] }, 0);
    expect(unit?.text).toBe('real');
  });

  it('should bound tool output to its head and tail', () => {
    const output = `${'h'.repeat(TOOL_OUTPUT_HEAD_CHARS)}${'m'.repeat(1_000_000)}${'t'.repeat(TOOL_OUTPUT_TAIL_CHARS)}`;
    const unit = messageToUnit({ info: { id: 'm', role: 'assistant' }, parts: [{ type: 'tool', tool: 'bash', state: { status: 'completed', input: {}, output } }] }, 0);
    const bounded = unit?.tools[0]?.output ?? '';
    expect(bounded.length).toBeLessThan(TOOL_OUTPUT_HEAD_CHARS + TOOL_OUTPUT_TAIL_CHARS + 10);
    expect(bounded.startsWith('h')).toBe(true);
    expect(bounded.endsWith('t')).toBe(true);
    expect(bounded).not.toContain('m');
  });

  it('should report an errored tool call with its error text', () => {
    const unit = messageToUnit({ info: { id: 'm', role: 'assistant' }, parts: [{ type: 'tool', tool: 'edit', state: { status: 'error', input: { filePath: 'a.ts' }, error: 'not found' } }] }, 3);
    expect(unit?.tools[0]).toEqual({ tool: 'edit', input: { filePath: 'a.ts' }, output: 'not found', failed: true });
  });

  it('should mark an assistant message with nothing in it as silent, and only that', () => {
    const silent = messageToUnit({ info: { id: 'a1', role: 'assistant' }, parts: [{ type: 'step-start' }, { type: 'step-finish' }] }, 4);
    expect(silent?.silent).toBe(true);
    const thought = messageToUnit({ info: { id: 'a2', role: 'assistant' }, parts: [{ type: 'reasoning', text: 'check the schema first' }] }, 5);
    expect(thought?.silent).toBeUndefined();
    expect(messageToUnit({ info: { id: 'u1', role: 'user' }, parts: [] }, 6)?.silent).toBeUndefined();
    expect(silent?.key).not.toBe(messageToUnit({ info: { id: 'a1', role: 'assistant' }, parts: [{ type: 'reasoning', text: 'x' }] }, 4)?.key);
  });

  it('should tolerate malformed entries without throwing', () => {
    expect(messageToUnit(null, 0)).toBeNull();
    expect(messageToUnit('x', 0)).toBeNull();
    const odd = messageToUnit({ info: null, parts: [null, 1, { type: 'text', text: null }, { type: 'tool', tool: 5 }, { type: 'tool', tool: 'read', state: 'x' }] }, 2);
    expect(odd).toEqual({ key: null, order: 2, role: 'unknown', text: '', tools: [], summary: false });
    expect(messageToUnit({ info: { id: 'a' }, parts: 'nope' }, 0)?.text).toBe('');
  });

  it('should change the cache key when a message is edited under the same id to the same length, and only then', () => {
    const bash = (output: string, status = 'completed'): Record<string, unknown> => ({ type: 'tool', tool: 'bash', state: { status, input: { command: 'npm test' }, output, error: output } });
    const entry = (text: string, ...tools: unknown[]): unknown => ({ info: { id: 'm1', role: 'assistant' }, parts: [{ type: 'text', text }, ...tools] });
    const keyOf = (message: unknown): string | null | undefined => messageToUnit(message, 0)?.key;
    const before = keyOf(entry('We decided to use Redis.', bash('Tests: 3 passed')));
    expect(keyOf(entry('We decided to use Redis.', bash('Tests: 3 passed')))).toBe(before);
    expect(keyOf(entry('We decided to use Kafka.', bash('Tests: 3 passed')))).not.toBe(before);
    expect(keyOf(entry('We decided to use Redis.', bash('Tests: 3 failed')))).not.toBe(before);
    expect(keyOf(entry('We decided to use Redis.', bash('Tests: 3 passed', 'error')))).not.toBe(before);
    expect(keyOf(entry('We decided to use Redis.', { ...bash('Tests: 3 passed'), tool: 'bask' }))).not.toBe(before);
    // Two parts join with a blank line: other text to a worker.
    expect(keyOf({ info: { id: 'm1', role: 'assistant' }, parts: [{ type: 'text', text: 'We decided' }, { type: 'text', text: ' to use Redis.' }, bash('Tests: 3 passed')] })).not.toBe(before);
    // The middle of a long output never crosses to a worker, so an edit there keeps the analysis.
    const long = `${'h'.repeat(TOOL_OUTPUT_HEAD_CHARS)}${'m'.repeat(10_000)}${'t'.repeat(TOOL_OUTPUT_TAIL_CHARS)}`;
    const middle = `${'h'.repeat(TOOL_OUTPUT_HEAD_CHARS)}${'m'.repeat(4_999)}M${'m'.repeat(5_000)}${'t'.repeat(TOOL_OUTPUT_TAIL_CHARS)}`;
    expect(keyOf(entry('Ran it.', bash(middle)))).toBe(keyOf(entry('Ran it.', bash(long))));
    expect(keyOf(entry('Ran it.', bash(`${long.slice(0, -1)}T`)))).not.toBe(keyOf(entry('Ran it.', bash(long))));
  });

  it('should change the cache key when a message grows under the same id', () => {
    const a = messageToUnit({ info: { id: 'm1' }, parts: [{ type: 'text', text: 'partial' }] }, 0);
    const b = messageToUnit({ info: { id: 'm1' }, parts: [{ type: 'text', text: 'partial answer' }] }, 0);
    expect(a?.key).not.toBe(b?.key);
    expect(a?.key?.startsWith('m1:')).toBe(true);
  });
});

describe('message bounds', () => {
  it('should keep the head and tail of a huge message and its latest tool calls', async () => {
    const { MESSAGE_TEXT_HEAD_CHARS, MESSAGE_TEXT_TAIL_CHARS, TOOL_CALLS_PER_MESSAGE } = await import('../../../src/main/compaction/session-units.js');
    const line = `${'word '.repeat(20)}\n`;
    const text = `## First\n${line.repeat(30_000)}## Last\nthe end`;
    const tools = Array.from({ length: 300 }, (_, index) => ({ type: 'tool', tool: 'read', state: { status: 'completed', input: { filePath: `f${index}.ts` }, output: 'x' } }));
    const unit = messageToUnit({ info: { id: 'big', role: 'assistant' }, parts: [{ type: 'text', text }, ...tools] }, 0);
    expect(unit?.text.length).toBeLessThanOrEqual(MESSAGE_TEXT_HEAD_CHARS + MESSAGE_TEXT_TAIL_CHARS + 3);
    expect(unit?.text.startsWith('## First\n')).toBe(true);
    expect(unit?.text.endsWith('## Last\nthe end')).toBe(true);
    expect(unit?.tools).toHaveLength(TOOL_CALLS_PER_MESSAGE);
    expect(unit?.tools.at(-1)?.input).toEqual({ filePath: 'f299.ts' });
    // The key still covers the whole text: an edit in the middle that no worker reads changes it.
    const middle = text.length / 2;
    const edited = `${text.slice(0, middle)}W${text.slice(middle + 1)}`;
    expect(messageToUnit({ info: { id: 'big', role: 'assistant' }, parts: [{ type: 'text', text: edited }, ...tools] }, 0)?.key).not.toBe(unit?.key);
  });
});

describe('readableMessage', () => {
  const tool = (name: string, state: Record<string, unknown>): Record<string, unknown> => ({ type: 'tool', tool: name, callID: `call_${name}`, state });
  const shapes: unknown[] = [
    { info: { id: 'm1', role: 'user', time: { created: 1 } }, parts: [{ type: 'text', text: 'Use the cache.' }, { type: 'text', text: 'note from a plugin', synthetic: true }, { type: 'file', url: 'file:///a.png' }] },
    { info: { id: 'm2', role: 'assistant', summary: true }, parts: [{ type: 'step-start' }, { type: 'reasoning', text: 'thinking about it' }, { type: 'text', text: '## Summary\nDone.' }] },
    { info: { id: 'm3', role: 'assistant' }, parts: [{ type: 'reasoning', text: '   ' }] },
    { info: { id: 'm4', role: 'assistant' }, parts: [
      tool('write', { status: 'completed', input: { filePath: '/w/src/a.ts', content: 'x'.repeat(50_000) }, output: 'Wrote file successfully.' }),
      tool('edit', { status: 'completed', input: { filePath: '/w/src/b.ts', oldString: 'a'.repeat(9_000), newString: 'b'.repeat(9_000) }, output: 'Edit applied successfully.' }),
      tool('multiedit', { status: 'completed', input: { filePath: '/w/src/c.ts', edits: [{ oldString: 'one', newString: 'two' }, 'not an edit'] }, output: 'ok' }),
      tool('bash', { status: 'completed', input: { command: `npm test ${'-v '.repeat(2_000)}`, workdir: '/w' }, output: `${'line\n'.repeat(5_000)}Tests: 3 failed` }),
      tool('bash', { status: 'error', input: { command: 'make' }, error: `make: *** [all] Error 2\n${'e'.repeat(20_000)}` }),
      tool('apply_patch', { status: 'completed', input: { patchText: `*** Begin Patch\n${'+x\n'.repeat(9_000)}` }, output: 'ok' }),
      tool('read', { status: 'running', input: { filePath: '/w/README.md' } }),
    ] },
    { info: { id: 'm5', role: 'assistant' }, parts: [] },
    { info: { role: 'user' }, parts: [{ type: 'text', text: 'no id' }] },
    { info: { id: 7, role: ['user'], summary: 'yes' }, parts: [{ type: 'text', text: 42, synthetic: 'no' }, { type: 'tool', tool: 3, state: { status: 1, output: () => 'x', error: Symbol('e') } }, { type: 'text', text: 'kept\ud800 with a lone surrogate' }] },
    { parts: 'not a list' },
    'not a message',
    null,
  ];

  it('should read as the message it stands for: the same unit, weight and summary flag, whatever the parts', () => {
    const generated = generateSession({ seed: 11, targetBytes: 256 * 1024 }).messages;
    for (const [order, message] of [...shapes, ...generated].entries()) {
      const kept = readableMessage(message);
      expect(messageToUnit(kept, order)).toEqual(messageToUnit(message, order));
      expect(messageWeight(kept)).toBe(messageWeight(message));
      expect(isSummaryMessage(kept)).toBe(isSummaryMessage(message));
      // Kept twice, it is the same again.
      expect(readableMessage(kept)).toEqual(kept);
    }
  });

  it('should leave the bodies of tool inputs and the middle of long output behind', () => {
    const kept = readableMessage(shapes[3]) as { parts: { state: { input: Record<string, unknown>; output?: string; error?: string } }[] };
    // The written file's content is not an argument extraction reads.
    expect(kept.parts[0]?.state.input).toEqual({ filePath: '/w/src/a.ts' });
    // 25 KB of test output and 20 KB of error keep their head and tail only.
    expect(kept.parts[3]?.state.output).toHaveLength(TOOL_OUTPUT_HEAD_CHARS + 3 + TOOL_OUTPUT_TAIL_CHARS);
    expect(kept.parts[3]?.state.output?.endsWith('Tests: 3 failed')).toBe(true);
    expect(kept.parts[4]?.state.error).toHaveLength(TOOL_OUTPUT_HEAD_CHARS + 3 + TOOL_OUTPUT_TAIL_CHARS);
    expect(JSON.stringify(kept).length).toBeLessThan(JSON.stringify(shapes[3]).length / 2);
  });

  it('should share no characters with the message it came from: kept heads and tails of 4 MB outputs do not keep the outputs alive', () => {
    const fixture = fileURLToPath(new URL('../../fixtures/compaction/kept-outputs.ts', import.meta.url));
    // Twenty outputs of about 4 MB: kept as cuts of them, they would hold 80 MB.
    const heldMb = Number(execFileSync(process.execPath, ['--expose-gc', ...fixtureArgv(fixture)], { encoding: 'utf8', timeout: 60_000 }).trim());
    expect(heldMb).toBeLessThan(16);
  });
});
