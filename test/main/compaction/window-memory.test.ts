import { describe, expect, it } from 'vitest';
import { createWindowMemory, WINDOW_MEMORY_SESSIONS } from '../../../src/main/compaction/window-memory.js';
import { MESSAGE_METADATA_CHARS, readMessage, type MessageView } from '../../../src/main/session/message-view.js';
import { toUnit } from '../../../src/main/session/message-unit.js';
import { message } from '../../../support/fake-host.js';

const view = (entry: unknown): MessageView => readMessage(entry) as MessageView;
const said = (id: string, text: string, role: 'user' | 'assistant' = 'assistant'): MessageView => view(message(id, role, text));
const ids = (messages: readonly MessageView[]): (string | null)[] => messages.map((entry) => entry.id);

/** Reads `session` newest page first, `size` messages a page, as the compacting hook does; the pages read and the conversation. */
function readJoined(memory: ReturnType<typeof createWindowMemory>, sessionID: string, session: readonly MessageView[], size: number) {
  const joining = memory.join(sessionID);
  if (!joining) return null;
  const pages: MessageView[][] = [];
  for (let end = session.length; end > 0; end -= size) {
    const page = session.slice(Math.max(0, end - size), end);
    pages.push(page);
    if (joining.take(page)) break;
  }
  return { pages: pages.length, conversation: joining.conversation(pages.reverse().flat()) };
}

describe('createWindowMemory', () => {
  const first = Array.from({ length: 12 }, (_, index) => said(`m${index}`, `Step ${index}: we changed the parser and ran the tests again.`));

  it('should join the new pages to the remembered window at the first page that holds a remembered message', async () => {
    const memory = createWindowMemory();
    await memory.remember('ses', first.slice(2), false);
    const grown = [...first, said('n1', 'Now add the retry.', 'user'), said('n2', 'Added the retry with a backoff of one second.')];
    const read = readJoined(memory, 'ses', grown, 3);
    // The first page holds m11: one page is enough.
    expect(read?.pages).toBe(1);
    expect(ids(read?.conversation?.messages ?? [])).toEqual([...ids(first.slice(2)), 'n1', 'n2']);
    expect(read?.conversation?.fromStart).toBe(false);
    // Remembered messages come back as extraction reads them; the new ones as the host sent them.
    const joined = read?.conversation?.messages ?? [];
    expect(joined.at(-1)).toBe(grown.at(-1));
    expect(toUnit(joined[0] as MessageView, 0)).toEqual(toUnit(first[2] as MessageView, 0));
  });

  it('should drop what a revert removed and read again a message that changed since', async () => {
    const memory = createWindowMemory();
    await memory.remember('ses', first, true);
    // m9–m11 reverted; m8 had been cut short while it streamed and is whole now.
    const reverted = [...first.slice(0, 8), said('m8', 'Step 8: we changed the parser, ran the tests again, and they pass.'), said('r1', 'Use the old parser after all.', 'user')];
    const read = readJoined(memory, 'ses', reverted, 4);
    const conversation = read?.conversation;
    expect(ids(conversation?.messages ?? [])).toEqual([...ids(first.slice(0, 8)), 'm8', 'r1']);
    expect(conversation?.messages.at(-2)).toBe(reverted.at(-2));
    expect(conversation?.fromStart).toBe(true);
  });

  it('should take every re-read message the host edited in place, to the same length or not, over the remembered one', async () => {
    const memory = createWindowMemory();
    await memory.remember('ses', first, true);
    const text = (entry: MessageView | undefined): string => entry?.text ?? '';
    const edited = [...first];
    // Same id and length: m5 and m11, the newest remembered message; m9 longer; m1 is older than any page read.
    edited[1] = said('m1', 'Step 1: we changed the lexer and ran the tests again.');
    edited[5] = said('m5', 'Step 5: we reverted the parser and ran the tests again.'.slice(0, text(first[5]).length));
    edited[9] = said('m9', 'Step 9: we changed the parser, ran the tests again, and two of them failed.');
    edited[11] = said('m11', 'Step 11: we dropped the parser and ran the tests once more.'.slice(0, text(first[11]).length));
    expect(text(edited[5])).toHaveLength(text(first[5]).length);
    expect(text(edited[11])).toHaveLength(text(first[11]).length);
    const grown = [...edited, said('n1', 'Next.', 'user')];
    const read = readJoined(memory, 'ses', grown, 8);
    expect(read?.pages).toBe(1);
    const messages = read?.conversation?.messages ?? [];
    expect(ids(messages)).toEqual([...ids(first), 'n1']);
    expect(messages.map(text)).toEqual([text(first[0]), text(first[1]), ...grown.slice(2).map(text)]);
    expect(messages[5]).toBe(grown[5]);
    expect(messages[11]).toBe(grown[11]);
    // Re-read and unchanged: the kept copy, not the host's.
    expect(messages[6]).not.toBe(grown[6]);
    expect(messages[6]).toEqual(first[6]?.readable());
    // m1 was not re-read: the remembered text stays, the accepted cost of reading only the newest pages.
    expect(messages[1]).toEqual(first[1]?.readable());
  });

  it('should not join when no page holds a remembered message, and remember nothing for another session', async () => {
    const memory = createWindowMemory();
    await memory.remember('ses', first.slice(0, 4), true);
    const other = Array.from({ length: 9 }, (_, index) => said(`o${index}`, 'Something else entirely.'));
    const read = readJoined(memory, 'ses', other, 4);
    expect(read?.pages).toBe(3);
    expect(read?.conversation).toBeNull();
    expect(memory.join('ses_other')).toBeNull();
  });

  it('should keep windows in the form extraction reads, and not copy a kept message again', async () => {
    const memory = createWindowMemory();
    const heavy = view(message('h1', 'assistant', 'Wrote the fixture.', {}, [
      { type: 'tool', tool: 'write', state: { status: 'completed', input: { filePath: '/w/fixture.json', content: 'z'.repeat(200_000) }, output: 'Wrote file successfully.' } },
    ]));
    await memory.remember('ses', [...first, heavy], true);
    const joined = readJoined(memory, 'ses', [...first, heavy, said('n1', 'Thanks.', 'user')], 5)?.conversation?.messages ?? [];
    expect(JSON.stringify(joined).length).toBeLessThan(20_000);
    await memory.remember('ses', joined, true);
    const again = readJoined(memory, 'ses', [...first, heavy, said('n1', 'Thanks.', 'user'), said('n2', 'Welcome.')], 5)?.conversation?.messages ?? [];
    expect(again[0]).toBe(joined[0]);
    expect(again[0]).toEqual(first[0]?.readable());
  });

  it('should stay within its bounds: sessions, characters, and a forgotten session', async () => {
    const small = createWindowMemory(2_000);
    await small.remember('big', [said('b1', 'x'.repeat(5_000))], true);
    expect(small.join('big')).toBeNull();
    // A window of one short message counts its size, metadata included (505 characters): three fit in 2,000.
    expect(said('m', 'short').size).toBe(MESSAGE_METADATA_CHARS + 5);
    for (let index = 0; index < 12; index++) await small.remember(`s${index}`, [said(`m${index}`, 'short')], true);
    expect(small.size).toBe(3);
    expect(small.join('s8')).toBeNull();
    expect(small.join('s9')).not.toBeNull();
    const memory = createWindowMemory();
    for (let index = 0; index < WINDOW_MEMORY_SESSIONS + 4; index++) await memory.remember(`s${index}`, [said(`m${index}`, 'short')], true);
    expect(memory.size).toBe(WINDOW_MEMORY_SESSIONS);
    expect(memory.join('s0')).toBeNull();
    expect(memory.join(`s${WINDOW_MEMORY_SESSIONS + 3}`)).not.toBeNull();
    memory.forget(`s${WINDOW_MEMORY_SESSIONS + 3}`);
    expect(memory.join(`s${WINDOW_MEMORY_SESSIONS + 3}`)).toBeNull();
  });

  it('should let the latest call win: a window kept while a newer one is on its way, or after a forget, is dropped', async () => {
    const memory = createWindowMemory();
    const older = memory.remember('ses', first.slice(0, 6), true);
    const newer = memory.remember('ses', first, true);
    await Promise.all([older, newer]);
    expect(ids(readJoined(memory, 'ses', [...first, said('n1', 'Next.', 'user')], 4)?.conversation?.messages ?? [])).toEqual([...ids(first), 'n1']);
    const forgotten = memory.remember('ses_gone', first, true);
    memory.forget('ses_gone');
    await forgotten;
    expect(memory.join('ses_gone')).toBeNull();
  });
});
