/**
 * The whole compacting hook, as OpenCode runs it: read the session from the
 * host, extract in the pool, fit the context, and write the compaction note
 * through the maenifold CLI double (a real process per write). Through either
 * host shape: 1.x (`createMaenifoldPlugin` over the fake host, as `serveV1`
 * builds it) or 2.x (the package's `setup` entry booted in the contract host of
 * support/opencode-v2/, the session read over its loopback message pages).
 */
import { performance } from 'node:perf_hooks';
import { maxLoopDelay } from './loop-delay.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMaenifoldPlugin } from '../src/main/plugin/create-plugin.js';
import type { SessionExport } from '../src/core/session-types.js';
import { growSession } from '../src/synth/session-generator.js';
import { createDoubleRoot } from '../support/maenifold-double.js';
import { createFakeHost } from '../support/fake-host.js';
import entry from '../plugin/maenifold.js';
import { startV2Service } from '../support/opencode-v2/service.js';
import type { StoredMessage } from '../support/opencode-v2/session-store.js';
import { LOG_FILE_NAME } from '../src/main/host/v2/setup.js';

/** The host shapes the hook can be driven through; see the module's comment. */
export type HostShape = 'v1' | 'v2';

/** What the measurement asks of a plugin under one host shape. */
export interface HookDriver {
  setMessages(messages: unknown[]): void;
  /** Runs the compacting hook once; resolves to the context blocks it added. */
  compact(): Promise<number>;
  /** Until the compaction's background work (its note) is done. */
  idle(): Promise<void>;
  dispose(): Promise<void>;
}

const SESSION_ID = 'ses_bench';
const WORKTREE = '/home/user/project';

async function v1Driver(env: NodeJS.ProcessEnv): Promise<HookDriver> {
  const host = createFakeHost({ serialize: true });
  const plugin = await createMaenifoldPlugin({ client: host.client, worktree: WORKTREE }, { sessionStart: false }, env);
  await plugin.pool?.ready;
  const compacting = plugin.hooks['experimental.session.compacting'];
  if (!compacting) throw new Error('the compacting hook is not registered');
  return {
    setMessages: (messages) => host.setMessages(SESSION_ID, messages),
    async compact() {
      const output = { context: [] as string[] };
      await compacting({ sessionID: SESSION_ID }, output);
      return output.context.length;
    },
    idle: () => plugin.background.idle(),
    dispose: () => plugin.dispose(),
  };
}

/**
 * A new plugin under `shape`, its pool warm, serving the session `ses_bench`.
 *
 * @param env - the plugin's environment: the double's and a state folder of its own.
 * @param double - the maenifold double the notes go to (its calls tell when a note was written).
 */
export function hookDriver(shape: HostShape, env: NodeJS.ProcessEnv, double: { calls(): Promise<unknown[]> }): Promise<HookDriver> {
  return shape === 'v1' ? v1Driver(env) : v2Driver(env, double);
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function v2Driver(env: NodeJS.ProcessEnv, double: { calls(): Promise<unknown[]> }): Promise<HookDriver> {
  const logFile = join(env['MAENIFOLD_STATE_DIR'] ?? '', LOG_FILE_NAME);
  // The 2.x setup reads its environment from the process, as in the service, for as long as it runs.
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const restore = (): void => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  };
  const service = await startV2Service();
  const location = await service.boot({ default: entry }, { directory: WORKTREE, options: { sessionStart: false } }).catch(async (error: unknown) => {
    await service.close();
    restore();
    throw error;
  });
  const session = service.sessions.get(SESSION_ID) ?? service.sessions.create(WORKTREE, { id: SESSION_ID });
  // The pool is the plugin's own: warm once the plugin's log says so, as the 1.x bench awaits `pool.ready`.
  for (let waited = 0; waited < 60_000; waited += 50) {
    if ((await readFile(logFile, 'utf8').catch(() => '')).includes('worker pool ready')) break;
    await pause(50);
  }
  let callsBefore = 0;
  return {
    setMessages(messages) {
      session.messages = messages as StoredMessage[];
    },
    async compact() {
      callsBefore = (await double.calls()).length;
      // The history the host hands over is left empty: building it is the host's work, not the plugin's, and the plugin reads the session's pages.
      const event = { sessionID: SESSION_ID, model: { providerID: 'bench', modelID: 'bench', id: 'bench/bench' }, system: [] as { type: 'text'; text: string }[], messages: [], options: {}, agent: 'compaction', tools: {} };
      await location.rawHook('compaction', event);
      return event.system.length;
    },
    async idle() {
      // The note's write is the CLI call the compaction leaves: waited for until the calls stop growing.
      let seen = callsBefore;
      for (let waited = 0; waited < 30_000; waited += 20) {
        await pause(20);
        const now = (await double.calls()).length;
        if (now > callsBefore && now === seen) return;
        seen = now;
      }
    },
    async dispose() {
      await service.close();
      restore();
    },
  };
}

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
  /**
   * The median over the runs of each run's longest stall, cold: the worst run's figure above is one sample
   * of a wide spread (a collection that lands inside a slice), this one the typical run.
   */
  compacting_hook_stall_p50_ms: number;
  /** The same for the warm hook. */
  compacting_hook_repeat_stall_p50_ms: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * @param session - the session the host serves.
 * @param runs - plugins started, each measured once cold and once warm (after the session grew by 100 KB).
 * @param shape - the host shape the hook is driven through.
 */
export async function benchCompactingHook(session: SessionExport, runs: number, shape: HostShape = 'v1'): Promise<HookFigures> {
  const double = await createDoubleRoot();
  const stateDir = await mkdtemp(join(tmpdir(), 'maenifold-bench-'));
  const hook: number[] = [];
  const withWrite: number[] = [];
  const repeat: number[] = [];
  const stall: number[] = [];
  const grown = growSession(session, 100 * 1024, 4_242);
  const repeatStall: number[] = [];
  const env = { ...process.env, ...double.env, MAENIFOLD_STATE_DIR: stateDir };
  try {
    for (let run = 0; run < runs; run++) {
      const driver = await hookDriver(shape, shape === 'v1' ? env : { ...env, MAENIFOLD_STATE_DIR: join(stateDir, `v2-${run}`) }, double);
      try {
        driver.setMessages(session.messages);
        let blocks = 0;
        stall.push(
          await maxLoopDelay(async () => {
            const start = performance.now();
            blocks = await driver.compact();
            hook.push(performance.now() - start);
            await driver.idle();
            withWrite.push(performance.now() - start);
          }),
        );
        if (blocks < 2) throw new Error(`no preservation context was injected (${shape} host)`);
        repeatStall.push(
          await maxLoopDelay(async () => {
            driver.setMessages(grown.messages);
            const again = performance.now();
            await driver.compact();
            repeat.push(performance.now() - again);
            await driver.idle();
          }),
        );
      } finally {
        await driver.dispose();
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
    compacting_hook_stall_p50_ms: median(stall),
    compacting_hook_repeat_stall_p50_ms: median(repeatStall),
  };
}
