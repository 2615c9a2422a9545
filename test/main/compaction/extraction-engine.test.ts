import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { performance } from 'node:perf_hooks';
import { createExtractionEngine } from '../../../src/main/compaction/extraction-engine.js';
import { createAnalysisCache } from '../../../src/main/compaction/analysis-cache.js';
import { createInlineRunner } from '../../../src/main/pool/inline-runner.js';
import { createWorkerPool, type WorkerPool } from '../../../src/main/pool/worker-pool.js';
import type { TaskRunner } from '../../../src/main/pool/task-runner.js';
import { generateSession, growSession } from '../../../src/synth/session-generator.js';
import { countTokens } from '../../../src/core/text/tokens/tokens.js';
import { WHOLE_CONVERSATION } from '../../../src/main/compaction/conversation-window.js';

let pool: WorkerPool;
let inline: TaskRunner;

beforeAll(async () => {
  // Two workers, so a session's batches spread over both; started from the run's bundle of the worker (the same
  // sources, a second of CPU less per worker than through tsx) and without the warm-up, which only makes a
  // first extraction faster.
  pool = createWorkerPool({ threads: 2, warmUp: false }, inject('workerBundle'));
  inline = await createInlineRunner();
  expect((await pool.ready).ok).toBe(true);
});

afterAll(async () => {
  await pool.destroy();
});

function message(id: string, role: string, text: string, tools: unknown[] = []) {
  return { info: { id, role }, parts: [{ type: 'text', text }, ...tools] };
}

const conversation = [
  message('m1', 'user', 'Please add caching to the [[API Gateway]].'),
  message('m2', 'assistant', '## Plan\nWe decided to use [[Redis]] for the [[cache layer]] because it is shared by every node.\n\n```ts\n// [[not-a-concept]]\n```', [
    { type: 'tool', tool: 'read', state: { status: 'completed', input: { filePath: '/proj/src/gateway.ts' }, output: 'export const x = 1;' } },
  ]),
  message('m3', 'assistant', 'Still part of the plan: we will not use [[Memcached]] here since it lacks persistence.', [
    { type: 'tool', tool: 'bash', state: { status: 'completed', input: { command: 'npm test' }, output: 'FAIL test/gateway.test.ts\nTypeError: cache is undefined' } },
  ]),
  message('m4', 'assistant', '## Result\nThe [[Redis]] cache is in place; tests pass for the [[API Gateway]].', [
    { type: 'tool', tool: 'edit', state: { status: 'completed', input: { filePath: '/proj/src/cache.ts' }, output: 'ok' } },
  ]),
];

describe('createExtractionEngine', () => {
  it('should extract concepts from the boundary sections, decisions, files and signals', async () => {
    const result = await createExtractionEngine(pool, { projectRoot: '/proj' }).extract(conversation);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const extraction = result.value;
    expect(extraction.sectionKind).toBe('h2');
    // "## Plan" runs on into m3 (no heading there); "## Result" is the last section.
    expect(extraction.sections).toHaveLength(2);
    expect(extraction.sections[0]).toContain('Memcached');
    const names = extraction.concepts.map((concept) => concept.name);
    // The links come first; the `.ts` files two messages touched name the stack after them.
    expect(names).toEqual(['redis', 'cache-layer', 'memcached', 'api-gateway', 'typescript']);
    expect(names).not.toContain('not-a-concept');
    expect(extraction.concepts.find((concept) => concept.name === 'redis')?.count).toBe(2);
    // The plan's "because" clause is part of the decision it explains, not a second one.
    expect(extraction.decisions.map((decision) => decision.category)).toEqual(expect.arrayContaining(['implementation', 'rejection']));
    expect(extraction.files).toEqual(['src/cache.ts', 'src/gateway.ts']);
    expect(extraction.observations.some((observation) => observation.type === 'problem' && observation.text.includes('TypeError'))).toBe(true);
    expect(extraction.context.text).toContain('[[redis]]');
    expect(extraction.context.tokens).toBe(countTokens(extraction.context.text));
    expect(extraction.context.tokens).toBeLessThanOrEqual(500);
  });

  it('should give the same result pooled and inline', async () => {
    // Four times the batch size: several batches, over both workers.
    const session = generateSession({ seed: 11, targetBytes: 128 * 1024 });
    const pooled = await createExtractionEngine(pool, { batchChars: 32 * 1024 }).extract(session);
    const inlined = await createExtractionEngine(inline).extract(session);
    expect(pooled.ok && inlined.ok).toBe(true);
    if (!pooled.ok || !inlined.ok) return;
    expect(pooled.value.stats.batches).toBeGreaterThan(1);
    const { timings: _a, stats: _b, ...pooledRest } = pooled.value;
    const { timings: _c, stats: _d, ...inlineRest } = inlined.value;
    expect(pooledRest).toEqual(inlineRest);
  });

  it('should process only new messages of a grown session and agree with a fresh run', async () => {
    const session = generateSession({ seed: 5, targetBytes: 200 * 1024 });
    const grown = growSession(session, 50 * 1024, 9);
    const engine = createExtractionEngine(pool);
    const first = await engine.extract(session);
    const second = await engine.extract(grown);
    const fresh = await createExtractionEngine(pool).extract(grown);
    expect(first.ok && second.ok && fresh.ok).toBe(true);
    if (!second.ok || !fresh.ok) return;
    expect(second.value.stats.cachedUnits).toBe(session.messages.length);
    expect(second.value.stats.units).toBe(grown.messages.length);
    const { timings: _a, stats: _b, ...incremental } = second.value;
    const { timings: _c, stats: _d, ...full } = fresh.value;
    expect(incremental).toEqual(full);
  });

  it('should agree with a fresh run when the next read starts further on, as the hook reads back only to the window', async () => {
    const session = generateSession({ seed: 5, targetBytes: 200 * 1024 });
    const grown = growSession(session, 50 * 1024, 9);
    const engine = createExtractionEngine(pool, { window: WHOLE_CONVERSATION });
    // The first read starts at message 10; after the session grew, the next starts at message 40, so every
    // kept analysis sits 30 places earlier than where it was found.
    expect((await engine.extract(session.messages.slice(10))).ok).toBe(true);
    const later = grown.messages.slice(40);
    const second = await engine.extract(later);
    const fresh = await createExtractionEngine(pool, { window: WHOLE_CONVERSATION }).extract(later);
    expect(second.ok && fresh.ok).toBe(true);
    if (!second.ok || !fresh.ok) return;
    expect(second.value.stats.cachedUnits).toBe(session.messages.length - 40);
    const { timings: _a, stats: _b, ...incremental } = second.value;
    const { timings: _c, stats: _d, ...full } = fresh.value;
    expect(incremental).toEqual(full);
  });

  it("should keep a kept request apart from a new one at the position the kept one was found at", async () => {
    const request = message('u2', 'user', 'Please add a retry to the uploader when the network drops.');
    const later = message('u3', 'user', 'Now make the retry count of the uploader configurable.');
    const engine = createExtractionEngine(inline, { window: WHOLE_CONVERSATION });
    // Found at position 2; the next read starts at it, so the new request sits at position 2.
    const first = [message('x0', 'assistant', 'Looking at the uploader configuration.'), message('x1', 'assistant', 'Reading the network code.'), request];
    expect((await engine.extract(first)).ok).toBe(true);
    const second = [request, message('a2', 'assistant', 'Done: the uploader retries three times.'), later];
    const again = await engine.extract(second);
    const fresh = await createExtractionEngine(inline, { window: WHOLE_CONVERSATION }).extract(second);
    expect(again.ok && fresh.ok).toBe(true);
    if (!again.ok || !fresh.ok) return;
    expect(again.value.stats.cachedUnits).toBe(1);
    const { timings: _a, stats: _b, ...kept } = again.value;
    const { timings: _c, stats: _d, ...full } = fresh.value;
    expect(again.value.context.text).toContain('retry to the uploader');
    expect(again.value.context.text).toContain('retry count');
    expect(kept).toEqual(full);
  });

  it('should analyze a message the host lists many times once, and agree with a run from the cache', async () => {
    let analyzed = 0;
    const counting: TaskRunner = {
      run: (name, input, options) => {
        if (name === 'analyzeUnits') analyzed += (input as { units: unknown[] }).units.length;
        return inline.run(name, input, options);
      },
    };
    const same = message('same', 'assistant', '## Same\nWe decided to keep [[Redis]] because the host sent it again.');
    const listed = [conversation[0], ...new Array<unknown>(5_000).fill(same)];
    const engine = createExtractionEngine(counting);
    const first = await engine.extract(listed);
    expect(analyzed).toBe(2);
    const warm = await engine.extract(listed);
    expect(analyzed).toBe(2);
    expect(first.ok && warm.ok).toBe(true);
    if (!first.ok || !warm.ok) return;
    expect(first.value.stats.units).toBe(5_001);
    expect(first.value.stats.cachedUnits).toBe(4_999);
    const { timings: _a, stats: _b, ...cold } = first.value;
    const { timings: _c, stats: _d, ...cached } = warm.value;
    expect(cold).toEqual(cached);
  });

  it('should read only the window: since the latest summary, within its bounds', async () => {
    const old = message('old', 'assistant', '## Storage\nWe decided to use [[SQLite]] for the local store because it needs no server.');
    const summary = { info: { id: 'sum', role: 'assistant', summary: true }, parts: [{ type: 'text', text: '## Summary\nThe gateway caches in [[Redis]].' }] };
    const listed = [old, message('ask', 'user', 'Go on with the gateway.'), summary, ...conversation];
    const window = { minChars: 100, maxChars: 100_000, messageChars: 100_000 };
    const windowed = await createExtractionEngine(inline, { window }).extract(listed);
    const whole = await createExtractionEngine(inline, { window: WHOLE_CONVERSATION }).extract(listed);
    expect(windowed.ok && whole.ok).toBe(true);
    if (!windowed.ok || !whole.ok) return;
    expect(windowed.value.stats.beforeWindow).toBe(2);
    expect(windowed.value.stats.units).toBe(listed.length - 2);
    expect(windowed.value.concepts.map((concept) => concept.name)).not.toContain('sqlite');
    expect(whole.value.stats.beforeWindow).toBe(0);
    expect(whole.value.concepts.map((concept) => concept.name)).toContain('sqlite');
  });

  it('should keep every preservation context within its exact budget', async () => {
    const session = generateSession({ seed: 2, targetBytes: 150 * 1024 });
    // One cache for the three: a message's analysis does not depend on the budget, which only the final pass reads.
    const cache = createAnalysisCache();
    for (const budget of [40, 120, 500]) {
      const result = await createExtractionEngine(pool, { contextTokenBudget: budget }, cache).extract(session);
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      expect(result.value.context.budget).toBe(budget);
      expect(countTokens(result.value.context.text)).toBeLessThanOrEqual(budget);
    }
  });

  it('should read plain markdown', async () => {
    const result = await createExtractionEngine(inline).extract('## Notes\nWe chose to adopt [[Vitest]] for tests.');
    expect(result.ok && result.value.concepts.map((concept) => concept.name)).toEqual(['vitest']);
  });

  it('should reject input that is neither a message list nor markdown', async () => {
    for (const bad of [42, null, { info: {} }]) {
      expect(await createExtractionEngine(inline).extract(bad)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    }
  });

  it('should fail as soon as one batch fails, not when the other batches have waited for workers that keep dying', async () => {
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    // The first batch's worker dies; the others wait for workers that never come, until the test lets them.
    const dying: TaskRunner = {
      run: (async (name: Parameters<TaskRunner['run']>[0], input: never, controls: never) => {
        if (name !== 'analyzeUnits') return inline.run(name, input, controls);
        calls += 1;
        if (calls === 1) return { ok: false, error: { code: 'WORKER_CRASHED', message: 'worker exited' } };
        await gate;
        return inline.run(name, input, controls);
      }) as TaskRunner['run'],
    };
    const extraction = createExtractionEngine(dying).extract(conversation, { settings: { batchChars: 1 } });
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([extraction, new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), 5_000)))]);
    clearTimeout(timer);
    release();
    expect(calls).toBeGreaterThan(1);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'WORKER_CRASHED' } });
  });

  it('should hand the thread back between the per-message results and the final pass once a slice is spent', async () => {
    // Whether a turn of the event loop came between the last batch's result and the final pass's start.
    let turned = false;
    const turns: boolean[] = [];
    const watched: TaskRunner = {
      ...pool,
      run: ((task, input, controls) => {
        if (task === 'finalizeExtraction') turns.push(turned);
        const running = pool.run(task, input, controls);
        if (task !== 'analyzeUnits') return running;
        return running.then((result) => {
          turned = false;
          setImmediate(() => {
            turned = true;
          });
          return result;
        });
      }) as TaskRunner['run'],
    };
    // Every slice is spent as soon as it starts.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 10));
    try {
      const result = await createExtractionEngine(watched).extract(conversation);
      expect(result.ok).toBe(true);
    } finally {
      clock.mockRestore();
    }
    expect(turns).toEqual([true]);
  });

  it('should report an aborted extraction as an error value', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await createExtractionEngine(pool).extract(conversation, { signal: controller.signal });
    expect(result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
  });
});
