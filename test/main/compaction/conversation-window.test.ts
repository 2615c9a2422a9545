import { describe, expect, it } from 'vitest';
import { createWindowScan, MESSAGE_FLOOR_CHARS, readWindow, windowStart, WHOLE_CONVERSATION } from '../../../src/main/compaction/conversation-window.js';
import { readMessage, type MessageView } from '../../../src/main/session/message-view.js';

function said(id: string, chars: number, info: Record<string, unknown> = {}): MessageView {
  return readMessage({ info: { id, role: 'assistant', ...info }, parts: [{ type: 'text', text: 'x'.repeat(chars) }] }) as MessageView;
}

const limits = { minChars: 1_000, maxChars: 5_000, messageChars: 2_000 };

describe('windowStart', () => {
  it('should start at the latest summary once the floor is reached', () => {
    const messages = [said('a', 3_000), said('b', 900, { summary: true }), said('c', 600), said('d', 600)];
    expect(windowStart(messages, limits)).toBe(1);
    expect(messages[1]?.summary).toBe(true);
  });

  it('should reach back past a recent summary until the floor is read', () => {
    const messages = [said('a', 400), said('b', 400), said('c', 100, { summary: true }), said('d', 300)];
    // 300 + 100 + 400 = 800 is under the floor of 1,000; the next older message reaches it.
    expect(windowStart(messages, limits)).toBe(0);
    const longer = [said('z', 5_000), ...messages];
    expect(windowStart(longer, limits)).toBe(1);
  });

  it('should stop at the cap when the conversation never compacted', () => {
    const messages = Array.from({ length: 20 }, (_, index) => said(`m${index}`, 1_000));
    expect(windowStart(messages, limits)).toBe(15);
  });

  it('should count a flood in one message as no more than its share, so older messages stay in', () => {
    const messages = [said('a', 100, { summary: true }), said('b', 100), said('paste', 1_000_000), said('c', 100)];
    expect(windowStart(messages, limits)).toBe(0);
    const floods = Array.from({ length: 6 }, (_, index) => said(`f${index}`, 1_000_000));
    // 2,000 each: the cap of 5,000 is reached on the third from the end.
    expect(windowStart(floods, limits)).toBe(3);
  });

  it('should count a tiny message as the floor, so a window holds at most maxChars / MESSAGE_FLOOR_CHARS of them', () => {
    const tiny = Array.from({ length: 1_000 }, (_, index) => said(`t${index}`, 2));
    // 79 × 64 is the first multiple of the floor past the cap of 5,000.
    expect(windowStart(tiny, limits)).toBe(1_000 - Math.ceil(limits.maxChars / MESSAGE_FLOOR_CHARS));
  });

  it('should read the whole list when it is within the floor, and always when unbounded', () => {
    const messages = [said('a', 200, { summary: true }), said('b', 200)];
    expect(windowStart(messages, limits)).toBe(0);
    const many = Array.from({ length: 20 }, (_, index) => said(`m${index}`, 1_000, { summary: index % 2 === 0 }));
    expect(windowStart(many, WHOLE_CONVERSATION)).toBe(0);
    expect(windowStart([], limits)).toBe(0);
  });
});

describe('createWindowScan', () => {
  it('should agree with windowStart when the list arrives page by page, newest page first', () => {
    const messages = Array.from({ length: 40 }, (_, index) => said(`m${index}`, 150, { summary: index === 30 }));
    const scan = createWindowScan(limits);
    let taken = 0;
    let pages = 0;
    for (let end = messages.length; end > 0 && !scan.whole; end -= 7) {
      taken += scan.take(messages.slice(Math.max(0, end - 7), end));
      pages += 1;
    }
    expect(scan.whole).toBe(true);
    expect(messages.length - taken).toBe(windowStart(messages, limits));
    // 1,000 characters are seven messages: the summary at 30 is already inside, so two pages suffice.
    expect(pages).toBe(2);
    expect(scan.take(messages)).toBe(0);
  });
});

describe('readWindow', () => {
  it('should read only as far back as the window reaches, and agree with windowStart', () => {
    const views = Array.from({ length: 20 }, (_, index) => said(`m${index}`, 1_000, { summary: index === 12 }));
    const entries: unknown[] = views.map((view, index) => ({ info: { id: view.id, role: 'assistant', summary: index === 12 }, parts: [{ type: 'text', text: 'x'.repeat(1_000) }] }));
    // Older than the window: an entry that would throw if anything read it.
    const unread = new Proxy({}, { get: () => { throw new Error('read an entry older than the window'); } });
    entries[0] = unread;
    const { first, views: read } = readWindow(entries, limits);
    expect(first).toBe(windowStart(views, limits));
    expect(read.map((view) => view?.id)).toEqual(views.slice(first).map((view) => view.id));
    // An entry that is not a message weighs nothing and is kept in its place.
    const odd = readWindow([...entries.slice(15), 'not a message', entries[19]], limits);
    // 1,000 characters each: the cap of 5,000 is reached at m16, five messages back.
    expect(odd.first).toBe(1);
    expect(odd.views.map((view) => view?.id ?? null)).toEqual(['m16', 'm17', 'm18', 'm19', null, 'm19']);
  });
});
