/**
 * The composition root: resolves options, finds the CLI, starts the warm
 * worker pool, builds each feature's handlers from the parts and the options
 * they declare, and hands them to compose-hooks.ts. Nothing here throws to
 * the host: a plugin that fails to start logs why and returns no hooks.
 */
import { resolveProject } from '../shared/project.js';
import { describeOptionIssue } from '../options/option-issues.js';
import { resolvePluginOptions, type PluginOptions } from '../options/plugin-options.js';
import { createLogger, errorText, type Logger } from '../shared/logger.js';
import { locateCli } from '../memory/cli/cli-locator.js';
import { createMaenifoldClient } from '../memory/cli/maenifold-client.js';
import { holdProcessRunner } from '../memory/cli/process-runner.js';
import type { MemoryPort } from '../memory/memory-port.js';
import { countingWrites } from '../memory/counting-writes.js';
import { createFileStore, type FileStore } from '../memory/files/file-store.js';
import { homedir } from 'node:os';
import { createWorkerPool, type WarmUpStart, type WorkerPool } from '../pool/worker-pool.js';
import type { PriorityOutcome } from '../../workers/protocol.js';
import { createFallbackRunner } from '../pool/fallback-runner.js';
import { createWindowMemory } from '../compaction/window-memory.js';
import { createExtractionEngine } from '../compaction/extraction-engine.js';
import { createBackgroundWork, type BackgroundWork } from '../shared/background-work.js';
import { createChainStore } from '../memory/delivery/chain-store.js';
import { createOutbox } from '../memory/delivery/outbox.js';
import { createDelivery } from '../memory/delivery/delivery.js';
import { join } from 'node:path';
import { createSessionStart, SESSION_START_OPTIONS } from '../graph/session-start.js';
import { createTaskAugmentation, TASK_AUGMENTATION_OPTIONS } from '../graph/task-augmentation.js';
import { COMPACTION_OPTIONS, createCompaction } from '../compaction/compaction.js';
import { createSummaryPersistence, SUMMARY_PERSISTENCE_OPTIONS } from '../summaries/summary-persistence.js';
import { createCompactedSummaries } from '../summaries/compacted-summary.js';
import { createSessionItems } from '../compaction/session-items.js';
import { CONFESSION_REPORT_OPTIONS, createConfessionReport } from '../summaries/confession-report.js';
import { optionSlice } from '../shared/handler-deps.js';
import type { HostIdentity, HostPort } from '../host/host-port.js';
import { createWorkingSetTracker } from '../working-set/working-set-tracker.js';
import { createRuleSet, ruleFolders } from '../rules/rules.js';
import { createRulesInjection, RULES_INJECTION_OPTIONS } from '../rules/rules-injection.js';
import { createFrames, FRAMES_OPTIONS } from '../frames/frames.js';
import { hookBudgets } from './hook-budgets.js';
import { withDeadline } from '../shared/deadline.js';
import { composeHooks, type MaenifoldHooks } from './compose-hooks.js';
import { createWorkingSetHooks } from '../working-set/working-set-hooks.js';
import { createWindowForgetting } from '../compaction/window-forgetting.js';
import { createDigestUpdater } from '../memory/digest/digest-updater.js';
import { digestRefresher } from '../memory/digest/digest-refresh.js';
import { writtenMarkFile } from '../memory/written-mark.js';
import { createHostStart } from './host-start.js';

/** How the workers' priority is told in the log. */
function priorityText(priority: PriorityOutcome | null): string {
  if (priority === null) return 'priority not reported (no warm-up)';
  return priority.kind === 'lowered' ? `running at nice ${priority.nice}` : `at the host's priority (${priority.reason})`;
}

/** How long shutdown waits for each of the file store, the pool and the log after background work. */
export const SHUTDOWN_STEP_MS = 5_000;

/** What the plugin is started with: the host port, as an adapter built it from its OpenCode's input. */
export type PluginInput = HostPort;

/** How the start line names the host. */
export function hostText(host: HostIdentity | undefined): string {
  if (host?.line === 'v2') return `OpenCode ${host.version ?? '2.x'} (2.x plugin API)`;
  return 'OpenCode 1.x (server plugin API)';
}

/**
 * Parts a caller may hand the plugin instead of letting it build them. OpenCode passes none; the
 * hook tests use them to pay for a worker's start once per file, or once per run, instead of once
 * per plugin.
 */
export interface PluginSeams {
  /**
   * The worker module of the pool the plugin starts.
   * @default resolveWorkerFile()
   */
  workerFile?: string;
  /** A started pool to run tasks on instead of starting one. Its owner stops it: `dispose` leaves it running. */
  pool?: WorkerPool;
  /**
   * Where the pool comes from when several instances of the plugin share a process (2.x boots one per
   * project folder): `acquire` hands out a pool for these options, `release` gives it back at `dispose`.
   */
  pools?: { acquire(options: PluginOptions['pool'], workerFile?: string, warmUpStart?: WarmUpStart): WorkerPool; release(pool: WorkerPool): Promise<void> };
}

/** A started plugin: its hooks and the handles tests and shutdown need. */
export interface MaenifoldPlugin {
  hooks: MaenifoldHooks;
  options: PluginOptions;
  logger: Logger;
  background: BackgroundWork;
  pool: WorkerPool | null;
  /** Waits for background work (at most `persistTimeoutMs`), then stops the file store and the pool; each step bounded. */
  dispose(): Promise<void>;
}

/**
 * @param input - OpenCode's plugin input.
 * @param rawOptions - the options of the `[spec, options]` tuple.
 * @param env - the environment (options, CLI lookup, the CLI's own environment).
 * @param seams - parts built by the caller (tests); none in production.
 */
export async function createMaenifoldPlugin(input: PluginInput, rawOptions?: unknown, env: NodeJS.ProcessEnv = process.env, seams: PluginSeams = {}): Promise<MaenifoldPlugin> {
  const logger = createLogger(input?.client);
  const { options, issues } = resolvePluginOptions(rawOptions, env);
  for (const issue of issues) logger.warn(describeOptionIssue(issue));
  const background = createBackgroundWork((label, error) =>
    logger.error(`${label}: background work failed: ${errorText(error)}`),
  );
  const inert: MaenifoldPlugin = { hooks: {}, options, logger, background, pool: null, dispose: async () => undefined };
  if (!options.enabled) {
    logger.info('disabled by the enabled option');
    return inert;
  }
  try {
    const project = resolveProject(options.project, input.worktree || input.directory || process.cwd());
    const location = locateCli(options.cli, env, input.directory || process.cwd());
    const useFiles = options.store === 'files' || (options.store === 'auto' && !location.found);
    // The pool's workers and warm-up wait for the host's start (host-start.ts): OpenCode is busy starting
    // until then, and the first prompt would wait for the cores they hold.
    const hostStart = createHostStart();
    const warmUpStart: WarmUpStart = { after: hostStart.settled };
    const pool = seams.pool ?? seams.pools?.acquire(options.pool, seams.workerFile, warmUpStart) ?? createWorkerPool(options.pool, seams.workerFile, warmUpStart);
    const runner = createFallbackRunner(pool, (name, reason) => logger.warn(`pool could not run ${name} (${reason}); ran it inline`));
    let files: FileStore | null = null;
    let memory: MemoryPort;
    let releaseRunner: () => Promise<void> = async () => undefined;
    // Every write that lands stamps the state folder's mark: a block saved before it no longer answers unread.
    const mark = writtenMarkFile(options.stateDir);
    if (useFiles) {
      const root = env['MAENIFOLD_ROOT'] || join(env['HOME'] || homedir(), 'maenifold');
      files = createFileStore({ root, stateDir: options.stateDir, runner, logger });
      memory = countingWrites(files, mark);
      const why = location.found ? 'store option is files' : `maenifold CLI not found, looked at ${location.tried.length} places, last ${location.tried.at(-1) ?? 'none'}; set MAENIFOLD_CLI to use it`;
      logger.info(`store: built-in files under ${files.memoryDir} (${why}); project ${project.name} (${project.key}, memory scope ${options.memoryScope}); ${hostText(input.host)}`);
    } else {
      memory = countingWrites(createMaenifoldClient(location, env), mark);
      if (location.found) {
        logger.info(`store: maenifold CLI ${location.path} (from ${location.source}); project ${project.name} (${project.key}, memory scope ${options.memoryScope}); ${hostText(input.host)}`);
        // The thread the CLI is started from starts now, not inside the first hook that writes; dispose lets it go.
        releaseRunner = holdProcessRunner();
      } else {
        logger.warn(
          `maenifold CLI not found (looked at ${location.tried.length} places, last ${location.tried.at(-1) ?? 'none'}) and the store option is maenifold; graph context, notes and summaries are off, compaction guidance still works. Set MAENIFOLD_CLI to its path.`,
        );
      }
    }
    const worktree = input.worktree || input.directory || process.cwd();
    // Paths relative to the worktree, as tools and rule globs name them.
    const engine = createExtractionEngine(runner, { projectRoot: worktree });
    const chains = createChainStore(options.stateDir, { logger });
    const delivery = createDelivery({
      memory,
      outbox: createOutbox(join(options.stateDir, 'outbox'), { logger }),
      chains,
      logger,
      timeoutMs: options.persistTimeoutMs,
    });
    const digest = digestRefresher(createDigestUpdater({ memory, project, stateDir: options.stateDir, logger, timeoutMs: options.persistTimeoutMs, runner }), background, logger);
    // The compaction's pass waits for its summary, which starts it: one pass per compaction. With summaries
    // off no summary is read, so nothing would end the wait: the note starts its pass.
    const deferDigest = (sessionID: string): void => (options.summaries ? digest.defer(sessionID) : digest.summarized(sessionID, true));
    const refreshDigest = (sessionID: string, noteHanded: boolean): void => digest.summarized(sessionID, noteHanded);
    // Each handler gets the parts it declares and the options it reads, nothing more.
    const host = input.client;
    const workingSet = createWorkingSetTracker(worktree);
    const windows = createWindowMemory();
    const sessionItems = createSessionItems();
    const compacted = createCompactedSummaries(host);
    const sessionStart = createSessionStart({ options: optionSlice(options, SESSION_START_OPTIONS), logger, memory, runner, project, chains, background });
    const rulesInjection = createRulesInjection({ options: optionSlice(options, RULES_INJECTION_OPTIONS), logger, workingSet, rules: createRuleSet(ruleFolders(env, worktree), logger) });
    const taskAugmentation = createTaskAugmentation({ options: optionSlice(options, TASK_AUGMENTATION_OPTIONS), logger, memory, runner, project, chains });
    const summaries = createSummaryPersistence({ options: optionSlice(options, SUMMARY_PERSISTENCE_OPTIONS), logger, memory, runner, summaries: compacted, project, background, delivery, refreshDigest, sessionItems });
    const confession = createConfessionReport({ options: optionSlice(options, CONFESSION_REPORT_OPTIONS), logger, host });
    const frames = options.frames ? createFrames({ options: optionSlice(options, FRAMES_OPTIONS), logger, runner, host, background, workingSet, summaries: compacted }, worktree) : null;
    const compaction = createCompaction({ options: optionSlice(options, COMPACTION_OPTIONS), logger, memory, runner, engine, host, project, background, delivery, workingSet, windows, refreshDigest: deferDigest, sessionItems });
    // Whatever an earlier run could not deliver, once the host has started: its writes would take the cores.
    // Until then nothing is running, so shutdown does not wait for it; what is not delivered waits in the outbox.
    let stopping = false;
    if (memory.available) {
      void hostStart.settled.then(() => {
        if (!stopping) background.run('outbox', () => delivery.flush());
      });
    }
    // Started now, ahead of the first session. While the saved block answers (nothing written since its reads)
    // its reads wait for the host's start; when it does not, they start at once (and their tasks start the workers).
    if (options.sessionStart && memory.available) sessionStart.prepare(hostStart.settled);
    void pool.ready.then((ready) => {
      if (ready.ok) logger.debug(`worker pool ready: ${pool.options.threads} threads, ${priorityText(ready.value.priority)}`);
      else logger.warn(`worker pool unavailable (${ready.error.message}); small inputs run inline, large ones are skipped`);
      // A build that ran out of time while the workers started is built again (a fresh one is kept).
      if (options.sessionStart && memory.available) sessionStart.prepare();
    });
    return {
      hooks: composeHooks(
        {
          sessionStart: async (input, output) => {
            try {
              await sessionStart.hook(input, output);
            } finally {
              hostStart.workCall();
            }
          },
          hostStart,
          sessionStartEvent: (event) => sessionStart.event(event),
          rules: rulesInjection,
          taskAugmentation,
          workingSet: createWorkingSetHooks({ logger, workingSet }),
          confession,
          compaction,
          windowForgetting: createWindowForgetting(windows),
          summaries,
          frames,
        },
        hookBudgets(options),
        logger,
      ),
      options,
      logger,
      background,
      pool,
      async dispose() {
        stopping = true;
        // A build still waiting for the host's start ends unread.
        sessionStart.close();
        // A background job may wait on a host or disk that never answers: shutdown stops waiting for it.
        // What was not delivered by then stays in the outbox for the next start.
        // A digest pass waiting for a summary goes now, its notes written: shutdown waits for it as for the rest.
        digest.flush();
        const idle = await withDeadline(background.idle(), options.persistTimeoutMs);
        if (!idle.done) {
          logger.warn(`shutdown: stopped waiting for background work after ${options.persistTimeoutMs} ms; still running: ${background.pendingLabels().join(', ') || 'none'}`);
        }
        for (const [what, step] of [
          // A digest pass still running stops at its store call and lets its lock go: the next start folds what it did not.
          ['memory digest', () => digest.close()],
          ['entries held in memory', () => delivery.close()],
          ['file store index', () => files?.close()],
          ['worker pool', () => (seams.pool ? undefined : seams.pools ? seams.pools.release(pool) : pool.destroy())],
          ['process runner', () => releaseRunner()],
        ] as const) {
          const done = await withDeadline(Promise.resolve().then(step), SHUTDOWN_STEP_MS);
          if (!done.done) logger.warn(`shutdown: ${what} ${done.reason === 'timeout' ? `did not stop within ${SHUTDOWN_STEP_MS} ms` : `failed to stop: ${errorText(done.error)}`}`);
        }
        // Last: the host may never take the lines.
        await withDeadline(logger.flush(), SHUTDOWN_STEP_MS);
      },
    };
  } catch (error) {
    logger.error(`could not start, running without hooks: ${errorText(error)}`);
    return inert;
  }
}

/**
 * The hooks handed to OpenCode: the plugin's, and `dispose`, which OpenCode awaits (plugin by plugin)
 * when it shuts the instance down. Without it, the background work (a summary on its way to the outbox,
 * a note being written) is cut wherever it stands when the process exits. `dispose` runs
 * {@link MaenifoldPlugin.dispose} once, whoever calls it again, is bounded as that is, and never rejects.
 *
 * @param plugin - a started plugin.
 */
export function hooksForHost(plugin: MaenifoldPlugin): MaenifoldHooks {
  let stopping: Promise<void> | null = null;
  const dispose = (): Promise<void> => {
    stopping ??= Promise.resolve()
      .then(() => plugin.dispose())
      .catch((error: unknown) => {
        // The host is shutting down: the line is all that can be done.
        plugin.logger.error(`shutdown: ${errorText(error)}`);
      });
    return stopping;
  };
  // A disabled plugin has nothing to wait for: it registers no hooks at all.
  return Object.keys(plugin.hooks).length === 0 ? plugin.hooks : { ...plugin.hooks, dispose };
}
