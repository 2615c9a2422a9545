import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCompactedSummaries, lastSummaryText, SUMMARY_MAX_PAGES, SUMMARY_PAGE_MESSAGES } from '../../../src/main/summaries/compacted-summary.js';
import type { HostClient } from '../../../src/main/host/host-client.js';
import { createFakeHost, message } from '../../../support/fake-host.js';
import { messageViewsOf } from '../../../src/main/session/session-export.js';

/** A long session: `before` turns, a compaction and its summary, then `after` turns. */
function longSession(before: number, summary: string, after: number): unknown[] {
  const turn = (index: number): unknown => message(`m${index}`, index % 2 === 0 ? 'user' : 'assistant', `turn ${index} on the [[cache-layer]]`);
  return [
    ...Array.from({ length: before }, (_, index) => turn(index)),
    message('c1', 'user', 'compact', {}, [{ type: 'compaction', auto: true }]),
    message('c2', 'assistant', summary, { summary: true, mode: 'compaction' }),
    ...Array.from({ length: after }, (_, index) => turn(before + index)),
  ];
}

/** Counts the host's message reads, with the query of each. */
function countingReads(host: ReturnType<typeof createFakeHost>): { limit?: number; before?: string }[] {
  const queries: { limit?: number; before?: string }[] = [];
  const read = host.client.session.messages.bind(host.client.session);
  host.client.session.messages = (options) => {
    queries.push(options.query ?? {});
    return read(options);
  };
  return queries;
}

describe('lastSummaryText', () => {
  it('should take the text of the last assistant message marked summary, without synthetic or ignored parts', () => {
    expect(lastSummaryText(messageViewsOf(longSession(2, 'The summary.', 1)))).toBe('The summary.');
    const older = message('s1', 'assistant', 'Older summary.', { summary: true });
    const newer = { info: { role: 'assistant', summary: true }, parts: [{ type: 'text', text: 'Newer.' }, { type: 'text', text: 'note', synthetic: true }, { type: 'text', text: 'hidden', ignored: true }] };
    expect(lastSummaryText(messageViewsOf([older, newer]))).toBe('Newer.');
    expect(lastSummaryText(messageViewsOf([message('a', 'assistant', 'x', { summary: { diffs: [] } }), null, 'text']))).toBeNull();
    expect(lastSummaryText(messageViewsOf([message('a', 'assistant', '   ', { summary: true })]))).toBeNull();
  });
});

describe('createCompactedSummaries', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('should read only the newest page of a long session to find the summary just stored', async () => {
    const host = createFakeHost();
    host.setMessages('ses_long', longSession(5_000, 'Switched the cache to [[valkey]].', 3));
    const queries = countingReads(host);
    expect(await createCompactedSummaries(host.client).latest('ses_long')).toEqual({ kind: 'found', text: 'Switched the cache to [[valkey]].' });
    expect(queries).toEqual([{ limit: SUMMARY_PAGE_MESSAGES }]);
  });

  it('should read older pages until the summary, and give up after its newest pages without listing the whole session', async () => {
    const host = createFakeHost();
    host.setMessages('ses_later', longSession(100, 'The summary.', SUMMARY_PAGE_MESSAGES + 4));
    host.setMessages('ses_none', longSession(5_000, 'x', 0).slice(0, 5_000));
    const queries = countingReads(host);
    const summaries = createCompactedSummaries(host.client);
    expect(await summaries.latest('ses_later')).toEqual({ kind: 'found', text: 'The summary.' });
    expect(queries).toHaveLength(2);
    queries.length = 0;
    expect(await summaries.latest('ses_none')).toEqual({ kind: 'none' });
    expect(queries).toHaveLength(SUMMARY_MAX_PAGES);
    expect(queries.every((query) => query.limit === SUMMARY_PAGE_MESSAGES)).toBe(true);
  });

  it('should serve the handlers of one event with one read, and read the next compaction\'s summary afresh', async () => {
    const host = createFakeHost();
    host.setMessages('ses_a', longSession(3, 'The first summary.', 0));
    const queries = countingReads(host);
    const summaries = createCompactedSummaries(host.client);
    const [first, second] = await Promise.all([summaries.latest('ses_a'), summaries.latest('ses_a')]);
    expect(first).toEqual({ kind: 'found', text: 'The first summary.' });
    expect(second).toBe(first);
    expect(queries).toHaveLength(1);
    host.setMessages('ses_a', [...longSession(3, 'The first summary.', 2), ...longSession(0, 'The second summary.', 0)]);
    expect(await summaries.latest('ses_a')).toEqual({ kind: 'found', text: 'The second summary.' });
    expect(queries).toHaveLength(2);
  });

  it("should say why when the host fails, throws or never answers, without rejecting", async () => {
    vi.useFakeTimers();
    const host = createFakeHost();
    const failing = createCompactedSummaries(host.client);
    expect(await failing.latest('ses_missing')).toEqual({ kind: 'failed', why: 'answered no list (session ses_missing not found)' });
    host.client.session.messages = () => {
      throw new Error('socket closed');
    };
    expect(await createCompactedSummaries(host.client).latest('ses_a')).toEqual({ kind: 'failed', why: 'failed: socket closed' });
    const silent = { ...host.client, session: { ...host.client.session, messages: () => new Promise<never>(() => undefined) } } as HostClient;
    const waiting = createCompactedSummaries(silent, { deadlineMs: 2_000 }).latest('ses_a');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await waiting).toEqual({ kind: 'failed', why: 'did not answer within 2000 ms' });
  });
});
