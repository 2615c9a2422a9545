import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toUnit, unitChars } from '../../../src/main/session/message-unit.js';
import { readMessage, type MessageView } from '../../../src/main/session/message-view.js';
import { messagesOf } from '../../../src/main/session/session-export.js';
import { MESSAGE_TEXT_HEAD_CHARS, MESSAGE_TEXT_TAIL_CHARS, TOOL_CALLS_PER_MESSAGE, TOOL_OUTPUT_HEAD_CHARS, TOOL_OUTPUT_TAIL_CHARS } from '../../../src/main/session/message-bounds.js';

const sample: unknown = JSON.parse(readFileSync(new URL('../../fixtures/export-sample.json', import.meta.url), 'utf8'));

const view = (entry: unknown): MessageView => readMessage(entry) as MessageView;
const unitOf = (entry: unknown, order = 0) => toUnit(view(entry), order);

describe('toUnit', () => {
  it('should join text parts and keep tool calls from a real export', () => {
    const units = (messagesOf(sample) ?? []).map((message, order) => unitOf(message, order));
    expect(units[0]).toMatchObject({ order: 0, role: 'user', text: 'please USETOOL to read README.md', tools: [] });
    const withTool = units.find((unit) => unit.tools.length > 0);
    expect(withTool?.tools[0]).toMatchObject({ tool: 'read', input: { filePath: 'README.md' }, failed: false });
    expect(withTool?.tools[0]?.output).toContain('hello');
  });

  it('should skip synthetic and ignored text parts', () => {
    const unit = unitOf({ info: { id: 'm', role: 'user' }, parts: [
      { type: 'text', text: 'real' },
      { type: 'text', text: 'injected', synthetic: true },
      { type: 'text', text: 'hidden', ignored: true },
    ] });
    expect(unit.text).toBe('real');
  });

  it('should bound tool output to its head and tail', () => {
    const output = `${'h'.repeat(TOOL_OUTPUT_HEAD_CHARS)}${'m'.repeat(1_000_000)}${'t'.repeat(TOOL_OUTPUT_TAIL_CHARS)}`;
    const unit = unitOf({ info: { id: 'm', role: 'assistant' }, parts: [{ type: 'tool', tool: 'bash', state: { status: 'completed', input: {}, output } }] });
    const bounded = unit.tools[0]?.output ?? '';
    expect(bounded.length).toBeLessThan(TOOL_OUTPUT_HEAD_CHARS + TOOL_OUTPUT_TAIL_CHARS + 10);
    expect(bounded.startsWith('h')).toBe(true);
    expect(bounded.endsWith('t')).toBe(true);
    expect(bounded).not.toContain('m');
  });

  it('should report an errored tool call with its error text', () => {
    const unit = unitOf({ info: { id: 'm', role: 'assistant' }, parts: [{ type: 'tool', tool: 'edit', state: { status: 'error', input: { filePath: 'a.ts' }, error: 'not found' } }] }, 3);
    expect(unit.tools[0]).toEqual({ tool: 'edit', input: { filePath: 'a.ts' }, output: 'not found', failed: true });
  });

  it('should mark an assistant message with nothing in it as silent, and only that', () => {
    const silent = unitOf({ info: { id: 'a1', role: 'assistant' }, parts: [{ type: 'step-start' }, { type: 'step-finish' }] }, 4);
    expect(silent.silent).toBe(true);
    expect(unitOf({ info: { id: 'a2', role: 'assistant' }, parts: [{ type: 'reasoning', text: 'check the schema first' }] }, 5).silent).toBeUndefined();
    expect(unitOf({ info: { id: 'u1', role: 'user' }, parts: [] }, 6).silent).toBeUndefined();
    expect(silent.key).not.toBe(unitOf({ info: { id: 'a1', role: 'assistant' }, parts: [{ type: 'reasoning', text: 'x' }] }, 4).key);
  });

  it('should tolerate malformed entries without throwing', () => {
    const odd = unitOf({ info: null, parts: [null, 1, { type: 'text', text: null }, { type: 'tool', tool: 5 }, { type: 'tool', tool: 'read', state: 'x' }] }, 2);
    expect(odd).toEqual({ key: null, order: 2, role: 'unknown', text: '', tools: [], summary: false });
    expect(unitOf({ info: { id: 'a' }, parts: 'nope' }).text).toBe('');
  });

  it('should leave text and tools empty for a message whose analysis is known, and keep its key', () => {
    const message = view({ info: { id: 'm1', role: 'user' }, parts: [{ type: 'text', text: 'Use the cache.' }] });
    const asked: string[] = [];
    const unit = toUnit(message, 7, (key) => (asked.push(key), true));
    expect(asked).toEqual([message.key]);
    expect(unit).toEqual({ key: message.key, order: 7, role: 'user', text: '', tools: [], summary: false });
  });

  it('should keep the head and tail of a huge message and its latest tool calls', () => {
    const line = `${'word '.repeat(20)}\n`;
    const text = `## First\n${line.repeat(30_000)}## Last\nthe end`;
    const tools = Array.from({ length: 300 }, (_, index) => ({ type: 'tool', tool: 'read', state: { status: 'completed', input: { filePath: `f${index}.ts` }, output: 'x' } }));
    const unit = unitOf({ info: { id: 'big', role: 'assistant' }, parts: [{ type: 'text', text }, ...tools] });
    expect(unit.text.length).toBeLessThanOrEqual(MESSAGE_TEXT_HEAD_CHARS + MESSAGE_TEXT_TAIL_CHARS + 3);
    expect(unit.text.startsWith('## First\n')).toBe(true);
    expect(unit.text.endsWith('## Last\nthe end')).toBe(true);
    expect(unit.tools).toHaveLength(TOOL_CALLS_PER_MESSAGE);
    expect(unit.tools.at(-1)?.input).toEqual({ filePath: 'f299.ts' });
    // The key still covers the whole text: an edit in the middle that no worker reads changes it.
    const middle = text.length / 2;
    const edited = `${text.slice(0, middle)}W${text.slice(middle + 1)}`;
    expect(unitOf({ info: { id: 'big', role: 'assistant' }, parts: [{ type: 'text', text: edited }, ...tools] }).key).not.toBe(unit.key);
  });
});

describe('unitChars', () => {
  it('should count the text and the tool output that cross, which the view weighs the same when nothing is cut', () => {
    const message = view({ info: { id: 'm', role: 'assistant' }, parts: [{ type: 'text', text: 'Ran it.' }, { type: 'tool', tool: 'bash', state: { status: 'error', input: { command: 'make' }, error: 'Error 2' } }] });
    expect(unitChars(toUnit(message, 0))).toBe('Ran it.'.length + 'Error 2'.length);
    expect(unitChars(toUnit(message, 0))).toBe(message.weight);
  });
});
