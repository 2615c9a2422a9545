/**
 * The one bound of each composite hook. A hook's main part (the one that may
 * wait on the CLI, the pool or a model) keeps its own deadline, from the
 * options; the parts after it read cached or local state (rule folders, the
 * frame file) or only start background work, and share a small reserve. So a
 * slow main part still returns on its own terms (with what it had ready),
 * while the host never waits for the sum of every part's deadline.
 */
import type { PluginOptions } from '../options/plugin-options.js';
import { TASK_FIT_RESERVE_MS } from '../graph/task-augmentation.js';

/**
 * What the quick parts of a hook may take together: milliseconds on a healthy
 * machine, so half a second is ample; past it they are cut and logged. It is
 * below the frame store's own one-second step deadlines on purpose: a frames
 * file that stops answering costs the host half a second, not one to three.
 */
export const QUICK_PARTS_MS = 500;

/** The bound of each composite hook, in ms. */
export interface HookBudgets {
  /** Summaries and frame lifecycle only start background work. */
  event: number;
  /** Session start (its patience is `contextTotalTimeoutMs`), then rules and frame context. */
  systemTransform: number;
  /** Compaction (`compactionDeadlineMs`), then frame instructions. */
  compacting: number;
  /** Task augmentation (`contextTotalTimeoutMs` for the graph context, then its fitting reserve). */
  toolBefore: number;
  /** The working set, then ConfessionReport (`confessionAttempts` prompts of `persistTimeoutMs` each). */
  toolAfter: number;
}

/**
 * @param options - the resolved options.
 */
export function hookBudgets(options: Pick<PluginOptions, 'contextTotalTimeoutMs' | 'compactionDeadlineMs' | 'confessionAttempts' | 'persistTimeoutMs'>): HookBudgets {
  return {
    event: QUICK_PARTS_MS,
    systemTransform: options.contextTotalTimeoutMs + QUICK_PARTS_MS,
    compacting: options.compactionDeadlineMs + QUICK_PARTS_MS,
    toolBefore: options.contextTotalTimeoutMs + TASK_FIT_RESERVE_MS + QUICK_PARTS_MS,
    toolAfter: options.confessionAttempts * options.persistTimeoutMs + QUICK_PARTS_MS,
  };
}
