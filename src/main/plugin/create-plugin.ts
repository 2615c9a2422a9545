/**
 * The composition root: resolves options, finds the CLI, starts the warm
 * worker pool, and wires one handler per hook. Nothing here throws to the
 * host: a plugin that fails to start logs why and returns no hooks.
 */
import { basename } from 'node:path';
import { describeOptionIssue, resolvePluginOptions, type PluginOptions } from '../shared/plugin-options.js';
import { createLogger, type Logger } from '../shared/logger.js';
import { locateCli } from '../memory/cli/cli-locator.js';
import { createMaenifoldClient, type MemoryStore } from '../memory/cli/maenifold-client.js';
import { createFileStore, type FileStore } from '../memory/files/file-store.js';
import { homedir } from 'node:os';
import { createWorkerPool, type WorkerPool } from '../pool/worker-pool.js';
import { createFallbackRunner } from '../pool/fallback-runner.js';
import { createExtractionEngine } from '../compaction/extraction-engine.js';
import { createBackgroundWork, type BackgroundWork } from '../shared/background-work.js';
import { createChainStore } from '../memory/delivery/chain-store.js';
import { createOutbox } from '../memory/delivery/outbox.js';
import { createDelivery } from '../memory/delivery/delivery.js';
import { join } from 'node:path';
import { createSessionStart } from '../graph/session-start.js';
import { createTaskAugmentation } from '../graph/task-augmentation.js';
import { createCompaction } from '../compaction/compaction.js';
import { createSummaryPersistence } from '../summaries/summary-persistence.js';
import { createConfessionReport } from '../summaries/confession-report.js';
import type { Hooks } from '@opencode-ai/plugin';
import type { HostClient } from '../shared/host-client.js';
import { createWorkingSetTracker } from '../compaction/working-set-tracker.js';
import { createRuleSet, ruleFolders } from '../rules/rules.js';
import { createRulesInjection } from '../rules/rules-injection.js';
import type { PluginContext } from './plugin-context.js';
import { createFrames } from '../frames/frames.js';

/** What OpenCode passes to a plugin (the parts used here). */
export interface PluginInput {
  client: HostClient;
  directory?: string;
  worktree?: string;
}

/** The hooks the plugin registers. */
export interface MaenifoldHooks {
  event?: (input: { event: { type: string; properties?: Record<string, unknown> } }) => Promise<void>;
  'experimental.chat.system.transform'?: ReturnType<typeof createSessionStart>['hook'];
  'tool.execute.before'?: ReturnType<typeof createTaskAugmentation>;
  'tool.execute.after'?: ReturnType<typeof createConfessionReport>;
  'experimental.session.compacting'?: ReturnType<typeof createCompaction>;
  /** The goal-frame tools (`flame_push`, `flame_pop`, `flame_status`). */
  tool?: Hooks['tool'];
}

/** A started plugin: its hooks and the handles tests and shutdown need. */
export interface MaenifoldPlugin {
  hooks: MaenifoldHooks;
  options: PluginOptions;
  logger: Logger;
  background: BackgroundWork;
  pool: WorkerPool | null;
  /** Waits for background work, then stops the pool. */
  dispose(): Promise<void>;
}

/**
 * @param input - OpenCode's plugin input.
 * @param rawOptions - the options of the `[spec, options]` tuple.
 * @param env - the environment (options, CLI lookup, the CLI's own environment).
 */
export async function createMaenifoldPlugin(input: PluginInput, rawOptions?: unknown, env: NodeJS.ProcessEnv = process.env): Promise<MaenifoldPlugin> {
  const logger = createLogger(input?.client);
  const { options, issues } = resolvePluginOptions(rawOptions, env);
  for (const issue of issues) logger.warn(describeOptionIssue(issue));
  const background = createBackgroundWork((label, error) =>
    logger.error(`${label}: background work failed: ${(error as Error)?.message ?? String(error)}`),
  );
  const inert: MaenifoldPlugin = { hooks: {}, options, logger, background, pool: null, dispose: async () => undefined };
  if (!options.enabled) {
    logger.info('disabled by the enabled option');
    return inert;
  }
  try {
    const project = options.project || basename(input.worktree || input.directory || process.cwd()) || 'project';
    const location = locateCli(options.cli, env, input.directory || process.cwd());
    const useFiles = options.store === 'files' || (options.store === 'auto' && !location.found);
    const pool = createWorkerPool(options.pool);
    const runner = createFallbackRunner(pool, (name, reason) => logger.warn(`pool could not run ${name} (${reason}); ran it inline`));
    let files: FileStore | null = null;
    let cli: MemoryStore;
    if (useFiles) {
      const root = env['MAENIFOLD_ROOT'] || join(env['HOME'] || homedir(), 'maenifold');
      files = createFileStore({ root, stateDir: options.stateDir, runner, logger });
      cli = files;
      const why = location.found ? 'store option is files' : `maenifold CLI not found, looked at ${location.tried.length} places, last ${location.tried.at(-1) ?? 'none'}; set MAENIFOLD_CLI to use it`;
      logger.info(`store: built-in files under ${files.memoryDir} (${why}); project ${project}`);
    } else {
      cli = createMaenifoldClient(location, env);
      if (location.found) logger.info(`store: maenifold CLI ${location.path} (from ${location.source}); project ${project}`);
      else {
        logger.warn(
          `maenifold CLI not found (looked at ${location.tried.length} places, last ${location.tried.at(-1) ?? 'none'}) and the store option is maenifold; graph context, notes and summaries are off, compaction guidance still works. Set MAENIFOLD_CLI to its path.`,
        );
      }
    }
    const worktree = input.worktree || input.directory || process.cwd();
    // Paths relative to the worktree, as tools and rule globs name them.
    const engine = createExtractionEngine(runner, { projectRoot: worktree });
    const delivery = createDelivery({
      cli,
      outbox: createOutbox(join(options.stateDir, 'outbox'), { logger }),
      chains: createChainStore(options.stateDir, { logger }),
      logger,
      timeoutMs: options.persistTimeoutMs,
    });
    const context: PluginContext = {
      options,
      logger,
      cli,
      runner,
      engine,
      host: input.client,
      project,
      background,
      delivery,
      workingSet: createWorkingSetTracker(worktree),
      rules: createRuleSet(ruleFolders(env, worktree), logger),
    };
    const sessionStart = createSessionStart(context);
    const rulesInjection = createRulesInjection(context);
    const summaries = createSummaryPersistence(context);
    const confession = createConfessionReport(context);
    const frames = options.frames ? await createFrames(context, worktree, [...new Set([input.directory, worktree].filter((dir): dir is string => !!dir))], env) : null;
    const compaction = createCompaction(context);
    // Whatever an earlier run could not deliver.
    if (cli.available) background.run('outbox', () => delivery.flush());
    void pool.ready.then((ready) => {
      if (ready.ok) logger.debug(`worker pool ready: ${pool.options.threads} threads`);
      else logger.warn(`worker pool unavailable (${ready.error.message}); small inputs run inline, large ones are skipped`);
      if (options.sessionStart && cli.available) sessionStart.prepare();
    });
    return {
      hooks: {
        async event(input) {
          const { type, properties } = input?.event ?? { type: '' };
          // A deleted session's working set goes with it.
          if (type === 'session.deleted') {
            const info = properties?.['info'] as { id?: unknown } | undefined;
            if (typeof info?.id === 'string') context.workingSet.forget(info.id);
          }
          await summaries(input);
          await frames?.event(input);
        },
        async 'experimental.chat.system.transform'(input, output) {
          await sessionStart.hook(input, output);
          await rulesInjection(input, output);
          await frames?.systemTransform(input, output);
        },
        'tool.execute.before': createTaskAugmentation(context),
        async 'tool.execute.after'(input, output) {
          try {
            context.workingSet.record(input?.sessionID ?? '', input?.tool, input?.args);
          } catch (error) {
            logger.error(`working set: could not record ${String(input?.tool)}: ${(error as Error)?.message ?? String(error)}`);
          }
          await confession(input, output);
        },
        async 'experimental.session.compacting'(input, output) {
          await compaction(input, output);
          await frames?.compacting(input, output);
        },
        ...(frames?.tools ? { tool: frames.tools } : {}),
      },
      options,
      logger,
      background,
      pool,
      async dispose() {
        await background.idle();
        await files?.close();
        await pool.destroy();
        await logger.flush();
      },
    };
  } catch (error) {
    logger.error(`could not start, running without hooks: ${(error as Error)?.message ?? String(error)}`);
    return inert;
  }
}
