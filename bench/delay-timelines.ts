/**
 * The timelines `npm run bench -- --plot DIR` draws: the hook thread's 1 ms
 * timer (loop-delay.ts) through one extraction of a 10 MB session in the
 * worker pool and one inline on the hook thread, each after a warm-up run.
 */
import { createExtractionEngine } from '../src/main/compaction/extraction-engine.js';
import { createWorkerPool } from '../src/main/pool/worker-pool.js';
import { createInlineRunner } from '../src/main/pool/inline-runner.js';
import type { TaskRunner } from '../src/main/pool/task-runner.js';
import { generateSession } from '../src/synth/session-generator.js';
import { loopDelayTimeline, type DelayTimeline } from './loop-delay.js';
import { currentRuntime } from './runtimes.js';

/** One runtime's timelines, in the shape the Bun run prints for `--timelines`. */
export interface RuntimeTimelines {
  runtime: string;
  session_bytes: number;
  pool: DelayTimeline;
  inline: DelayTimeline;
}

async function extractOnce(runner: TaskRunner, session: unknown): Promise<void> {
  const result = await createExtractionEngine(runner).extract(session);
  if (!result.ok) throw new Error(`extraction failed: ${result.error.code} ${result.error.message}`);
}

/**
 * @param bytes - the session's size.
 * @param step - names each stage for the progress line.
 */
export async function measureTimelines(bytes: number, step: (text: string) => void = () => undefined): Promise<RuntimeTimelines> {
  const session = generateSession({ seed: 7, targetBytes: bytes });
  const pool = createWorkerPool();
  try {
    const ready = await pool.ready;
    if (!ready.ok) throw new Error(`pool did not start: ${ready.error.message}`);
    step('timeline: pooled extraction');
    await extractOnce(pool, session);
    const pooled = await loopDelayTimeline(() => extractOnce(pool, session));
    step('timeline: inline extraction');
    const inline = await createInlineRunner();
    await extractOnce(inline, session);
    const inlined = await loopDelayTimeline(() => extractOnce(inline, session));
    return { runtime: currentRuntime(), session_bytes: bytes, pool: pooled.timeline, inline: inlined.timeline };
  } finally {
    await pool.destroy();
  }
}
