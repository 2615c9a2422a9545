import { readdir, readFile } from 'node:fs/promises';
import { FIRST_PAGE_MESSAGES, PAGE_DEADLINE_SHARE, PAGE_TARGET_CHARS } from '../../../src/main/session/session-reader.js';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHarness as startPlugin, type Harness } from '../../support/plugin-harness.js';
import { filePool } from '../../support/file-pool.js';
import type { WorkerPool } from '../../../src/main/pool/worker-pool.js';
import { cursorHeaders, message } from '../../../support/fake-host.js';
import { COMPACTION_GUIDELINES } from '../../../src/main/compaction/tagging-guidelines.js';
import { CLOSING_LISTS_REQUEST } from '../../../src/core/context/closing-lists.js';
import { asksClosingLists } from '../../../src/main/compaction/compaction.js';
import { PRESERVATION_HEADING } from '../../../src/core/context/preservation-context.js';
import { countTokens } from '../../../src/core/text/tokens/tokens.js';
import { generateSession } from '../../../src/synth/session-generator.js';

// One worker for every plugin of the file: no test here depends on a fresh one.
const pool = filePool();
/**
 * A plugin without session start: each plugin's start otherwise builds the graph context in the
 * background (two CLI runs, a third of this file's CPU) that no test here looks at. The first test
 * keeps every default.
 */
const startHarness = (options: Record<string, unknown> = {}, env?: Record<string, string>): Promise<Harness> =>
  startPlugin({ sessionStart: false, ...options }, env, undefined, { pool: pool() });

/**
 * For tests that read only the context: the built-in file store writes the note in this process, where the
 * CLI double runs a process for each note. The tests that look at the note, or at the CLI, keep the CLI.
 */
const startFiles = (options: Record<string, unknown> = {}): Promise<Harness> => startHarness({ store: 'files', ...options });

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const conversation = [
  message('m1', 'user', 'Please add caching to the [[API Gateway]] of the shop.'),
  message('m2', 'assistant', '## Plan\nWe decided to use [[Redis]] for the [[cache layer]] because every node shares it.\n\n```ts\n// [[not-a-concept]]\n```', {}, [
    { type: 'tool', tool: 'edit', state: { status: 'completed', input: { filePath: '/work/acme-shop/src/cache.ts' }, output: 'ok' } },
  ]),
  message('m3', 'assistant', '## Result\nWe will not use [[Memcached]] here since it lacks persistence. Tests pass for the [[API Gateway]].'),
];

async function compact(h: Harness, sessionID: string, context: string[] = ['existing']): Promise<{ context: string[]; prompt?: string }> {
  const output: { context: string[]; prompt?: string } = { context };
  await h.plugin.hooks['experimental.session.compacting']?.({ sessionID }, output);
  return output;
}

async function noteFiles(h: Harness): Promise<string[]> {
  const calls = await h.double.calls();
  // The project's memory digest is written after each note: not a compaction note.
  return calls.filter((call) => call.tool === 'WriteMemory' && !String((call.payload as { title?: unknown }).title).startsWith('Memory digest')).map((call) => (call.payload as { content: string }).content);
}

describe('compaction', () => {
  it('should push guidelines and a budgeted preservation context in place, never set prompt, and write a note', async () => {
    harness = await startPlugin({}, {}, undefined, { pool: pool() });
    harness.host.setMessages('ses_c1', conversation);
    const context = ['existing'];
    const output = await compact(harness, 'ses_c1', context);
    expect(output.context).toBe(context);
    expect(output.prompt).toBeUndefined();
    expect(context[0]).toBe('existing');
    expect(context[1]).toBe(COMPACTION_GUIDELINES);
    const preserved = context[2] as string;
    expect(preserved).toContain(PRESERVATION_HEADING);
    expect(preserved).toContain('[[redis]]');
    expect(preserved).not.toContain('not-a-concept');
    // The closing lists' request comes out of the same budget: what the compaction adds stays within it.
    expect(countTokens(preserved) + countTokens(CLOSING_LISTS_REQUEST)).toBeLessThanOrEqual(500);

    await harness.plugin.background.idle();
    const [write] = (await harness.double.calls()).filter((call) => call.tool === 'WriteMemory');
    const payload = write?.payload as { title: string; folder: string; tags: string[]; content: string };
    expect(payload.folder).toMatch(/^sessions\/compaction\/acme-shop-[0-9a-f]{8}$/);
    expect(payload.tags).toEqual(['compaction', 'session', 'acme-shop', payload.folder.split('/').at(-1)]);
    expect(payload.content).toContain('- [[redis]]');
    expect(payload.content).toContain('- [[memcached]]');
    expect(payload.content).toContain('src/cache.ts');
    // The double wrote the note, so maenifold saw a link outside code.
    const memory = join(harness.double.root, 'memory', payload.folder);
    const written = await readFile(join(memory, `${payload.title.toLowerCase().replace(/\s+/g, '-').replace(/[^a-z0-9-]/g, '')}.md`), 'utf8');
    expect(written).toContain('[[redis]]');
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('compaction note written')).toHaveLength(1);
  });

  it('should honour the token budget option exactly', async () => {
    harness = await startFiles({ compactionTokens: 60 });
    // 32 KB: with the default budget this session keeps about 470 tokens, far more than 60.
    harness.host.setMessages('ses_big', generateSession({ seed: 4, targetBytes: 32 * 1024 }).messages);
    const output = await compact(harness, 'ses_big', []);
    expect(output.context).toHaveLength(2);
    expect(countTokens(output.context[1] as string)).toBeLessThanOrEqual(60);
  });

  it("should ask for the closing lists within the token budget, and leave them out of a budget too small for both", async () => {
    harness = await startFiles({ compactionTokens: 300 });
    harness.host.setMessages('ses_big', generateSession({ seed: 4, targetBytes: 16 * 1024 }).messages);
    const output = await compact(harness, 'ses_big', []);
    expect(output.context[0]).toContain(CLOSING_LISTS_REQUEST);
    expect(countTokens(CLOSING_LISTS_REQUEST) + countTokens(output.context[1] as string)).toBeLessThanOrEqual(300);
    expect(asksClosingLists(150)).toBe(false);
  });

  it('should carry what the aggressive strategy dropped into the context as one summary line', async () => {
    // Forty edits, each renaming a different handler in its own file: problems are capped to the few worth
    // keeping before any budget, edits are not, so far more is observed than 500 tokens hold.
    const name = (index: number): string => `${'abcdefghijklmnopqrstuvwxyz'[index % 26]}${'qwertyuiopasdfghjklzxcvbnm'[Math.floor(index / 26)]}`;
    const runs = Array.from({ length: 40 }, (_, index) =>
      message(`r${index}`, 'assistant', `Renaming the ${name(index)} webhook handler.`, {}, [
        {
          type: 'tool',
          tool: 'edit',
          state: {
            status: 'completed',
            input: { filePath: `src/webhooks/${name(index)}.ts`, oldString: `export function handle${name(index)}Payload(body) {`, newString: `export function parse${name(index)}WebhookEvent(body) {` },
            output: 'Edit applied successfully.',
          },
        },
      ]),
    );
    const session = [message('m0', 'user', 'The webhook handlers fail after the framework upgrade; please fix them.'), ...runs];
    harness = await startHarness({ compactionStrategy: 'aggressive' });
    harness.host.setMessages('ses_aggr', session);
    const output = await compact(harness, 'ses_aggr', []);
    const preserved = output.context[1] as string;
    expect(preserved).toContain(PRESERVATION_HEADING);
    expect(preserved).toMatch(/\n### Dropped to fit\n- \[\d+\] older observations summarized: \S/);
    expect(preserved).toContain('### Working set');
    expect(countTokens(preserved)).toBeLessThanOrEqual(500);
    await harness.plugin.background.idle();
    expect(await noteFiles(harness)).toHaveLength(1);
    await harness.close();

    // The same session compacted conservatively drops silently (only the context is looked at).
    harness = await startFiles();
    harness.host.setMessages('ses_cons', session);
    const conservative = (await compact(harness, 'ses_cons', [])).context[1] as string;
    expect(conservative).toContain('### Working set');
    expect(conservative).not.toContain('### Dropped to fit');
    expect(countTokens(conservative)).toBeLessThanOrEqual(500);
  });

  it('should read the session newest page first and no further back than the window since the latest summary', async () => {
    harness = await startFiles();
    const filler = 'The gateway keeps its [[cache layer]] warm between requests while the tests run. '.repeat(25);
    const listed = Array.from({ length: 600 }, (_, index) =>
      index === 550
        ? message(`m${index}`, 'assistant', `## Summary\n${filler}`, { summary: true })
        : message(`m${index}`, index % 2 ? 'assistant' : 'user', index === 0 ? 'We decided to use [[SQLite]] for the local store because it needs no server.' : filler),
    );
    harness.host.setMessages('ses_window', listed);
    const queries: unknown[] = [];
    const list = harness.host.client.session.messages.bind(harness.host.client.session);
    harness.host.client.session.messages = (options) => {
      queries.push(options.query);
      return list(options);
    };
    const output = await compact(harness, 'ses_window', []);
    // Pages of about PAGE_TARGET_CHARS: the first of FIRST_PAGE_MESSAGES, the rest sized at the mean message.
    const perPage = Math.round(PAGE_TARGET_CHARS / (filler.length + 500));
    const expected: unknown[] = [{ limit: FIRST_PAGE_MESSAGES }];
    for (let end = 600 - FIRST_PAGE_MESSAGES; 600 - end < 130; end -= perPage) expected.push({ limit: perPage, before: String(end) });
    expect(queries).toEqual(expected);
    const preserved = output.context[1] as string;
    expect(preserved).toContain('[[cache-layer]]');
    expect(preserved).not.toContain('sqlite');
    await harness.plugin.logger.flush();
    // 2,025 characters a message: the summary and the 49 after it are under the floor of 256 K, so 130 are read.
    expect(harness.host.linesWith('compaction: 130 messages')).toHaveLength(1);
    // The line also says how the session was read: every page asked for, each of them full.
    const read = FIRST_PAGE_MESSAGES + perPage * (expected.length - 1);
    expect(harness.host.linesWith(`(read ${read} messages in ${expected.length} pages, `)).toHaveLength(1);
  });

  describe('a host whose pages misbehave', () => {
    const filler = 'The gateway keeps its [[cache layer]] warm between requests while the tests run. '.repeat(25);
    const listed = Array.from({ length: 120 }, (_, index) => message(`m${String(index).padStart(3, '0')}`, index % 2 ? 'assistant' : 'user', index === 119 ? `We decided to use [[Redis]] for the [[cache layer]] because every node shares it. ${filler}` : filler));

    it('should put each message in once when the cursors loop, and end paging there with a log line', async () => {
      harness = await startFiles();
      harness.host.setMessages('ses_loop', listed);
      // The newest page's cursor (100) leads to the page before it, whose cursor (B) leads to the newest again,
      // with its cursor 100: A → B → A, for as long as the reader follows.
      harness.host.scriptPages('ses_loop', (query, all) => {
        if (query.before === undefined) return undefined;
        const [start, next] = query.before === 'B' ? [all.length - FIRST_PAGE_MESSAGES, String(all.length - FIRST_PAGE_MESSAGES)] : [all.length - 2 * FIRST_PAGE_MESSAGES, 'B'];
        return { data: all.slice(start, start + FIRST_PAGE_MESSAGES), response: cursorHeaders(next) };
      });
      const output = await compact(harness, 'ses_loop', []);
      expect(output.context[1]).toContain(PRESERVATION_HEADING);
      await harness.plugin.logger.flush();
      expect(harness.host.linesWith('compaction: 120 messages')).toHaveLength(1);
      expect(harness.host.linesWith('compaction: session ses_loop: the cursor after page 3 was seen before; reading the whole list').map((line) => line.level)).toEqual(['warn']);
    });

    it('should read the whole list and inject the extraction when a page never answers', async () => {
      harness = await startFiles({ compactionDeadlineMs: 8_000 });
      harness.host.setMessages('ses_stall', listed);
      let asked: () => void = () => undefined;
      const stalled = new Promise<void>((resolve) => (asked = resolve));
      harness.host.scriptPages('ses_stall', (query) => {
        if (query.before === undefined) return undefined;
        asked();
        return new Promise<never>(() => {});
      });
      // The page's deadline passes on a faked clock, set going once page 2 is asked for (its timer is set as the
      // request is made): the page and the whole list are both bounded by timers, and only the page's ends
      // within the 2 s the clock moves. Real timers again for the whole-list read, the extraction and the note.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      let output: { context: string[] };
      try {
        const compacting = compact(harness, 'ses_stall', []);
        await stalled;
        await vi.advanceTimersByTimeAsync(8_000 * PAGE_DEADLINE_SHARE);
        vi.useRealTimers();
        output = await compacting;
      } finally {
        vi.useRealTimers();
      }
      expect(output.context[1]).toContain(PRESERVATION_HEADING);
      expect(output.context[1]).toContain('[[redis]]');
      await harness.plugin.logger.flush();
      expect(harness.host.linesWith(`compaction: session ses_stall: page 2 did not answer within ${8_000 * PAGE_DEADLINE_SHARE} ms; reading the whole list`)).toHaveLength(1);
      expect(harness.host.linesWith('compaction: 120 messages')).toHaveLength(1);
    });
  });

  describe('a session compacted again', () => {
    const turn = (index: number): unknown[] => [
      message(`u${index}`, 'user', `Step ${index}: make the [[rate limiter]] read its window from the config, and run the tests.`),
      message(`a${index}`, 'assistant', `## Step ${index}\nWe decided to keep the [[token bucket]] because bursts stay cheap. Changed \`src/limit-${index}.ts\`.`, {}, [
        { type: 'tool', tool: 'edit', state: { status: 'completed', input: { filePath: `/work/acme-shop/src/limit-${index}.ts`, oldString: 'a', newString: 'b' }, output: 'Edit applied successfully.' } },
        { type: 'tool', tool: 'bash', state: { status: 'completed', input: { command: 'npm test' }, output: `Tests: ${index} passed\n`.repeat(40) } },
      ]),
    ];
    const session = (from: number, to: number): unknown[] => Array.from({ length: to - from }, (_, offset) => turn(from + offset)).flat();

    /** The pages each compaction asked for, and the context it injected. */
    async function compactCounting(h: Harness, sessionID: string): Promise<{ pages: number; context: string[] }> {
      let pages = 0;
      const list = h.host.client.session.messages.bind(h.host.client.session);
      h.host.client.session.messages = (options) => {
        pages += 1;
        return list(options);
      };
      const output = await compact(h, sessionID, []);
      h.host.client.session.messages = list;
      // The window is kept after the hook returns.
      await h.plugin.background.idle();
      return { pages, context: output.context };
    }

    /**
     * What the second compaction injects when every read is of the whole list: a host that does not page,
     * so nothing is joined. The first compaction still runs, as it leaves the working set to the second.
     */
    async function wholeReadContext(before: unknown[], after: unknown[]): Promise<string[]> {
      const whole = await startFiles();
      try {
        const list = whole.host.client.session.messages.bind(whole.host.client.session);
        whole.host.client.session.messages = (options) => list({ path: options.path });
        whole.host.setMessages('ses_again', before);
        await compact(whole, 'ses_again', []);
        await whole.plugin.background.idle();
        whole.host.setMessages('ses_again', after);
        return (await compact(whole, 'ses_again', [])).context;
      } finally {
        await whole.close();
      }
    }

    it('should read only the pages written since, and inject what a read of the whole window injects', async () => {
      harness = await startFiles();
      harness.host.setMessages('ses_again', session(0, 200));
      const first = await compactCounting(harness, 'ses_again');
      expect(first.pages).toBeGreaterThan(5);
      const grown = [...session(0, 200), ...session(200, 204)];
      harness.host.setMessages('ses_again', grown);
      const again = await compactCounting(harness, 'ses_again');
      expect(again.pages).toBe(1);
      expect(again.context).toEqual(await wholeReadContext(session(0, 200), grown));
      await harness.plugin.logger.flush();
      expect(harness.host.linesWith(`(read ${FIRST_PAGE_MESSAGES} messages in 1 page, `)).toHaveLength(1);
      expect(harness.host.linesWith(' remembered, ')).toHaveLength(1);
    });

    it('should follow a revert: what it removed is gone from the context, what came after is in it', async () => {
      harness = await startFiles();
      harness.host.setMessages('ses_again', session(0, 60));
      const before = await compact(harness, 'ses_again', []);
      await harness.plugin.background.idle();
      expect(before.context.find((entry) => entry.includes(PRESERVATION_HEADING))).toContain('Step 59');
      const reverted = [...session(0, 55), message('r1', 'user', 'Undo that: the [[sliding window]] limiter stays.'), message('r2', 'assistant', 'We decided to keep the [[sliding window]] limiter since the bursts were rare. Reverted `src/limit-59.ts`.')];
      harness.host.setMessages('ses_again', reverted);
      const again = await compactCounting(harness, 'ses_again');
      expect(again.pages).toBe(1);
      expect(again.context).toEqual(await wholeReadContext(session(0, 60), reverted));
      // The working context keeps every path the session touched; what was said is what follows the revert.
      const preserved = again.context.find((entry) => entry.includes(PRESERVATION_HEADING)) ?? '';
      expect(preserved).toContain('sliding-window');
      expect(preserved).not.toContain('Step 59');
    });

    it('should remember a session that fits in one page, and nothing a host sent without paging', async () => {
      harness = await startFiles();
      harness.host.setMessages('ses_again', session(0, 8));
      expect((await compactCounting(harness, 'ses_again')).pages).toBe(1);
      harness.host.setMessages('ses_again', session(0, 14));
      // 28 messages: the newest page of 20 holds remembered ones.
      expect((await compactCounting(harness, 'ses_again')).pages).toBe(1);
      const list = harness.host.client.session.messages.bind(harness.host.client.session);
      harness.host.client.session.messages = (options) => list({ path: options.path });
      harness.host.setMessages('ses_whole', session(0, 200));
      await compact(harness, 'ses_whole', []);
      await harness.plugin.background.idle();
      harness.host.client.session.messages = list;
      harness.host.setMessages('ses_whole', session(0, 201));
      expect((await compactCounting(harness, 'ses_whole')).pages).toBeGreaterThan(5);
    });

    it('should forget the window of a deleted session', async () => {
      harness = await startFiles();
      harness.host.setMessages('ses_again', session(0, 60));
      const first = await compactCounting(harness, 'ses_again');
      await harness.plugin.hooks.event?.({ event: { type: 'session.deleted', properties: { info: { id: 'ses_again' } } } });
      harness.host.setMessages('ses_again', [...session(0, 60), ...session(60, 61)]);
      const again = await compactCounting(harness, 'ses_again');
      expect(again.pages).toBe(first.pages);
    });

    it('should inject the new text of a message edited in place since, to the same length or not, paged or read whole', async () => {
      harness = await startFiles();
      harness.host.setMessages('ses_again', session(0, 60));
      const before = await compact(harness, 'ses_again', []);
      await harness.plugin.background.idle();
      const asked = (index: number): string => `Step ${index}: make the [[rate limiter]] read its window from the config, and run the tests.`;
      expect(before.context.join('\n')).toContain(asked(59));
      // u59, the newest question, keeps its id and its length; u58, on the same page, grows.
      const sameLength = 'Step 59: make the [[rate limiter]] read its burst size from env vars, then run the tests.'.slice(0, asked(59).length);
      expect(sameLength).toHaveLength(asked(59).length);
      const longer = 'Step 58: make the [[rate limiter]] read its burst size from the environment instead, and run the tests.';
      const edited = session(0, 60).map((entry) => {
        const id = (entry as { info: { id: string } }).info.id;
        if (id === 'u59') return message('u59', 'user', sameLength);
        return id === 'u58' ? message('u58', 'user', longer) : entry;
      });
      harness.host.setMessages('ses_again', edited);
      const again = await compactCounting(harness, 'ses_again');
      expect(again.pages).toBe(1);
      const injected = again.context.join('\n');
      expect(injected).toContain(sameLength);
      expect(injected).toContain(longer);
      expect(injected).not.toContain(asked(59));
      expect(injected).not.toContain(asked(58));
      // A host that does not page: the same-length edit must not reuse the analysis cached for the old text.
      expect(await wholeReadContext(session(0, 60), edited)).toEqual(again.context);
    });

    it('should read the window again when a revert reaches further back than the remembered window', async () => {
      harness = await startFiles();
      // A summary bounds the window at its floor of 256 K characters, not at its cap of 1 M: about 300 turns
      // after the summary (each weighs about 900 characters) fill a window, and the first compaction remembers
      // the summary and what follows it.
      const summary = message('s1', 'assistant', '## Summary\nThe [[rate limiter]] reads its window from the config.', { summary: true });
      const before = [...session(0, 150), summary, ...session(150, 450)];
      harness.host.setMessages('ses_again', before);
      await compact(harness, 'ses_again', []);
      await harness.plugin.background.idle();
      // Most of the remembered window is undone: what is left of it (150 turns since the summary) no longer
      // fills a window, which now reaches back past the summary into the turns before it.
      const reverted = [...session(0, 150), summary, ...session(150, 300), message('r1', 'user', 'Start over from the [[leaky bucket]] version.')];
      harness.host.setMessages('ses_again', reverted);
      const again = await compactCounting(harness, 'ses_again');
      expect(again.pages).toBeGreaterThan(5);
      expect(again.context).toEqual(await wholeReadContext(before, reverted));
    });
  });

  it("should read each of the host's messages once on its way into the hook, however many steps ask of it", async () => {
    harness = await startFiles();
    const reads = new Map<string, number>();
    // Each entry counts the reads of its parts: the window scan, the threshold, the engine's window and its units all ask.
    const counted = conversation.map((entry) => {
      const { info, parts } = entry as { info: { id: string }; parts: unknown[] };
      return Object.defineProperty({ info }, 'parts', {
        enumerable: true,
        get: () => {
          reads.set(info.id, (reads.get(info.id) ?? 0) + 1);
          return parts;
        },
      });
    });
    harness.host.setMessages('ses_once', counted);
    const output = await compact(harness, 'ses_once', []);
    await harness.plugin.background.idle();
    expect(output.context.join('\n')).toContain('[[redis]]');
    expect(Object.fromEntries(reads)).toEqual({ m1: 1, m2: 1, m3: 1 });
  });

  it('should skip conversations under 100 characters', async () => {
    harness = await startHarness();
    harness.host.setMessages('ses_short', [message('m1', 'user', 'hi [[x]]')]);
    const output = await compact(harness, 'ses_short', []);
    expect(output.context).toEqual([COMPACTION_GUIDELINES]);
    await harness.plugin.background.idle();
    expect(await noteFiles(harness)).toEqual([]);
  });

  it('should still inject when the note cannot be written', async () => {
    harness = await startHarness({}, { MAENIFOLD_DOUBLE_FAULT: 'garbage', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'WriteMemory' });
    harness.host.setMessages('ses_fail', conversation);
    const output = await compact(harness, 'ses_fail', []);
    expect(output.context).toHaveLength(2);
    await harness.plugin.background.idle();
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('outbox: note not delivered (BAD_OUTPUT').map((line) => line.level)).toEqual(['error']);
    // Kept in the outbox for a later attempt.
    expect((await readdir(join(harness.stateDir, 'outbox'))).filter((name) => name.endsWith('.json'))).toHaveLength(1);
  });

  it('should log an error and keep the context when the CLI hangs past its timeout', async () => {
    harness = await startHarness({ persistTimeoutMs: 500 }, { MAENIFOLD_DOUBLE_FAULT: 'hang', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'WriteMemory' });
    harness.host.setMessages('ses_hang', conversation);
    const output = await compact(harness, 'ses_hang', []);
    expect(output.context[1]).toContain('[[redis]]');
    await harness.plugin.background.idle();
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('outbox: note not delivered (TIMEOUT').map((line) => line.level)).toEqual(['error']);
  });

  it('should work without the CLI: context injected, nothing written', async () => {
    harness = await startHarness({}, { MAENIFOLD_CLI: '' });
    harness.host.setMessages('ses_nocli', conversation);
    const output = await compact(harness, 'ses_nocli', []);
    expect(output.context[1]).toContain('[[redis]]');
  });

  it('should return by its deadline, with the guidelines, when the host is slow to list messages', async () => {
    harness = await startFiles({ compactionDeadlineMs: 200 });
    // The host answers only once the hook has returned: slower than any deadline, on any machine.
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    harness.host.setMessages('ses_slow', async () => {
      await answered;
      return conversation;
    });
    const output = await compact(harness, 'ses_slow', []);
    answer();
    expect(output.context).toEqual([COMPACTION_GUIDELINES]);
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('could not read session ses_slow (timeout)')).toHaveLength(1);
  });

  it('should count a running extraction as background work, which a shutdown waits for before it stops the pool', async () => {
    const real = pool();
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The workers take their time over the messages: the hook is still waiting when the check is made.
    const held: WorkerPool = { ...real, run: (async (name: Parameters<WorkerPool['run']>[0], input: never, controls: never) => {
      if (name === 'analyzeUnits') await gate;
      return real.run(name, input, controls);
    }) as WorkerPool['run'] };
    harness = await startPlugin({ sessionStart: false }, {}, undefined, { pool: held });
    harness.host.setMessages('ses_d', conversation);
    const compacting = compact(harness, 'ses_d');
    const plugin = harness.plugin;
    const deadline = performance.now() + 10_000;
    while (!plugin.background.pendingLabels().includes('compaction extraction') && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    const tracked = plugin.background.pendingLabels().includes('compaction extraction');
    release();
    const output = await compacting;
    expect(tracked).toBe(true);
    expect(output.context[2]).toContain(PRESERVATION_HEADING);
  });

  it('should inject what is ready when extraction misses the deadline and finish the note in the background', async () => {
    harness = await startHarness({ compactionDeadlineMs: 100 });
    // The hook's clock jumps past its whole deadline while the host lists the messages, so no time is
    // left for extraction, whatever the speed of the machine.
    const real = performance.now.bind(performance);
    let skewMs = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => real() + skewMs);
    // Fewer than a page of messages, so the one read is the whole list and the jump comes after it.
    const messages = generateSession({ seed: 9, targetBytes: 1024 * 1024 }).messages.slice(-(FIRST_PAGE_MESSAGES - 1));
    harness.host.setMessages('ses_huge', async () => {
      skewMs += 100;
      return messages;
    });
    try {
      const output = await compact(harness, 'ses_huge', []);
      expect(output.context).toEqual([COMPACTION_GUIDELINES]);
    } finally {
      clock.mockRestore();
    }
    await harness.plugin.background.idle();
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('extraction not ready within 100 ms')).toHaveLength(1);
    // The extraction finished after the hook returned, and its note was written.
    const [note] = await noteFiles(harness);
    expect(note).toContain('[[');
    expect(await noteFiles(harness)).toHaveLength(1);
  });

  it('should never throw, whatever the host returns: guidelines only, and a warning naming the cause', async () => {
    harness = await startFiles();
    harness.host.setMessages('ses_junk', [null, 42, { info: null, parts: 'x' }, { parts: [{ type: 'text', text: 7 }] }]);
    const output = await compact(harness, 'ses_junk', []);
    expect(output.context).toEqual([COMPACTION_GUIDELINES]);

    const missing = { context: [] as string[] };
    await expect(harness.plugin.hooks['experimental.session.compacting']?.({ sessionID: 'missing' }, missing)).resolves.toBeUndefined();
    expect(missing.context).toEqual([COMPACTION_GUIDELINES]);
    await expect(harness.plugin.hooks['experimental.session.compacting']?.(null as never, null as never)).resolves.toBeUndefined();
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('session missing returned no messages (session missing not found)').map((line) => line.level)).toEqual(['warn']);
    expect(harness.host.logs.filter((line) => line.level === 'error')).toEqual([]);
  });
});
