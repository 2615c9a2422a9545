/**
 * The whole compacting hook, as OpenCode runs it: read the session from the
 * host, extract in the pool, fit the context, and write the compaction note
 * through the maenifold CLI double (a real process per write).
 */
import { performance } from 'node:perf_hooks';
import { maxLoopDelay } from './loop-delay.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMaenifoldPlugin } from '../src/main/plugin/create-plugin.js';
import type { SessionExport } from '../src/core/session-types.js';
import { growSession } from '../src/synth/session-generator.js';
import { createDoubleRoot } from '../support/maenifold-double.js';
import { createFakeHost } from '../support/fake-host.js';

/** Figures of one size. */
export interface HookFigures {
  /** Until the hook returns with the context injected (cold cache: a new plugin per run). */
  compacting_hook_p50_ms: number;
  /** Until the compaction note is written as well. */
  compacting_hook_with_write_p50_ms: number;
  /** The hook again once the session grew by 100 KB (per-message cache warm). */
  compacting_hook_repeat_p50_ms: number;
  /** The hook thread's longest stall from the cold hook's call until its note is written (worst run). */
  compacting_hook_stall_max_ms: number;
  /** The same for the warm hook. */
  compacting_hook_repeat_stall_max_ms: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * @param session - the session the fake host serves.
 * @param runs - plugins started, each measured once cold and once warm (after the session grew by 100 KB).
 */
export async function benchCompactingHook(session: SessionExport, runs: number): Promise<HookFigures> {
  const double = await createDoubleRoot();
  const stateDir = await mkdtemp(join(tmpdir(), 'maenifold-bench-'));
  const hook: number[] = [];
  const withWrite: number[] = [];
  const repeat: number[] = [];
  const stall: number[] = [];
  const grown = growSession(session, 100 * 1024, 4_242);
  const repeatStall: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const host = createFakeHost({ serialize: true });
      host.setMessages('ses_bench', session.messages);
      const plugin = await createMaenifoldPlugin({ client: host.client, worktree: '/home/user/project' }, { sessionStart: false }, {
        ...process.env,
        ...double.env,
        MAENIFOLD_STATE_DIR: stateDir,
      });
      try {
        await plugin.pool?.ready;
        const compacting = plugin.hooks['experimental.session.compacting'];
        if (!compacting) throw new Error('the compacting hook is not registered');
        const output = { context: [] as string[] };
        stall.push(
          await maxLoopDelay(async () => {
            const start = performance.now();
            await compacting({ sessionID: 'ses_bench' }, output);
            hook.push(performance.now() - start);
            await plugin.background.idle();
            withWrite.push(performance.now() - start);
          }),
        );
        if (output.context.length < 2) throw new Error('no preservation context was injected');
        repeatStall.push(
          await maxLoopDelay(async () => {
            host.setMessages('ses_bench', grown.messages);
            const again = performance.now();
            await compacting({ sessionID: 'ses_bench' }, { context: [] });
            repeat.push(performance.now() - again);
            await plugin.background.idle();
          }),
        );
      } finally {
        await plugin.dispose();
      }
    }
  } finally {
    await double.cleanup();
    await rm(stateDir, { recursive: true, force: true });
  }
  return {
    compacting_hook_p50_ms: median(hook),
    compacting_hook_with_write_p50_ms: median(withWrite),
    compacting_hook_repeat_p50_ms: median(repeat),
    compacting_hook_stall_max_ms: Math.max(...stall),
    compacting_hook_repeat_stall_max_ms: Math.max(...repeatStall),
  };
}
