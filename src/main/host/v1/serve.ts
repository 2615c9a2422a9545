/**
 * The OpenCode 1.x adapter: 1.x's `server(input, options)` is already the
 * port's vocabulary (its client pages messages, prompts and logs; its hooks
 * are the port's hooks), so this adapter only names the host, builds the
 * tools with 1.x's helper and adds `dispose`. 1.x names no kind of model
 * call, so the adapter tells its calls apart (see `call-kinds.ts`) and hands
 * each system-text call on with its kind.
 */
import { createMaenifoldPlugin, hooksForHost, type MaenifoldPlugin, type PluginSeams } from '../../plugin/create-plugin.js';
import type { HostClient, PluginHooks } from '../host-port.js';
import { withDeadline } from '../../shared/deadline.js';
import { errorText } from '../../shared/logger.js';
import { createV1CallKinds } from './call-kinds.js';
import { loadToolHelper } from './tool-helper.js';
import { toV1Tools, type V1Tool } from './v1-tools.js';

/** What OpenCode 1.x passes to `server` (the parts used here). */
export interface V1PluginInput {
  client: HostClient;
  directory?: string;
  worktree?: string;
}

/** The hooks handed to OpenCode 1.x: the port's, with the tools built by 1.x's helper. */
export type V1Hooks = Omit<PluginHooks, 'tool'> & { tool?: Record<string, V1Tool> };

/**
 * How long loading the tool helper may hold the plugin's start: importing a module from a project's
 * `.opencode/node_modules` reads the disk, and a plugin that never finishes loading leaves the host
 * waiting. A healthy import takes milliseconds.
 */
export const TOOL_HELPER_DEADLINE_MS = 5_000;

/**
 * The port's tools as 1.x tools, or none when 1.x's helper cannot be had; the log says which.
 *
 * @param plugin - a started plugin.
 * @param folders - where OpenCode keeps `.opencode/` for this project.
 * @param env - the environment.
 * @param load - finds the tool helper.
 * @param deadlineMs - how long finding it may take. @default TOOL_HELPER_DEADLINE_MS
 */
export async function v1Tools(
  plugin: MaenifoldPlugin,
  folders: readonly string[],
  env: NodeJS.ProcessEnv,
  load: typeof loadToolHelper = loadToolHelper,
  deadlineMs = TOOL_HELPER_DEADLINE_MS,
): Promise<Record<string, V1Tool> | null> {
  const tools = plugin.hooks.tool;
  if (!tools) return null;
  const { logger } = plugin;
  const loaded = await withDeadline(Promise.resolve().then(() => load(folders, env)), deadlineMs);
  const helper = loaded.done ? loaded.value : null;
  if (helper?.ok) {
    logger.info(`frames: flame_* tools built with the tool helper of ${helper.from}`);
    return toV1Tools(tools, helper.tool);
  }
  if (helper) logger.warn(`frames: @opencode-ai/plugin not found (tried ${helper.tried.join(', ')}); the flame_* tools are off`);
  else {
    const why = !loaded.done && loaded.reason === 'timeout' ? `did not finish within ${deadlineMs} ms` : `failed: ${errorText(loaded.done ? undefined : loaded.error)}`;
    logger.warn(`frames: loading @opencode-ai/plugin's tool helper ${why}; the flame_* tools are off`);
  }
  return null;
}

/**
 * The hooks with each system-text call's kind added, from the call itself and the session's compaction
 * hook and events. Hooks without a system transform (a disabled plugin) are returned as they are.
 *
 * @param hooks - the port's hooks.
 */
export function withCallKinds(hooks: PluginHooks): PluginHooks {
  const system = hooks['experimental.chat.system.transform'];
  if (!system) return hooks;
  const kinds = createV1CallKinds();
  const { event, 'experimental.session.compacting': compacting } = hooks;
  return {
    ...hooks,
    'experimental.chat.system.transform': (input, output) => system({ ...input, kind: kinds.kind(input, output?.system) }, output),
    'experimental.session.compacting': async (input, output) => {
      kinds.compacting(input?.sessionID);
      await compacting?.(input, output);
    },
    event: async (input) => {
      kinds.event(input);
      await event?.(input);
    },
  };
}

/**
 * 1.x's `server`: starts the plugin for the project OpenCode names and returns its hooks.
 *
 * @param input - OpenCode's plugin input.
 * @param options - the options of the `[spec, options]` tuple.
 * @param env - the environment.
 * @param seams - parts built by the caller (tests).
 */
export async function serveV1(input: V1PluginInput, options?: unknown, env: NodeJS.ProcessEnv = process.env, seams?: PluginSeams): Promise<V1Hooks> {
  const plugin = await createMaenifoldPlugin({ client: input?.client, directory: input?.directory, worktree: input?.worktree, host: { line: 'v1', version: null } }, options, env, seams);
  const hooks = withCallKinds(hooksForHost(plugin));
  const { tool: _portTools, ...rest } = hooks;
  if (!hooks.tool) return rest;
  const folders = [...new Set([input?.directory, input?.worktree].filter((dir): dir is string => !!dir))];
  const tools = await v1Tools(plugin, folders.length > 0 ? folders : [process.cwd()], env);
  return tools ? { ...rest, tool: tools } : rest;
}

