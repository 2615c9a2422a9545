/**
 * What every handler factory starts from: its own slice of the plugin's
 * options and the logger, which each handler's own deps extend with the few
 * other parts it reads; the one step each factory takes first, scoping the
 * logger to its hook so that every line a handler logs names the hook it came
 * from; and the step the composition root takes to hand a handler only the
 * options it declares.
 */
import type { Logger } from './logger.js';
import type { PluginOptions } from '../options/plugin-options.js';

/** The parts every handler uses, `K` naming the options it reads; a handler's deps add the others it reads. */
export interface HandlerDeps<K extends keyof PluginOptions> {
  options: Pick<PluginOptions, K>;
  logger: Logger;
}

/**
 * The parts a handler was given, with its logger scoped to its hook.
 *
 * @param context - the parts the handler's factory received.
 * @param hook - the name its log lines carry as `hook`.
 */
export function forHook<D extends { logger: Logger }>(context: D, hook: string): D {
  return { ...context, logger: context.logger.with({ hook }) };
}

/**
 * The options a handler declares it reads, and no others.
 *
 * @param options - the resolved options.
 * @param keys - the handler's list of the options it reads.
 */
export function optionSlice<K extends keyof PluginOptions>(options: Pick<PluginOptions, K>, keys: readonly K[]): Pick<PluginOptions, K> {
  const slice = {} as Pick<PluginOptions, K>;
  for (const key of keys) slice[key] = options[key];
  return slice;
}
