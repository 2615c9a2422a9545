/**
 * The OpenCode 2.x adapter's entry: `setup(ctx)`, once per project folder
 * (2.x boots a setup per location in one background service). Each setup is
 * its own instance of the plugin — its project, store, state and log — and
 * keeps nothing in module variables; only the worker pool is shared on
 * purpose between the instances of a process, and stops with the last one.
 * The cleanup it returns unregisters the hooks and runs the plugin's bounded
 * shutdown.
 *
 * OpenCode 1.18.33 calls `setup` too, from its 2.0 preview loader, with a
 * context that has no `session` or `tool`: there the 1.x entry is the one
 * that runs, and this one does nothing.
 */
import { join } from 'node:path';
import { createMaenifoldPlugin, hooksForHost, type PluginSeams } from '../../plugin/create-plugin.js';
import { resolvePluginOptions } from '../../options/plugin-options.js';
import { createLogger, errorText } from '../../shared/logger.js';
import { withDeadline } from '../../shared/deadline.js';
import { createFileLog } from './file-log.js';
import { createStableSystem } from './stable-system.js';
import { createV2Client, type CompactionHistories } from './v2-client.js';
import { registerV2Hooks } from './v2-hooks.js';
import { processPools } from './shared-pools.js';
import type { V2Cleanup, V2PluginContext } from './opencode-v2.js';

/** The log file's name in the state folder. */
export const LOG_FILE_NAME = 'maenifold.log';

/** How long the cleanup waits for the log's last lines after the plugin's own shutdown. */
export const LOG_DRAIN_MS = 5_000;

/** The log file of an instance: `<stateDir>/maenifold.log`. */
export function logFileFor(rawOptions: unknown, env: NodeJS.ProcessEnv): string {
  return join(resolvePluginOptions(rawOptions, env).options.stateDir, LOG_FILE_NAME);
}

/**
 * @param ctx - 2.x's plugin context.
 * @param env - the environment.
 * @param seams - parts built by the caller (tests); the process's shared pools by default.
 * @returns the cleanup 2.x awaits on unload; never rejects, nor does `setup`.
 */
export async function setupV2(ctx: V2PluginContext, env: NodeJS.ProcessEnv = process.env, seams: PluginSeams = { pools: processPools }): Promise<V2Cleanup> {
  const { session, tool } = ctx ?? {};
  // The 1.18.33 preview loader: the 1.x entry serves this project.
  if (!session || !tool) return () => undefined;
  const log = createFileLog(logFileFor(ctx.options, env));
  try {
    const directory = ctx.location?.directory || process.cwd();
    const histories: CompactionHistories = new Map();
    const stable = createStableSystem();
    const client = createV2Client({ session, app: ctx.app, log, histories });
    const host = { line: 'v2' as const, version: typeof ctx.app?.version === 'string' ? ctx.app.version : null };
    const plugin = await createMaenifoldPlugin({ client, directory, worktree: ctx.location?.project?.worktree || directory, host }, ctx.options, env, seams);
    const hooks = hooksForHost(plugin);
    const registration = await registerV2Hooks({ ctx: { session, tool, event: ctx.event }, hooks, logger: plugin.logger, histories, stable });
    let closing: Promise<void> | null = null;
    return () => {
      closing ??= (async () => {
        await registration.close();
        await hooks.dispose?.();
        await withDeadline(log.drain(), LOG_DRAIN_MS);
      })().catch(() => undefined);
      return closing;
    };
  } catch (error) {
    createLogger(log).error(`could not start, running without hooks: ${errorText(error)}`);
    await withDeadline(log.drain(), LOG_DRAIN_MS);
    return () => undefined;
  }
}
