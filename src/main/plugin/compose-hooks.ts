/**
 * Which feature handlers make up each hook the plugin registers, and in
 * which order their changes apply. Every hook the host awaits runs its parts
 * within one budget (hook-budgets.ts), each part on a scratch copy of the
 * host's output (hook-parts.ts): no hook holds the host longer than its
 * budget, whatever a part waits on.
 */
import type { Logger } from '../shared/logger.js';
import type { HostEventInput, PluginHooks, SystemCall } from '../host/host-port.js';
import type { createSessionStart } from '../graph/session-start.js';
import type { createTaskAugmentation } from '../graph/task-augmentation.js';
import type { createRulesInjection } from '../rules/rules-injection.js';
import type { createCompaction } from '../compaction/compaction.js';
import type { createWindowForgetting } from '../compaction/window-forgetting.js';
import type { createSummaryPersistence } from '../summaries/summary-persistence.js';
import type { createConfessionReport } from '../summaries/confession-report.js';
import type { WorkingSetHooks } from '../working-set/working-set-hooks.js';
import type { Frames } from '../frames/frames.js';
import type { HookBudgets } from './hook-budgets.js';
import type { HostStart } from './host-start.js';
import { COMPACTING_SCRATCH, NO_OUTPUT, runPartsWithin, SYSTEM_SCRATCH, TOOL_ARGS_SCRATCH, TOOL_RESULT_SCRATCH, type HookPart, type OutputScratch } from './hook-parts.js';

type Handler<I, O> = (input: I, output: O) => Promise<void>;
type SystemTransform = ReturnType<typeof createSessionStart>['hook'];
type ToolBefore = ReturnType<typeof createTaskAugmentation>;
type ToolAfter = ReturnType<typeof createConfessionReport>;
type Compacting = ReturnType<typeof createCompaction>;

/** The hooks the plugin registers, in the host port's terms (each adapter registers them with its host). */
export type MaenifoldHooks = PluginHooks;

/** The feature handlers the hooks are made of, each built by its feature. */
export interface FeatureHandlers {
  sessionStart: SystemTransform;
  rules: ReturnType<typeof createRulesInjection>;
  taskAugmentation: ToolBefore;
  workingSet: WorkingSetHooks;
  confession: ToolAfter;
  compaction: Compacting;
  windowForgetting: ReturnType<typeof createWindowForgetting>;
  summaries: ReturnType<typeof createSummaryPersistence>;
  /** `null` when the frames option is off. */
  frames: Frames | null;
  /** Told the host's events, to learn when it got through its start. */
  hostStart?: Pick<HostStart, 'event'>;
  /** Told the host's events, to build again after the plugin wrote to memory. */
  sessionStartEvent?: (input: HostEventInput) => void;
}

/**
 * Whether system text is asked for a work call: one without a kind (1.x tells none) or `primary`.
 *
 * @param call - the request, as the host sent it.
 */
export function isWorkCall(call: SystemCall | undefined): boolean {
  const kind = call?.kind;
  return kind === undefined || kind === 'primary';
}

/**
 * @param handlers - the feature handlers.
 * @param budgets - the one bound of each hook.
 * @param logger - where a part cut off by its hook's budget is told.
 */
export function composeHooks(handlers: FeatureHandlers, budgets: HookBudgets, logger: Logger): MaenifoldHooks {
  const within = <I, O>(hook: string, budgetMs: number, scratch: OutputScratch<O>, parts: (HookPart<I, O> | null)[]): Handler<I, O> => {
    const present = parts.filter((part): part is HookPart<I, O> => part !== null);
    return async (input, output) => {
      await runPartsWithin(input, output, present, { hook, budgetMs, logger, scratch });
    };
  };
  const { frames } = handlers;
  const event = within<HostEventInput, undefined>('event', budgets.event, NO_OUTPUT, [
    { name: 'working set', run: (input) => handlers.workingSet.event(input) },
    { name: 'compaction window', run: (input) => handlers.windowForgetting(input) },
    { name: 'summaries', run: (input) => handlers.summaries(input) },
    frames ? { name: 'frames', run: (input) => frames.event(input) } : null,
    handlers.hostStart ? { name: 'host start', run: async (input) => handlers.hostStart?.event(input) } : null,
    handlers.sessionStartEvent ? { name: 'session start', run: async (input) => handlers.sessionStartEvent?.(input) } : null,
  ]);
  const system = within('experimental.chat.system.transform', budgets.systemTransform, SYSTEM_SCRATCH, [
    { name: 'session start', run: handlers.sessionStart },
    { name: 'rules', run: handlers.rules },
    frames ? { name: 'frames', run: frames.systemTransform } : null,
  ]);
  return {
    event: (input) => event(input, undefined),
    'experimental.chat.system.transform': async (input, output) => {
      // A title, a compaction or a one-off generation gets none of the plugin's blocks.
      if (!isWorkCall(input)) return;
      await system(input, output);
    },
    'tool.execute.before': within('tool.execute.before', budgets.toolBefore, TOOL_ARGS_SCRATCH, [{ name: 'task context', run: handlers.taskAugmentation }]),
    'tool.execute.after': within('tool.execute.after', budgets.toolAfter, TOOL_RESULT_SCRATCH, [
      { name: 'working set', run: (input: Parameters<ToolAfter>[0]) => handlers.workingSet.toolAfter(input) },
      { name: 'confession', run: handlers.confession },
    ]),
    'experimental.session.compacting': within('experimental.session.compacting', budgets.compacting, COMPACTING_SCRATCH, [
      { name: 'compaction', run: handlers.compaction },
      frames ? { name: 'frames', run: frames.compacting } : null,
    ]),
    ...(frames ? { tool: frames.tools } : {}),
  };
}
