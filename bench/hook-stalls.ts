/**
 * `npx tsx bench/hook-stalls.ts [SIZE] [v1|v2]`: the whole compacting hook on a generated session, cold and
 * after 100 KB more, with the hook thread's longest stalls and, under Node, the functions whose samples
 * fill each one (a CPU profile of the hook thread only). What `npm run profile` leaves out of the hook
 * thread — the session's pages, the window kept for the next compaction, the note's write through the
 * CLI — shows here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSession, growSession } from '../src/synth/session-generator.js';
import { parseSize } from '../src/synth/session-size.js';
import { createThreadProfiler, epochNow, samplesOf, type TimedProfile } from '../src/profile/cpu-profile.js';
import { frameLocation } from '../src/profile/top-functions.js';
import { createDoubleRoot } from '../support/maenifold-double.js';
import { hookDriver, type HostShape } from './compacting-hook.bench.js';
import { loopDelayTimeline } from './loop-delay.js';

/** Functions whose self time is always printed, found or not. */
const WATCHED = ['spawn', 'feed', 'feedBounded', 'contentKey', 'readable', 'keptCopies', 'remember', 'recentItems'];

interface Stall {
  /** Epoch milliseconds the stall ended (the timer fired). */
  end: number;
  ms: number;
}

function selfTimes(timed: TimedProfile, from: number, to: number): { name: string; ms: number }[] {
  const nodes = new Map(timed.profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  for (const sample of samplesOf(timed)) {
    if (sample.at < from || sample.at >= to) continue;
    const frame = nodes.get(sample.node)?.callFrame;
    if (!frame || frame.functionName === '(idle)' || frame.functionName === '(root)' || frame.functionName === '(program)') continue;
    const key = `${frame.functionName || '(anonymous)'} ${frameLocation(frame)}`;
    totals.set(key, (totals.get(key) ?? 0) + sample.ms);
  }
  return [...totals.entries()].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

async function main(): Promise<void> {
  const bytes = parseSize(process.argv[2] ?? '10MB');
  const session = generateSession({ seed: 1, targetBytes: bytes });
  const grown = growSession(session, 100 * 1024, 4_242);
  const double = await createDoubleRoot();
  const stateDir = await mkdtemp(join(tmpdir(), 'maenifold-stalls-'));
  const profiler = await createThreadProfiler(250).catch(() => null);
  const shape = (process.argv[3] ?? 'v1') as HostShape;
  const driver = await hookDriver(shape, { ...process.env, ...double.env, MAENIFOLD_STATE_DIR: stateDir }, double);
  try {
    driver.setMessages(session.messages);
    for (const phase of ['cold', 'incremental'] as const) {
      if (phase === 'incremental') driver.setMessages(grown.messages);
      await profiler?.start();
      const origin = epochNow();
      let hookMs = 0;
      const { max, timeline } = await loopDelayTimeline(async () => {
        const start = performance.now();
        await driver.compact();
        hookMs = performance.now() - start;
        await driver.idle();
      });
      const timed = await profiler?.stop();
      const stalls: Stall[] = timeline.at.map((at, index) => ({ end: origin + at, ms: timeline.delay[index] ?? 0 })).sort((a, b) => b.ms - a.ms).slice(0, 5);
      console.log(`── ${shape} ${phase}: hook ${hookMs.toFixed(1)} ms, worst stall ${max.toFixed(1)} ms`);
      for (const stall of stalls) {
        const parts = timed ? selfTimes(timed, stall.end - stall.ms - 1, stall.end).slice(0, 6).map((entry) => `${entry.ms.toFixed(1)} ${entry.name}`) : [];
        console.log(`  stall ${stall.ms.toFixed(1)} ms${parts.length ? `: ${parts.join(' · ')}` : ''}`);
      }
      if (timed) {
        const all = selfTimes(timed, origin, epochNow());
        const total = all.reduce((sum, entry) => sum + entry.ms, 0);
        console.log(`  hook thread self time ${total.toFixed(1)} ms; top:`);
        for (const entry of all.slice(0, 12)) console.log(`    ${entry.ms.toFixed(1).padStart(6)} ms  ${entry.name}`);
        // The hook-thread costs named in the profiles before: the fork of a spawn, the content key, the kept copies.
        const watched = WATCHED.map((name) => `${name} ${all.filter((entry) => entry.name.split(' ')[0] === name).reduce((sum, entry) => sum + entry.ms, 0).toFixed(1)}`);
        console.log(`  watched (ms): ${watched.join(' · ')}`);
      }
    }
  } finally {
    await driver.dispose();
    await double.cleanup();
    await rm(stateDir, { recursive: true, force: true });
  }
}

await main();
