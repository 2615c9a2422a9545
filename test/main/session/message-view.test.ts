import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixtureArgv } from '../../../support/fixture-process.js';
import { keptCopies, MESSAGE_METADATA_CHARS, readMessage, type MessageView } from '../../../src/main/session/message-view.js';
import { toUnit } from '../../../src/main/session/message-unit.js';
import { REASONING_TAIL_CHARS, TOOL_OUTPUT_HEAD_CHARS, TOOL_OUTPUT_TAIL_CHARS } from '../../../src/main/session/message-bounds.js';
import { generateSession } from '../../../src/synth/session-generator.js';

const view = (entry: unknown): MessageView => readMessage(entry) as MessageView;

describe('readMessage', () => {
  it('should read id, role, summary flag and model, and nothing of an entry that is not a message', () => {
    const read = view({ info: { id: 'm1', role: 'assistant', summary: true, providerID: 'p', modelID: 'x' }, parts: [] });
    expect({ id: read.id, role: read.role, summary: read.summary, model: read.model }).toEqual({ id: 'm1', role: 'assistant', summary: true, model: { providerID: 'p', modelID: 'x' } });
    expect(view({ info: { role: 'user', model: { providerID: 'p', modelID: 'u' } } }).model).toEqual({ providerID: 'p', modelID: 'u' });
    expect(view({ info: { id: 7, role: ['user'] }, parts: 'nope' })).toMatchObject({ id: null, role: 'unknown', summary: false, model: null, texts: [], tools: [] });
    expect(readMessage(null)).toBeNull();
    expect(readMessage('x')).toBeNull();
    expect(readMessage([])).toBeNull();
    expect(readMessage(read)).toBe(read);
  });

  it("should take only an assistant's `summary: true` for a compaction summary", () => {
    // A user message's `summary` is another thing; one set to `true` by a plugin is not a summary either.
    expect(view({ info: { id: 'u', role: 'user', summary: true }, parts: [] }).summary).toBe(false);
    expect(view({ info: { id: 'u', role: 'user', summary: { diffs: [] } }, parts: [] }).summary).toBe(false);
    expect(view({ info: { id: 'a', role: 'assistant', summary: 'yes' }, parts: [] }).summary).toBe(false);
  });

  it('should weigh the text and tool output extraction reads: not synthetic or ignored text, output as bounded, the error of a failed call', () => {
    const huge = 'y'.repeat(1_000_000);
    const message = view({
      info: { id: 'm1', role: 'assistant' },
      parts: [
        { type: 'text', text: 'abc' },
        { type: 'text', text: 'injected file', synthetic: true },
        { type: 'text', text: 'hidden', ignored: true },
        { type: 'reasoning', text: 'long thoughts' },
        { type: 'tool', tool: 'bash', state: { status: 'completed', input: { command: 'make' }, output: huge } },
        { type: 'tool', tool: 'read', state: { status: 'error', output: 'ignored output', error: 'no such file' } },
        { type: 'step-start' },
        null,
      ],
    });
    expect(message.weight).toBe(3 + TOOL_OUTPUT_HEAD_CHARS + 3 + TOOL_OUTPUT_TAIL_CHARS + 'no such file'.length);
    // The same measure as what crosses: the unit's text and output.
    const unit = toUnit(message, 0);
    expect(message.weight).toBe(unit.text.length + unit.tools.reduce((sum, tool) => sum + tool.output.length, 0));
    expect(view({ parts: 'text' }).weight).toBe(0);
  });

  it('should size what the host sends of it: every string its parts hold and one figure of metadata', () => {
    const message = view({
      info: { id: 'm1', role: 'assistant', tokens: { input: 1 } },
      parts: [
        { type: 'text', text: 'abc', synthetic: true },
        { type: 'reasoning', text: 'hmm' },
        { type: 'tool', tool: 'edit', state: { status: 'completed', input: { filePath: 'a.ts', newString: 'xy', depth: 3 }, output: 'ok', error: 'e' } },
      ],
    });
    expect(message.size).toBe(MESSAGE_METADATA_CHARS + 3 + 3 + 'a.ts'.length + 2 + 2 + 1);
    expect(view({ info: { id: 'bare' } }).size).toBe(MESSAGE_METADATA_CHARS);
  });

  it('should be immutable', () => {
    const message = view({ info: { id: 'm1', role: 'user' }, parts: [{ type: 'text', text: 'hi' }] });
    expect(Object.isFrozen(message)).toBe(true);
    expect(Object.isFrozen(message.texts)).toBe(true);
    expect(() => ((message as { weight: number }).weight = 5)).toThrow(TypeError);
  });
});

describe('MessageView.key', () => {
  const bash = (output: string, status = 'completed'): Record<string, unknown> => ({ type: 'tool', tool: 'bash', state: { status, input: { command: 'npm test' }, output, error: output } });
  const entry = (text: string, ...tools: unknown[]): unknown => ({ info: { id: 'm1', role: 'assistant' }, parts: [{ type: 'text', text }, ...tools] });
  const keyOf = (message: unknown): string | null => view(message).key;

  it('should change when a message is edited under the same id to the same length, and only then', () => {
    const before = keyOf(entry('We decided to use Redis.', bash('Tests: 3 passed')));
    expect(keyOf(entry('We decided to use Redis.', bash('Tests: 3 passed')))).toBe(before);
    expect(keyOf(entry('We decided to use Kafka.', bash('Tests: 3 passed')))).not.toBe(before);
    expect(keyOf(entry('We decided to use Redis.', bash('Tests: 3 failed')))).not.toBe(before);
    expect(keyOf(entry('We decided to use Redis.', bash('Tests: 3 passed', 'error')))).not.toBe(before);
    expect(keyOf(entry('We decided to use Redis.', { ...bash('Tests: 3 passed'), tool: 'bask' }))).not.toBe(before);
    // Two parts join with a blank line: other text to a worker.
    expect(keyOf({ info: { id: 'm1', role: 'assistant' }, parts: [{ type: 'text', text: 'We decided' }, { type: 'text', text: ' to use Redis.' }, bash('Tests: 3 passed')] })).not.toBe(before);
    // Text no worker reads does not change it.
    expect(keyOf({ info: { id: 'm1', role: 'assistant' }, parts: [{ type: 'text', text: 'We decided to use Redis.' }, { type: 'text', text: 'note', synthetic: true }, bash('Tests: 3 passed')] })).toBe(before);
    // The middle of a long output never crosses to a worker, so an edit there keeps the analysis.
    const long = `${'h'.repeat(TOOL_OUTPUT_HEAD_CHARS)}${'m'.repeat(10_000)}${'t'.repeat(TOOL_OUTPUT_TAIL_CHARS)}`;
    const middle = `${'h'.repeat(TOOL_OUTPUT_HEAD_CHARS)}${'m'.repeat(4_999)}M${'m'.repeat(5_000)}${'t'.repeat(TOOL_OUTPUT_TAIL_CHARS)}`;
    expect(keyOf(entry('Ran it.', bash(middle)))).toBe(keyOf(entry('Ran it.', bash(long))));
    expect(keyOf(entry('Ran it.', bash(`${long.slice(0, -1)}T`)))).not.toBe(keyOf(entry('Ran it.', bash(long))));
  });

  it("should read the end of a message's reasoning only when the message edits or writes files, and key and weigh it", () => {
    const thinking = (text: string): Record<string, unknown> => ({ type: 'reasoning', text });
    const edit = { type: 'tool', tool: 'edit', state: { status: 'completed', input: { filePath: 'src/a.ts', oldString: 'a', newString: 'b' }, output: 'Edit applied successfully.' } };
    const editing = (text: string): unknown => ({ info: { id: 'm1', role: 'assistant' }, parts: [thinking(text), { type: 'text', text: 'Now the service:' }, edit] });
    const settled = view(editing("For a.ts, I'll make the retry budget per queue."));
    expect(settled.reasoning).toBe("For a.ts, I'll make the retry budget per queue.");
    expect(toUnit(settled, 3).reasoning).toBe(settled.reasoning);
    expect(settled.weight).toBe('Now the service:'.length + 'Edit applied successfully.'.length + settled.reasoning.length);
    expect(keyOf(editing('For a.ts, I will keep one budget.'))).not.toBe(settled.key);
    // Only its end crosses, from a line start: what the model settled right before the edit.
    const long = view(editing(`${'Weighing the options here. '.repeat(400)}\nFor a.ts, I'll make the retry budget per queue.`));
    expect(long.reasoning.length).toBeLessThanOrEqual(REASONING_TAIL_CHARS);
    expect(long.reasoning.endsWith("For a.ts, I'll make the retry budget per queue.")).toBe(true);
    expect(view(editing('x')).reasoning).toBe('x');
    // Several parts join with a blank line; a huge earlier one is not copied whole.
    const parts = { info: { id: 'm3', role: 'assistant' }, parts: [thinking('w'.repeat(1_000_000)), thinking('Weighing it.\nFor a.ts, keep one budget.'), edit] };
    expect(view(parts).reasoning.length).toBeLessThanOrEqual(REASONING_TAIL_CHARS);
    expect(view(parts).reasoning.endsWith('\n\nWeighing it.\nFor a.ts, keep one budget.')).toBe(true);
    // Reasoning that changes nothing is not read; whether the message reasoned still is.
    const looking = view({ info: { id: 'm2', role: 'assistant' }, parts: [thinking("I'll read a.ts first."), bash('ok')] });
    expect(looking.reasoning).toBe('');
    expect(looking.reasoned).toBe(true);
    expect('reasoning' in toUnit(looking, 4)).toBe(false);
    // A kept copy keeps it.
    expect(settled.readable().reasoning).toBe(settled.reasoning);
    expect(toUnit(settled.readable(), 3)).toEqual(toUnit(settled, 3));
  });

  it('should change when a message grows under the same id, and be null without an id', () => {
    const a = keyOf({ info: { id: 'm1' }, parts: [{ type: 'text', text: 'partial' }] });
    const b = keyOf({ info: { id: 'm1' }, parts: [{ type: 'text', text: 'partial answer' }] });
    expect(a).not.toBe(b);
    expect(a?.startsWith('m1:')).toBe(true);
    expect(keyOf({ info: { role: 'user' }, parts: [{ type: 'text', text: 'no id' }] })).toBeNull();
  });
});

describe('MessageView.readable', () => {
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
  ];

  it('should read as the message it stands for: the same unit, key, weight and summary flag, whatever the parts', () => {
    const generated = generateSession({ seed: 11, targetBytes: 256 * 1024 }).messages;
    for (const [order, message] of [...shapes, ...generated].entries()) {
      const original = view(message);
      const kept = original.readable();
      expect(toUnit(kept, order)).toEqual(toUnit(view(message), order));
      expect(kept.key).toBe(view(message).key);
      expect(kept.weight).toBe(original.weight);
      expect(kept.summary).toBe(original.summary);
      // A kept copy is its own kept copy.
      expect(kept.readable()).toBe(kept);
    }
  });

  it('should leave the bodies of tool inputs, the middle of long output and unread text behind', () => {
    const kept = view(shapes[3]).readable();
    // The written file's content is not an argument extraction reads.
    expect(kept.tools[0]?.input).toEqual({ filePath: '/w/src/a.ts' });
    // 25 KB of test output and 20 KB of error keep their head and tail only.
    expect(kept.tools[3]?.output).toHaveLength(TOOL_OUTPUT_HEAD_CHARS + 3 + TOOL_OUTPUT_TAIL_CHARS);
    expect(kept.tools[3]?.output?.endsWith('Tests: 3 failed')).toBe(true);
    expect(kept.tools[4]?.error).toHaveLength(TOOL_OUTPUT_HEAD_CHARS + 3 + TOOL_OUTPUT_TAIL_CHARS);
    expect(kept.size).toBeLessThan(view(shapes[3]).size / 2);
    expect(view(shapes[0]).readable().texts.map((part) => part.text)).toEqual(['Use the cache.']);
  });

  it('should share no characters with the message it came from: kept heads and tails of 4 MB outputs do not keep the outputs alive', () => {
    const fixture = fileURLToPath(new URL('../../fixtures/compaction/kept-outputs.ts', import.meta.url));
    // Twenty outputs of about 4 MB: kept as cuts of them, they would hold 80 MB.
    const heldMb = Number(execFileSync(process.execPath, ['--expose-gc', ...fixtureArgv(fixture)], { encoding: 'utf8', timeout: 60_000 }).trim());
    expect(heldMb).toBeLessThan(16);
  });
});

describe('keptCopies', () => {
  it("should make of each message the copy its own readable() makes, in order, and keep a kept copy as it is", () => {
    const generated = generateSession({ seed: 12, targetBytes: 128 * 1024 }).messages.map(view);
    // A window kept again holds kept copies among the messages read since.
    const mixed = generated.map((message, index) => (index % 5 === 0 ? message.readable() : message));
    const copies = keptCopies(mixed);
    expect(copies).toHaveLength(mixed.length);
    for (const [index, copy] of copies.entries()) {
      const original = mixed[index] as MessageView;
      expect(copy).toEqual(original.readable());
      expect(copy.key).toBe(original.key);
      expect(copy.readable()).toBe(copy);
      if (index % 5 === 0) expect(copy).toBe(original);
      else expect(copy).not.toBe(original);
    }
    expect(keptCopies([])).toEqual([]);
  });
});
