/**
 * Load: many sessions compacting at once through one plugin instance — the
 * queue stays bounded, every hook returns, memory stays bounded.
 */
import { performance } from 'node:perf_hooks';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMaenifoldPlugin } from '../src/main/plugin/create-plugin.js';
import { generateSession } from '../src/synth/session-generator.js';
import { createDoubleRoot } from '../support/maenifold-double.js';
import { createFakeHost } from '../support/fake-host.js';

/** Figures of one load run. */
export interface LoadFigures {
  sessions: number;
  session_bytes: number;
  /** Hooks that returned with a preservation context. */
  with_context: number;
  hook_p50_ms: number;
  hook_p99_ms: number;
  wall_ms: number;
  /** Session megabytes compacted per second of wall time. */
  throughput_mb_s: number;
  /** Notes written once the hooks returned (all of them, through the outbox). */
  notes_written: number;
  peak_rss_mb: number;
  max_queued_tasks: number;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number;
}

/**
 * @param sessions - how many sessions compact at once.
 * @param bytes - size of each.
 */
export async function benchLoad(sessions: number, bytes: number): Promise<LoadFigures> {
  const double = await createDoubleRoot();
  const stateDir = await mkdtemp(join(tmpdir(), 'maenifold-load-'));
  const host = createFakeHost();
  for (let index = 0; index < sessions; index++) host.setMessages(`ses_${index}`, generateSession({ seed: 100 + index, targetBytes: bytes }).messages);
  const plugin = await createMaenifoldPlugin({ client: host.client, worktree: '/home/user/project' }, { sessionStart: false }, {
    ...process.env,
    ...double.env,
    MAENIFOLD_STATE_DIR: stateDir,
  });
  let peakRss = process.memoryUsage.rss();
  let maxQueued = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    maxQueued = Math.max(maxQueued, plugin.pool?.stats().queued ?? 0);
  }, 10);
  try {
    await plugin.pool?.ready;
    const compacting = plugin.hooks['experimental.session.compacting'];
    if (!compacting) throw new Error('the compacting hook is not registered');
    const start = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: sessions }, async (_, index) => {
        const output = { context: [] as string[] };
        const began = performance.now();
        await compacting({ sessionID: `ses_${index}` }, output);
        return { ms: performance.now() - began, withContext: output.context.length > 1 };
      }),
    );
    const wall = performance.now() - start;
    await plugin.background.idle();
    const notes = (await double.calls()).filter((call) => call.tool === 'WriteMemory').length;
    const times = outcomes.map((outcome) => outcome.ms);
    return {
      sessions,
      session_bytes: bytes,
      with_context: outcomes.filter((outcome) => outcome.withContext).length,
      hook_p50_ms: percentile(times, 0.5),
      hook_p99_ms: percentile(times, 0.99),
      wall_ms: wall,
      throughput_mb_s: (sessions * bytes) / 2 ** 20 / (wall / 1000),
      notes_written: notes,
      peak_rss_mb: Math.round(peakRss / 2 ** 20),
      max_queued_tasks: maxQueued,
    };
  } finally {
    clearInterval(sampler);
    await plugin.dispose();
    await double.cleanup();
    await rm(stateDir, { recursive: true, force: true });
  }
}
