/**
 * The frame tools the model calls (seed 002): `flame_push` opens a sub-goal in
 * a child session, `flame_pop` closes one and starts its compaction,
 * `flame_status` shows the tree. Each returns a plain text result, also when
 * it cannot do what was asked, and never throws.
 */
import { beginPop, FRAME_OUTCOMES, frameToPop, pushFrame, type FrameOutcome } from './frame-state.js';
import { renderFrameTree } from './frame-tree.js';
import type { FrameLifecycle } from './frame-lifecycle.js';
import type { FrameStore } from './frame-store.js';
import type { PluginContext } from './plugin-context.js';
import type { ToolHelper } from './tool-helper.js';

/** Artifacts recorded for a popped frame. */
const MAX_ARTIFACTS = 50;

function reasonOf(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}

/**
 * @param tool - the `tool()` helper of `@opencode-ai/plugin`.
 * @param context - the plugin's shared parts.
 * @param store - the project's frames.
 * @param lifecycle - starts a popped frame's compaction.
 * @returns the value of the `tool` hook.
 */
export function createFrameTools(tool: ToolHelper, context: PluginContext, store: FrameStore, lifecycle: FrameLifecycle): Record<string, ReturnType<ToolHelper>> {
  const { host, workingSet } = context;
  const logger = context.logger.with({ hook: 'frames' });
  const z = tool.schema;

  const flamePush = tool({
    description:
      'Start a sub-goal as a new goal frame: a child session in which the sub-task is worked. When it is done, call flame_pop there; its summary then reaches this session instead of the whole exploration.',
    args: {
      goal: z.string().describe('What the sub-task must achieve, in one or two sentences.'),
      successCriteria: z.string().optional().describe('How to tell the goal is reached.'),
    },
    async execute(args, toolContext) {
      try {
        if (!host.session.create) return 'flame_push: this OpenCode cannot create sessions; no frame was pushed.';
        const goal = String(args.goal ?? '').trim();
        if (!goal) return 'flame_push: a goal is required; no frame was pushed.';
        const created = await host.session.create({ body: { parentID: toolContext.sessionID, title: `Frame: ${goal.slice(0, 80)}` } });
        const childID = created?.data?.id;
        if (typeof childID !== 'string') return `flame_push: the child session could not be created (${reasonOf(created?.error ?? 'no id')}); no frame was pushed.`;
        const pushed = await store.update((tree) =>
          pushFrame(tree, { parentID: toolContext.sessionID, sessionID: childID, goal, successCriteria: String(args.successCriteria ?? ''), now: new Date().toISOString() }),
        );
        if (!pushed.ok) return `flame_push: ${pushed.reason}; no frame was pushed.`;
        logger.info(`frames: pushed frame ${childID} under ${toolContext.sessionID}: ${goal.slice(0, 120)}`);
        return `Pushed frame ${childID} (child session of ${toolContext.sessionID}); it is the current frame.\nGoal: ${goal}\nWork on it in session ${childID}, then call flame_pop there (status completed, failed or blocked).`;
      } catch (error) {
        logger.error(`frames: flame_push failed: ${reasonOf(error)}`);
        return `flame_push failed: ${reasonOf(error)}; no frame was pushed.`;
      }
    },
  });

  const flamePop = tool({
    description:
      'Finish the current goal frame (this session\u2019s frame, or called from a parent, its current child): marks it completing and compacts its session into a summary for the parent frame.',
    args: {
      status: z.string().describe('completed, failed or blocked'),
      results: z.string().optional().describe('What was achieved, in a few sentences.'),
    },
    async execute(args, toolContext) {
      try {
        const outcome = String(args.status ?? '').trim().toLowerCase();
        if (!FRAME_OUTCOMES.includes(outcome as FrameOutcome)) return `flame_pop: unknown status ${JSON.stringify(args.status)}; use completed, failed or blocked. Nothing was popped.`;
        const target = frameToPop(await store.read(), toolContext.sessionID);
        if (!target) return `flame_pop: session ${toolContext.sessionID} has no frame in progress to pop (push one with flame_push first).`;
        const popped = await store.update((tree) =>
          beginPop(tree, {
            sessionID: target.sessionID,
            outcome: outcome as FrameOutcome,
            results: String(args.results ?? ''),
            artifacts: workingSet.recent(target.sessionID, MAX_ARTIFACTS),
            now: new Date().toISOString(),
          }),
        );
        if (!popped.ok) return `flame_pop: ${popped.reason}; nothing was popped.`;
        lifecycle.compact(target.sessionID, toolContext.sessionID);
        logger.info(`frames: frame ${target.sessionID} completing as ${outcome}`);
        return `Frame ${target.sessionID} is completing (${outcome}). Its session is compacted into a summary${
          target.sessionID === toolContext.sessionID ? ' when this turn ends' : ' now'
        }; the summary then stands for the frame in the context of ${popped.frame.parentID}.`;
      } catch (error) {
        logger.error(`frames: flame_pop failed: ${reasonOf(error)}`);
        return `flame_pop failed: ${reasonOf(error)}`;
      }
    },
  });

  const flameStatus = tool({
    description: 'Show the goal-frame tree of this project: each frame\u2019s goal, status and summary.',
    args: {},
    async execute(_args, toolContext) {
      try {
        return renderFrameTree(await store.read(), toolContext.sessionID);
      } catch (error) {
        logger.error(`frames: flame_status failed: ${reasonOf(error)}`);
        return `flame_status failed: ${reasonOf(error)}`;
      }
    },
  });

  return { flame_push: flamePush, flame_pop: flamePop, flame_status: flameStatus };
}
