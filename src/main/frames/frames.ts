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
import { optionSlice, type HandlerDeps } from '../shared/handler-deps.js';
import type { TaskRunner } from '../pool/task-runner.js';
import type { HostClient, PluginTool } from '../host/host-port.js';
import type { BackgroundWork } from '../shared/background-work.js';
import type { WorkingSetTracker } from '../working-set/working-set-tracker.js';
import type { CompactedSummaries } from '../summaries/compacted-summary.js';

/** The frame parts of the plugin's hooks. */
export interface Frames {
  store: FrameStore;
  /** The goal-frame tools, in the host port's terms. */
  tools: Record<string, PluginTool>;
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
 * @param context - the parts of the plugin it uses.
 * @param worktree - the project's worktree (names the frame file).
 */
export function createFrames(context: FramesDeps, worktree: string): Frames {
  const { options, logger, runner, host, background, workingSet, summaries } = context;
  const store = createFrameStore(frameFileFor(options.stateDir, worktree), { logger });
  // Each part gets what it declares, as the composition root hands out the plugin's parts.
  const lifecycle = createFrameLifecycle({ options: optionSlice(options, FRAME_LIFECYCLE_OPTIONS), logger, host, background, runner, summaries }, store);
  return {
    store,
    tools: createFrameTools({ logger, host, workingSet }, store, lifecycle),
    compacting: createFrameCompacting({ options: optionSlice(options, FRAME_COMPACTING_OPTIONS), logger }, store),
    systemTransform: createFrameContext({ options: optionSlice(options, FRAME_CONTEXT_OPTIONS), logger, runner }, store),
    event: lifecycle.event,
  };
}
