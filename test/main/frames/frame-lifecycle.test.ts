import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFrameLifecycle, lastModelOf } from '../../../src/main/frames/frame-lifecycle.js';
import { messageViewsOf } from '../../../src/main/session/session-export.js';
import { emptyTree, type FrameTree } from '../../../src/main/frames/frame-state.js';
import type { FrameStore } from '../../../src/main/frames/frame-store.js';
import { createBackgroundWork } from '../../../src/main/shared/background-work.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { resolvePluginOptions } from '../../../src/main/options/plugin-options.js';
import { createFakeHost, message, type FakeHost } from '../../../support/fake-host.js';
import { loadToolHelper, toolHelperCandidates } from '../../../src/main/host/v1/tool-helper.js';
import { instructionsFor } from '../../../src/main/frames/frame-compaction.js';
import type { Frame } from '../../../src/main/frames/frame-state.js';
import { createCompactedSummaries } from '../../../src/main/summaries/compacted-summary.js';
import { createInlineRunner } from '../../../src/main/pool/inline-runner.js';
import type { TaskRunner } from '../../../src/main/pool/task-runner.js';

describe('lastModelOf', () => {
  it("should take the latest assistant's provider and model, or a user message's model", () => {
    const user = { info: { role: 'user', model: { providerID: 'p1', modelID: 'u' } } };
    const assistant = { info: { role: 'assistant', providerID: 'p2', modelID: 'a' } };
    expect(lastModelOf(messageViewsOf([user, assistant]))).toEqual({ providerID: 'p2', modelID: 'a' });
    expect(lastModelOf(messageViewsOf([assistant, user]))).toEqual({ providerID: 'p1', modelID: 'u' });
    expect(lastModelOf(messageViewsOf([{ info: { role: 'user' } }, null, 'x']))).toBeNull();
  });
});

describe('instructionsFor', () => {
  const frame: Frame = { sessionID: 's', parentID: 'p', goal: 'Ship it', successCriteria: '', status: 'in_progress', artifacts: [], createdAt: '', updatedAt: '' };
  it('should choose by status and give nothing to a finished frame or a root without a goal', () => {
    expect(instructionsFor(frame)).toContain('## Frame continuation');
    expect(instructionsFor({ ...frame, status: 'completing', outcome: 'failed' })).toContain('- Reported outcome: failed');
    expect(instructionsFor({ ...frame, status: 'completed' })).toBeNull();
    expect(instructionsFor({ ...frame, goal: '' })).toBeNull();
    expect(instructionsFor(undefined)).toBeNull();
  });
});

describe('loadToolHelper', () => {
  it("should look in the project's and the global .opencode folders after its own dependencies", async () => {
    expect(toolHelperCandidates(['/p', '/p'], { XDG_CONFIG_HOME: '/c' })).toEqual([
      '/p/.opencode/node_modules/@opencode-ai/plugin/dist/tool.js',
      '/c/opencode/node_modules/@opencode-ai/plugin/dist/tool.js',
    ]);
    const loaded = await loadToolHelper([], {});
    expect(loaded.ok && typeof loaded.tool.schema.string).toBe('function');
  });

});

/** A tree in memory with one frame `ses_child` completing under `ses_root`. */
function memoryStore(): FrameStore & { tree: FrameTree } {
  const tree = emptyTree();
  const at = '2026-01-01T00:00:00.000Z';
  tree.frames['ses_root'] = { sessionID: 'ses_root', parentID: null, goal: '', successCriteria: '', status: 'in_progress', artifacts: [], createdAt: at, updatedAt: at };
  tree.frames['ses_child'] = { sessionID: 'ses_child', parentID: 'ses_root', goal: 'Add a cache', successCriteria: '', status: 'completing', outcome: 'completed', artifacts: [], createdAt: at, updatedAt: at };
  return { tree, file: 'memory', read: async () => tree, update: async (change) => change(tree) };
}

describe('createFrameLifecycle', () => {
  const deadlines = { stepMs: 1_000, summarizeMs: 5_000 };
  const never = () => new Promise<never>(() => undefined);
  let runner: TaskRunner;

  beforeAll(async () => {
    runner = await createInlineRunner();
  });

  function lifecycleWith(host: FakeHost, store: FrameStore) {
    const background = createBackgroundWork(() => undefined);
    const logger = createLogger(host.client);
    const { options } = resolvePluginOptions({}, {});
    const summaries = createCompactedSummaries(host.client, { deadlineMs: deadlines.stepMs });
    const lifecycle = createFrameLifecycle({ options, logger, host: host.client, background, runner, summaries }, store, deadlines);
    let idle = false;
    return {
      lifecycle,
      logger,
      /** Starts waiting for the background work; `settled()` says whether it has. */
      waitIdle() {
        void background.idle().then(() => (idle = true));
        return () => idle;
      },
    };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it("should give up capturing a summary when the host's message list never answers, and leave the frame completing", async () => {
    vi.useFakeTimers();
    const host = createFakeHost();
    host.client.session.messages = never;
    const store = memoryStore();
    const { lifecycle, logger, waitIdle } = lifecycleWith(host, store);
    await lifecycle.event({ event: { type: 'session.compacted', properties: { sessionID: 'ses_child' } } });
    const settled = waitIdle();
    // The paged read counts its budget on the real clock, so it may end a few milliseconds early.
    await vi.advanceTimersByTimeAsync(deadlines.stepMs - 50);
    expect(settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect(settled()).toBe(true);
    expect(store.tree.frames['ses_child']?.status).toBe('completing');
    await logger.flush();
    expect(host.logs.map((line) => line.message)).toEqual([
      "frames: summary of ses_child not captured: the host's message list did not answer within 1000 ms; a completing frame stays completing, flame_pop again retries",
    ]);
  });

  it("should give up a popped frame's compaction when the message list or the compaction never answers, and leave it completing", async () => {
    vi.useFakeTimers();
    const host = createFakeHost();
    const store = memoryStore();
    host.client.session.messages = never;
    const listing = lifecycleWith(host, store);
    listing.lifecycle.compact('ses_child', 'ses_root');
    const listed = listing.waitIdle();
    await vi.advanceTimersByTimeAsync(deadlines.stepMs);
    expect(listed()).toBe(true);

    const compacting = createFakeHost();
    compacting.setMessages('ses_child', [message('m1', 'assistant', 'done', { providerID: 'fake', modelID: 'm' })]);
    compacting.client.session.summarize = never;
    const summarizing = lifecycleWith(compacting, store);
    summarizing.lifecycle.compact('ses_child', 'ses_root');
    const summarized = summarizing.waitIdle();
    await vi.advanceTimersByTimeAsync(deadlines.summarizeMs - 1);
    expect(summarized()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(summarized()).toBe(true);

    expect(store.tree.frames['ses_child']?.status).toBe('completing');
    await listing.logger.flush();
    await summarizing.logger.flush();
    expect(host.linesWith('frames:').map((line) => line.message)).toEqual([
      "frames: compaction of frame ses_child stopped: the host's message list did not answer within 1000 ms; it stays completing, flame_pop again retries",
    ]);
    expect(compacting.linesWith('stopped').map((line) => line.message)).toEqual([
      "frames: compaction of frame ses_child stopped: the host's compaction did not answer within 5000 ms; if the compaction still ends, its summary is captured; it stays completing, flame_pop again retries",
    ]);
  });

  it('should capture the newest summary of a long frame session from its newest page, sanitized, redacted and capped', async () => {
    const host = createFakeHost();
    const store = memoryStore();
    const turns = Array.from({ length: 3_000 }, (_, index) => message(`m${index}`, 'assistant', `step ${index}`, { providerID: 'fake', modelID: 'm' }));
    const summary = `Added the [[redis]] cache.\u0000 Set DATABASE_PASSWORD=abcdefgh12345 for it. ${'More detail. '.repeat(4_000)}`;
    host.setMessages('ses_child', [...turns, message('s1', 'assistant', summary, { summary: true, mode: 'compaction' })]);
    const queries: unknown[] = [];
    const read = host.client.session.messages.bind(host.client.session);
    host.client.session.messages = (options) => {
      queries.push(options.query);
      return read(options);
    };
    const { lifecycle, waitIdle } = lifecycleWith(host, store);
    await lifecycle.event({ event: { type: 'session.compacted', properties: { sessionID: 'ses_child' } } });
    const settled = waitIdle();
    await vi.waitFor(() => expect(settled()).toBe(true));
    const captured = store.tree.frames['ses_child']?.compactionSummary ?? '';
    expect(store.tree.frames['ses_child']?.status).toBe('completed');
    expect(captured.startsWith('Added the [[redis]] cache. Set DATABASE_PASSWORD=[REDACTED:secret-setting] for it.')).toBe(true);
    expect(captured).not.toContain('\u0000');
    expect(captured.length).toBe(resolvePluginOptions({}, {}).options.summaryMaxChars);
    expect(queries).toEqual([{ limit: 10 }]);
  });
});
