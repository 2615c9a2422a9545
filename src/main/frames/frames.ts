/**
 * Goal frames wired together: the store, the tools, the
 * frame-aware compaction, the summary capture and the frame context, as the
 * hook parts the composition root adds to its own.
 */
import { createFrameStore, frameFileFor, type FrameStore } from './frame-store.js';
import { createFrameLifecycle, FRAME_LIFECYCLE_OPTIONS } from './frame-lifecycle.js';
import { createFrameCompacting, FRAME_COMPACTING_OPTIONS } from './frame-compaction.js';
import { createFrameContext, FRAME_CONTEXT_OPTIONS } from './frame-context.js';
import { createFrameTools } from './frame-tools.js';
import { loadToolHelper, type ToolHelper } from './tool-helper.js';
import { withDeadline } from '../shared/deadline.js';
import { errorText } from '../shared/logger.js';
import { optionSlice, type HandlerDeps } from '../shared/handler-deps.js';
import type { TaskRunner } from '../pool/task-runner.js';
import type { HostClient } from '../shared/host-client.js';
import type { BackgroundWork } from '../shared/background-work.js';
import type { WorkingSetTracker } from '../working-set/working-set-tracker.js';
import type { CompactedSummaries } from '../summaries/compacted-summary.js';

/** The frame parts of the plugin's hooks. */
export interface Frames {
  store: FrameStore;
  /** The `tool` hook's value; `null` when the tool helper could not be loaded. */
  tools: Record<string, ReturnType<ToolHelper>> | null;
  compacting: ReturnType<typeof createFrameCompacting>;
  systemTransform: ReturnType<typeof createFrameContext>;
  event: ReturnType<typeof createFrameLifecycle>['event'];
}

/** The options the frame parts read: theirs, and where the frames file lives. */
export const FRAMES_OPTIONS = [...FRAME_COMPACTING_OPTIONS, ...FRAME_CONTEXT_OPTIONS, ...FRAME_LIFECYCLE_OPTIONS, 'stateDir'] as const;

/** What the handler uses of the plugin's shared parts. */
export interface FramesDeps extends HandlerDeps<(typeof FRAMES_OPTIONS)[number]> {
  runner: TaskRunner;
  host: HostClient;
  background: BackgroundWork;
  /** The paths each session's tools touched. */
  workingSet: Pick<WorkingSetTracker, 'recent'>;
  /** Reads the summary a compaction stored (shared with the summary chain). */
  summaries: CompactedSummaries;
}

/**
 * How long loading the tool helper may hold the plugin's start: importing a module from a project's
 * `.opencode/node_modules` reads the disk, and a plugin that never finishes loading leaves the host
 * waiting. A healthy import takes milliseconds.
 */
export const TOOL_HELPER_DEADLINE_MS = 5_000;

/**
 * @param context - the parts of the plugin it uses.
 * @param worktree - the project's worktree (names the frame file).
 * @param folders - where OpenCode keeps `.opencode/` for this project.
 * @param env - the environment.
 * @param load - finds the tool helper; see `loadToolHelper`.
 */
export async function createFrames(
  context: FramesDeps,
  worktree: string,
  folders: readonly string[],
  env: NodeJS.ProcessEnv,
  load: typeof loadToolHelper = loadToolHelper,
): Promise<Frames> {
  const { options, logger, runner, host, background, workingSet, summaries } = context;
  const store = createFrameStore(frameFileFor(options.stateDir, worktree), { logger });
  // Each part gets what it declares, as the composition root hands out the plugin's parts.
  const lifecycle = createFrameLifecycle({ options: optionSlice(options, FRAME_LIFECYCLE_OPTIONS), logger, host, background, runner, summaries }, store);
  const loaded = await withDeadline(Promise.resolve().then(() => load(folders, env)), TOOL_HELPER_DEADLINE_MS);
  const helper = loaded.done ? loaded.value : null;
  if (helper?.ok) logger.info(`frames: flame_* tools built with the tool helper of ${helper.from}`);
  else if (helper) logger.warn(`frames: @opencode-ai/plugin not found (tried ${helper.tried.join(', ')}); the flame_* tools are off`);
  else if (!loaded.done) {
    const why = loaded.reason === 'timeout' ? `did not finish within ${TOOL_HELPER_DEADLINE_MS} ms` : `failed: ${errorText(loaded.error)}`;
    logger.warn(`frames: loading @opencode-ai/plugin's tool helper ${why}; the flame_* tools are off`);
  }
  return {
    store,
    tools: helper?.ok ? createFrameTools(helper.tool, { logger, host, workingSet }, store, lifecycle) : null,
    compacting: createFrameCompacting({ options: optionSlice(options, FRAME_COMPACTING_OPTIONS), logger }, store),
    systemTransform: createFrameContext({ options: optionSlice(options, FRAME_CONTEXT_OPTIONS), logger, runner }, store),
    event: lifecycle.event,
  };
}
