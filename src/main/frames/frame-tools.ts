/**
 * The frame tools the model calls: `flame_push` opens a sub-goal in
 * a child session, `flame_pop` closes one and starts its compaction,
 * `flame_status` shows the tree. Each returns a plain text result, also when
 * it cannot do what was asked, and never throws.
 */
import { beginPop, FRAME_OUTCOMES, frameText, frameToPop, pushFrame, type FrameOutcome } from './frame-state.js';
import { renderFrameTree } from './frame-tree.js';
import type { FrameLifecycle } from './frame-lifecycle.js';
import type { FrameStore } from './frame-store.js';
import { errorText, type Logger } from '../shared/logger.js';
import { forHook } from '../shared/handler-deps.js';
import type { HostClient } from '../host/host-client.js';
import type { WorkingSetTracker } from '../working-set/working-set-tracker.js';
import type { PluginTool, PluginToolCall } from '../host/host-port.js';
import { withDeadline } from '../shared/deadline.js';
import { capChars } from '../../core/text/char-cap.js';

/** Artifacts recorded for a popped frame. */
const MAX_ARTIFACTS = 50;

/** How long a tool waits for the frame store or the host before it answers anyway. */
export const FRAME_TOOL_DEADLINE_MS = 5_000;

/** A step that did not finish in time, with what the tool says about it. */
class StepTimeout extends Error {}

/** Awaits a store or host step within {@link FRAME_TOOL_DEADLINE_MS}; throws {@link StepTimeout} past it. */
async function step<T>(work: Promise<T>, what: string): Promise<T> {
  const done = await withDeadline(work, FRAME_TOOL_DEADLINE_MS);
  if (done.done) return done.value;
  if (done.reason === 'failed') throw done.error;
  throw new StepTimeout(`${what} did not answer within ${FRAME_TOOL_DEADLINE_MS} ms`);
}

/** What a tool adds to its answer when a step did not finish: after the reason, what became of the request. */
interface FailureWording {
  /** After a step that timed out. @default '; it may still complete, check flame_status.' */
  timedOut?: string;
  /** After a step that failed. @default '' */
  failed?: string;
}

function failure(tool: string, error: unknown, wording: FailureWording): string {
  // A change that timed out may still land: the model is told how to check.
  if (error instanceof StepTimeout) return `${tool}: ${error.message}${wording.timedOut ?? '; it may still complete, check flame_status.'}`;
  return `${tool} failed: ${errorText(error)}${wording.failed ?? ''}`;
}

/** What the handler uses of the plugin's shared parts. */
export interface FrameToolDeps {
  logger: Logger;
  host: HostClient;
  /** The paths each session's tools touched. */
  workingSet: Pick<WorkingSetTracker, 'recent'>;
}

/**
 * @param context - the parts of the plugin it uses.
 * @param store - the project's frames.
 * @param lifecycle - starts a popped frame's compaction.
 * @returns the plugin's `tool` hook, in the host port's terms.
 */
export function createFrameTools(context: FrameToolDeps, store: FrameStore, lifecycle: FrameLifecycle): Record<string, PluginTool> {
  const { host, workingSet, logger } = forHook(context, 'frames');
  /** An argument the model writes as text; each is cleaned and capped before use. */
  const text = (description: string) => ({ description });
  /** The same, for one the tool does without. */
  const optionalText = (description: string) => ({ description, optional: true });
  const tool = (definition: PluginTool): PluginTool => definition;

  /** A tool's `execute`: whatever step throws or times out, it logs one line and answers with what became of the request. */
  const answering =
    (name: string, wording: FailureWording, run: (args: Record<string, unknown>, toolContext: PluginToolCall) => Promise<string>) =>
    async (args: Record<string, unknown>, toolContext: PluginToolCall): Promise<string> => {
      try {
        return await run(args, toolContext);
      } catch (error) {
        logger.error(`frames: ${name} failed: ${errorText(error)}`);
        return failure(name, error, wording);
      }
    };

  const flamePush = tool({
    description:
      'Start a sub-goal as a new goal frame: a child session in which the sub-task is worked. When it is done, call flame_pop there; its summary then reaches this session instead of the whole exploration.',
    args: {
      goal: text('What the sub-task must achieve, in one or two sentences.'),
      successCriteria: optionalText('How to tell the goal is reached.'),
    },
    execute: answering('flame_push', { failed: '; no frame was pushed.' }, async (args, toolContext) => {
      if (!host.session.create) return 'flame_push: this OpenCode cannot create sessions; no frame was pushed.';
      const goal = frameText(args.goal);
      if (!goal) return 'flame_push: a goal is required; no frame was pushed.';
      const successCriteria = frameText(args.successCriteria);
      const created = await step(Promise.resolve(host.session.create({ body: { parentID: toolContext.sessionID, title: `Frame: ${capChars(goal, 80)}` } })), 'creating the child session');
      const childID = created?.data?.id;
      if (typeof childID !== 'string') return `flame_push: the child session could not be created (${errorText(created?.error ?? 'no id')}); no frame was pushed.`;
      const pushed = await step(
        store.update((tree) => pushFrame(tree, { parentID: toolContext.sessionID, sessionID: childID, goal, successCriteria, now: new Date().toISOString() })),
        'the frame store',
      );
      if (!pushed.ok) return `flame_push: ${pushed.reason}; no frame was pushed.`;
      logger.info(`frames: pushed frame ${childID} under ${toolContext.sessionID}: ${capChars(goal, 120)}`);
      return `Pushed frame ${childID} (child session of ${toolContext.sessionID}); it is the current frame.\nGoal: ${goal}\nWork on it in session ${childID}, then call flame_pop there (status completed, failed or blocked).`;
    }),
  });

  const flamePop = tool({
    description:
      'Finish the current goal frame (this session\u2019s frame, or called from a parent, its current child): marks it completing and compacts its session into a summary for the parent frame.',
    args: {
      status: text('completed, failed or blocked'),
      results: optionalText('What was achieved, in a few sentences.'),
    },
    execute: answering('flame_pop', {}, async (args, toolContext) => {
      const outcome = String(args.status ?? '').trim().toLowerCase();
      if (!FRAME_OUTCOMES.includes(outcome as FrameOutcome)) return `flame_pop: unknown status ${JSON.stringify(frameText(args.status, 80))}; use completed, failed or blocked. Nothing was popped.`;
      const target = frameToPop(await step(store.read(), 'the frame store'), toolContext.sessionID);
      if (!target) return `flame_pop: session ${toolContext.sessionID} has no frame in progress to pop (push one with flame_push first).`;
      // Paths are redacted when the working set records them.
      const artifacts = workingSet.recent(target.sessionID, MAX_ARTIFACTS);
      const popped = await step(
        store.update((tree) =>
          beginPop(tree, { sessionID: target.sessionID, outcome: outcome as FrameOutcome, results: frameText(args.results), artifacts, now: new Date().toISOString() }),
        ),
        'the frame store',
      );
      if (!popped.ok) return `flame_pop: ${popped.reason}; nothing was popped.`;
      lifecycle.compact(target.sessionID, toolContext.sessionID);
      logger.info(`frames: frame ${target.sessionID} completing as ${outcome}`);
      return `Frame ${target.sessionID} is completing (${outcome}). Its session is compacted into a summary${
        target.sessionID === toolContext.sessionID ? ' when this turn ends' : ' now'
      }; the summary then stands for the frame in the context of ${popped.frame.parentID}.`;
    }),
  });

  const flameStatus = tool({
    description: 'Show the goal-frame tree of this project: each frame\u2019s goal, status and summary.',
    args: {},
    // Reading changes nothing, so a read that timed out is simply tried again.
    execute: answering('flame_status', { timedOut: '; try again later.' }, async (_args, toolContext) =>
      renderFrameTree(await step(store.read(), 'the frame store'), toolContext.sessionID),
    ),
  });

  return { flame_push: flamePush, flame_pop: flamePop, flame_status: flameStatus };
}
