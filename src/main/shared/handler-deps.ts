/**
 * What every handler factory starts from: the plugin's options and logger,
 * which each handler's own deps extend with the few other parts it reads,
 * and the one step each factory takes first, scoping the logger to its hook
 * so that every line a handler logs names the hook it came from.
 */
import type { Logger } from './logger.js';
import type { PluginOptions } from './plugin-options.js';

/** The parts every handler uses; a handler's deps add the others it reads. */
export interface HandlerDeps {
  options: PluginOptions;
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
