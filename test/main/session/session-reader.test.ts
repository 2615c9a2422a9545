import { describe, expect, it } from 'vitest';
import { FIRST_PAGE_MESSAGES, MIN_PAGE_MESSAGES, PAGE_DEADLINE_SHARE, PAGE_TARGET_CHARS, readSessionMessages } from '../../../src/main/session/session-reader.js';
import type { HostClient, SdkResult } from '../../../src/main/host/host-client.js';
import { readMessage } from '../../../src/main/session/message-view.js';

/** The views the reader answers with, for entries as the host sends them. */
const viewsOf = (list: readonly unknown[]): unknown[] => list.map((message) => readMessage(message));

type Query = { limit?: number; before?: string } | undefined;

/** A host that pages like OpenCode 1.18.33: newest `limit` first, oldest first within a page, the older cursor in a header. */
function pagingHost(count: number, overrides: { page?: (query: Query, call: number) => Promise<SdkResult<unknown[]>> | undefined; parts?: (index: number) => unknown[] } = {}) {
  const all = Array.from({ length: count }, (_, index) => ({ info: { id: `msg_${String(index).padStart(5, '0')}` }, parts: overrides.parts?.(index) ?? [] }));
  const calls: Query[] = [];
  const headers = (cursor: string | undefined) => ({ get: (name: string) => (name.toLowerCase() === 'x-next-cursor' ? (cursor ?? null) : null) });
  const client = {
    app: { log: async () => ({ data: true }) },
    session: {
      async messages({ query }: { path: { id: string }; query?: Query }): Promise<SdkResult<unknown[]>> {
        calls.push(query);
        const scripted = overrides.page?.(query, calls.length);
        if (scripted) return scripted;
        if (!query?.limit) return { data: all };
        const end = query.before === undefined ? all.length : Number(query.before);
        const start = Math.max(0, end - query.limit);
        return { data: all.slice(start, end), response: { headers: headers(start > 0 ? String(start) : undefined) } };
      },
      prompt: async () => ({ data: {} }),
    },
  } as unknown as HostClient;
  return { client, calls, all };
}

describe('readSessionMessages', () => {
  it('should read every page, oldest first, asking for the next older page by its cursor', async () => {
    const host = pagingHost(250);
    const read = await readSessionMessages(host.client, 'ses_a', 10_000, { pageSize: 100 });
    expect(read).toEqual({ done: true, value: { data: viewsOf(host.all) } });
    expect(host.calls).toEqual([{ limit: 100 }, { limit: 100, before: '150' }, { limit: 100, before: '50' }]);
  });

  it('should stop reading older pages once the caller has enough, and keep what it read in order', async () => {
    const host = pagingHost(250);
    const seen: number[] = [];
    const read = await readSessionMessages(host.client, 'ses_a', 10_000, {
      pageSize: 100,
      enough: (page) => {
        seen.push(page.length);
        return seen.length === 2;
      },
    });
    expect(read).toEqual({ done: true, value: { data: viewsOf(host.all.slice(50)) } });
    expect(host.calls).toEqual([{ limit: 100 }, { limit: 100, before: '150' }]);
    expect(seen).toEqual([100, 100]);
  });

  it("should tell the caller of a session's only page, and not of a whole list a host sent without paging", async () => {
    const small = pagingHost(30);
    const seen: number[] = [];
    const read = await readSessionMessages(small.client, 'ses_a', 10_000, { pageSize: 100, enough: (page) => (seen.push(page.length), false) });
    expect(read).toEqual({ done: true, value: { data: viewsOf(small.all) } });
    expect(seen).toEqual([30]);
    const whole = pagingHost(300, { page: async () => ({ data: whole.all }) });
    seen.length = 0;
    await readSessionMessages(whole.client, 'ses_a', 10_000, { pageSize: 100, enough: (page) => (seen.push(page.length), false) });
    expect(seen).toEqual([]);
  });

  it('should size each page to about the same characters at the mean so far, at least a few messages, when no size is given', async () => {
    // 3,500 characters of text, tool input and output a message, 500 of metadata: 4,000 in all.
    const busy = pagingHost(400, { parts: () => [{ type: 'text', text: 'a'.repeat(1_000) }, { type: 'tool', state: { status: 'completed', input: { filePath: 'x', newString: 'c'.repeat(499) }, output: 'b'.repeat(2_000) } }] });
    await readSessionMessages(busy.client, 'ses_a', 10_000);
    const fits = Math.round(PAGE_TARGET_CHARS / 4_000);
    expect(busy.calls.slice(0, 3)).toEqual([{ limit: FIRST_PAGE_MESSAGES }, { limit: fits, before: String(400 - FIRST_PAGE_MESSAGES) }, { limit: fits, before: String(400 - FIRST_PAGE_MESSAGES - fits) }]);

    const huge = pagingHost(100, { parts: () => [{ type: 'text', text: 'a'.repeat(1_000_000) }] });
    await readSessionMessages(huge.client, 'ses_a', 10_000, { enough: () => huge.calls.length === 2 });
    expect(huge.calls[1]?.limit).toBe(MIN_PAGE_MESSAGES);

    // Bare messages: their metadata alone sizes the page.
    const bare = pagingHost(1_000);
    await readSessionMessages(bare.client, 'ses_a', 10_000, { enough: () => bare.calls.length === 2 });
    expect(bare.calls[1]?.limit).toBe(Math.round(PAGE_TARGET_CHARS / 500));
  });

  it('should let the host run other work between pages', async () => {
    const order: string[] = [];
    const host = pagingHost(300, {
      page: (_query, call) => {
        order.push(`page ${call}`);
        setImmediate(() => order.push(`host work after page ${call}`));
        return undefined;
      },
    });
    await readSessionMessages(host.client, 'ses_a', 10_000, { pageSize: 100 });
    expect(order.slice(0, 4)).toEqual(['page 1', 'host work after page 1', 'page 2', 'host work after page 2']);
  });

  it('should take one answer as the whole list when the host ignores the page size or the session fits in a page', async () => {
    const ignoring = pagingHost(250);
    ignoring.client.session.messages = async () => ({ data: ignoring.all });
    expect(await readSessionMessages(ignoring.client, 'ses_a', 10_000, { pageSize: 100 })).toEqual({ done: true, value: { data: viewsOf(ignoring.all) } });

    const short = pagingHost(40);
    expect(await readSessionMessages(short.client, 'ses_a', 10_000, { pageSize: 100 })).toEqual({ done: true, value: { data: viewsOf(short.all) } });
    expect(short.calls).toEqual([{ limit: 100 }]);
  });

  it('should read the whole list when a full page comes without a cursor', async () => {
    const host = pagingHost(100, { page: (query) => (query?.limit ? Promise.resolve({ data: Array.from({ length: 100 }, () => ({})) }) : undefined) });
    const read = await readSessionMessages(host.client, 'ses_a', 10_000, { pageSize: 100 });
    expect(read).toEqual({ done: true, value: { data: viewsOf(host.all) } });
    expect(host.calls).toEqual([{ limit: 100 }, undefined]);
  });

  it('should fall back to the whole list when the paged read is refused or throws', async () => {
    const refused = pagingHost(250, { page: (query) => (query?.limit ? Promise.resolve({ error: { message: 'unknown query parameter' } }) : undefined) });
    expect(await readSessionMessages(refused.client, 'ses_a', 10_000, { pageSize: 100 })).toEqual({ done: true, value: { data: viewsOf(refused.all) } });
    expect(refused.calls).toEqual([{ limit: 100 }, undefined]);

    const throwing = pagingHost(250, { page: (query) => (query?.limit ? Promise.reject(new Error('no route')) : undefined) });
    expect(await readSessionMessages(throwing.client, 'ses_a', 10_000, { pageSize: 100 })).toEqual({ done: true, value: { data: viewsOf(throwing.all) } });
  });

  it('should fall back to the whole list when a page fails mid-way, and pass on the host’s error when that fails too', async () => {
    const midway = pagingHost(250, { page: (query) => (query?.before === '50' ? Promise.resolve({ error: { message: 'busy' } }) : undefined) });
    expect(await readSessionMessages(midway.client, 'ses_a', 10_000, { pageSize: 100 })).toEqual({ done: true, value: { data: viewsOf(midway.all) } });
    expect(midway.calls).toEqual([{ limit: 100 }, { limit: 100, before: '150' }, { limit: 100, before: '50' }, undefined]);

    const broken = pagingHost(250, { page: (query, call) => (call > 1 ? Promise.resolve({ error: { message: `failed ${query ? 'page' : 'list'}` } }) : undefined) });
    expect(await readSessionMessages(broken.client, 'ses_a', 10_000, { pageSize: 100 })).toEqual({ done: true, value: { error: { message: 'failed list' } } });
  });

  it('should fall back to the whole list when the cursor does not move or the pages do not end', async () => {
    const stuck = pagingHost(250, { page: (query) => (query?.limit ? Promise.resolve({ data: [{}], response: { headers: { get: () => 'same' } } }) : undefined) });
    expect(await readSessionMessages(stuck.client, 'ses_a', 10_000, { pageSize: 100 })).toEqual({ done: true, value: { data: viewsOf(stuck.all) } });
    expect(stuck.calls).toHaveLength(3);

    const endless = pagingHost(1_000);
    expect(await readSessionMessages(endless.client, 'ses_a', 10_000, { pageSize: 10, maxPages: 5 })).toEqual({ done: true, value: { data: viewsOf(endless.all) } });
    expect(endless.calls).toHaveLength(6);
  });

  it('should answer the pages it read, not the whole list, when asked for a partial read and the pages run out', async () => {
    const long = pagingHost(1_000);
    expect(await readSessionMessages(long.client, 'ses_a', 10_000, { pageSize: 10, maxPages: 3, partial: true })).toEqual({ done: true, value: { data: viewsOf(long.all.slice(970)) } });
    expect(long.calls).toEqual([{ limit: 10 }, { limit: 10, before: '990' }, { limit: 10, before: '980' }]);
  });

  it('should read the whole list in the time kept for it when a page never answers, and say so', async () => {
    const hanging = pagingHost(250, { page: (query) => (query?.before === '50' ? new Promise<never>(() => {}) : undefined) });
    const warned: string[] = [];
    const read = await readSessionMessages(hanging.client, 'ses_a', 400, { pageSize: 100, warn: (line) => warned.push(line) });
    expect(read).toEqual({ done: true, value: { data: viewsOf(hanging.all) } });
    expect(hanging.calls).toEqual([{ limit: 100 }, { limit: 100, before: '150' }, { limit: 100, before: '50' }, undefined]);
    expect(warned).toEqual([`session ses_a: page 3 did not answer within ${400 * PAGE_DEADLINE_SHARE} ms; reading the whole list`]);
  });

  it('should stop paging once its share of the time is spent, and read the whole list in the rest', async () => {
    // Pages that answer, but slowly: a thousand of them would take far longer than the budget.
    const slow = pagingHost(1_000);
    const list = slow.client.session.messages.bind(slow.client.session);
    // The call is recorded when it is made; only its answer is slow, so a page still in flight when paging stops cannot be recorded after the whole-list read.
    slow.client.session.messages = async (options) => {
      const answer = list(options);
      if (options.query?.limit) await new Promise((resolve) => setTimeout(resolve, 20));
      return answer;
    };
    const read = await readSessionMessages(slow.client, 'ses_a', 1_000, { pageSize: 10, fallbackShare: 0.5, pageDeadlineMs: 400 });
    expect(read).toEqual({ done: true, value: { data: viewsOf(slow.all) } });
    expect(slow.calls.at(-1)).toBeUndefined();
    expect(slow.calls.length).toBeLessThan(1_000 / 10);
  });

  it('should give up at the deadline, pages and fallback together, when neither a page nor the whole list answers', async () => {
    const hanging = pagingHost(250, { page: (query) => (query?.before === '50' || !query ? new Promise<never>(() => {}) : undefined) });
    expect(await readSessionMessages(hanging.client, 'ses_a', 200, { pageSize: 100 })).toEqual({ done: false, reason: 'timeout' });
    expect(hanging.calls).toHaveLength(4);
  });

  it('should end paging at a cursor seen before, and read the whole list, each message once', async () => {
    // Cursors A → B → A: the third page is the first again.
    const looping = pagingHost(250, {
      page: (query) => {
        if (!query?.limit) return undefined;
        const [start, end, next] = query.before === 'B' ? [50, 150, 'A'] : [150, 250, 'B'];
        return Promise.resolve({ data: looping.all.slice(start, end), response: { headers: { get: (name: string) => (name.toLowerCase() === 'x-next-cursor' ? next : null) } } });
      },
    });
    const warned: string[] = [];
    let given = 0;
    // A caller that wants more than the session holds: it would take every repeated page as new.
    const read = await readSessionMessages(looping.client, 'ses_a', 10_000, { pageSize: 100, enough: (page) => (given += page.length) >= 300, warn: (line) => warned.push(line) });
    expect(read).toEqual({ done: true, value: { data: viewsOf(looping.all) } });
    expect(looping.calls).toEqual([{ limit: 100 }, { limit: 100, before: 'B' }, { limit: 100, before: 'A' }, undefined]);
    expect(given).toBe(200);
    expect(warned).toEqual(['session ses_a: the cursor after page 3 was seen before; reading the whole list']);
  });

  it('should keep each message once when pages overlap or a page repeats one, and when the whole list does', async () => {
    // The second page reaches ten messages into the first, and lists one of them twice.
    const overlapping = pagingHost(250, {
      page: (query) => {
        if (query?.before !== '150') return undefined;
        const data = [...overlapping.all.slice(40, 160), overlapping.all[155]];
        return Promise.resolve({ data, response: { headers: { get: (name: string) => (name.toLowerCase() === 'x-next-cursor' ? '40' : null) } } });
      },
    });
    const seen: number[] = [];
    const read = await readSessionMessages(overlapping.client, 'ses_a', 10_000, { pageSize: 100, enough: (page) => (seen.push(page.length), false) });
    expect(read).toEqual({ done: true, value: { data: viewsOf(overlapping.all) } });
    // The last page, without a cursor, is not told.
    expect(seen).toEqual([100, 110]);

    const repeating = pagingHost(3);
    const [a, b, c] = repeating.all;
    repeating.client.session.messages = async () => ({ data: [a, b, a, c, b, { info: {} }, { info: {} }] });
    expect(await readSessionMessages(repeating.client, 'ses_a', 10_000)).toEqual({ done: true, value: { data: viewsOf([a, c, b, { info: {} }, { info: {} }]) } });
  });

  it('should end paging at a page of nothing new, whatever its cursor', async () => {
    let call = 0;
    const moving = pagingHost(250, { page: (query) => (query?.limit ? Promise.resolve({ data: moving.all.slice(150, 250), response: { headers: { get: (name: string) => (name.toLowerCase() === 'x-next-cursor' ? `c${(call += 1)}` : null) } } }) : undefined) });
    const warned: string[] = [];
    expect(await readSessionMessages(moving.client, 'ses_a', 10_000, { pageSize: 100, warn: (line) => warned.push(line) })).toEqual({ done: true, value: { data: viewsOf(moving.all) } });
    expect(moving.calls).toHaveLength(3);
    expect(warned).toEqual(['session ses_a: page 2 held only messages already read; reading the whole list']);
  });
});
