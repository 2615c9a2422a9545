/**
 * Frame-aware compaction: when a frame's session is
 * compacted, the summary is steered by what the frame is doing. A frame that
 * is `completing` (popped) gets the completion instructions — its summary
 * replaces its whole conversation in the parent's context; a frame still
 * `in_progress` (an overflow) gets the continuation instructions.
 *
 * The instructions go into `output.context` beside the other blocks. Only
 * with the `framePrompt` option is `output.prompt` set, to the instructions
 * followed by the context gathered so far (OpenCode then ignores every
 * context entry, this plugin's included).
 */
import { withDeadline } from '../shared/deadline.js';
import { frameText, type Frame } from './frame-state.js';
import type { FrameStore } from './frame-store.js';
import { errorText } from '../shared/logger.js';
import { forHook, type HandlerDeps } from '../shared/handler-deps.js';

/** Heading of the completion instructions. */
export const FRAME_COMPLETION_HEADING = '## Frame completion: summarize for the parent frame';
/** Heading of the continuation instructions. */
export const FRAME_CONTINUATION_HEADING = '## Frame continuation: the frame goes on after this summary';

/** Longest goal, criteria or results quoted in the instructions. */
const MAX_QUOTED_CHARS = 2_000;

/** How long the compacting hook waits for the frame store. */
export const FRAME_COMPACTING_DEADLINE_MS = 3_000;

function quoted(text: string | undefined): string {
  // On one line and redacted again: a frames file written before may hold a line break or a secret.
  return frameText(text ?? '', MAX_QUOTED_CHARS);
}

/**
 * The instructions for the summary that closes a frame.
 *
 * @param frame - a frame being popped.
 */
export function completionInstructions(frame: Frame): string {
  const lines = [
    FRAME_COMPLETION_HEADING,
    'This conversation is a goal frame that has just ended. Your summary replaces the whole conversation in the parent frame\u2019s context, so the parent must understand what happened without the log.',
    `- Goal: ${quoted(frame.goal)}`,
  ];
  if (frame.successCriteria) lines.push(`- Success criteria: ${quoted(frame.successCriteria)}`);
  lines.push(`- Reported outcome: ${frame.outcome ?? 'completed'}${frame.results ? ` \u2014 ${quoted(frame.results)}` : ''}`);
  lines.push(
    '',
    'Cover, concisely:',
    '1. What was accomplished toward the goal.',
    '2. Key decisions made, and why.',
    '3. Artifacts created or modified (file paths).',
    '4. Issues or blockers left open.',
    'Make the summary self-contained: no references to messages the parent cannot see.',
  );
  return lines.join('\n');
}

/**
 * The instructions for a compaction in the middle of a frame (overflow).
 *
 * @param frame - a frame in progress.
 */
export function continuationInstructions(frame: Frame): string {
  return [
    FRAME_CONTINUATION_HEADING,
    'The context is compacted because it grew too long; work on this goal frame continues right after the summary.',
    `- Goal: ${quoted(frame.goal)}`,
    ...(frame.successCriteria ? [`- Success criteria: ${quoted(frame.successCriteria)}`] : []),
    '',
    'Preserve:',
    '1. Progress so far toward the goal.',
    '2. Context needed to continue the work (files, commands, findings).',
    '3. Pending decisions and blockers.',
  ].join('\n');
}

/**
 * The instructions a frame's compaction gets, or `null` when the session is
 * not a frame with a goal, or the frame is finished.
 */
export function instructionsFor(frame: Frame | undefined): string | null {
  if (!frame?.goal) return null;
  if (frame.status === 'completing') return completionInstructions(frame);
  if (frame.status === 'in_progress') return continuationInstructions(frame);
  return null;
}

type Compacting = (input: { sessionID: string }, output: { context: string[]; prompt?: string }) => Promise<void>;

/** The options frame-aware compaction reads. */
export const FRAME_COMPACTING_OPTIONS = ['frames', 'framePrompt'] as const;

/** What the handler uses of the plugin's shared parts. */
export type FrameCompactingDeps = HandlerDeps<(typeof FRAME_COMPACTING_OPTIONS)[number]>;

/**
 * @param context - the parts of the plugin it uses.
 * @param store - the project's frames.
 */
export function createFrameCompacting(context: FrameCompactingDeps, store: FrameStore): Compacting {
  const { options, logger } = forHook(context, 'compacting');
  return async (input, output) => {
    try {
      const sessionID = input?.sessionID;
      if (!options.frames || typeof sessionID !== 'string' || !Array.isArray(output?.context)) return;
      // The store reads with its own deadline; this one bounds the whole wait, whatever the store does.
      const read = await withDeadline(store.read(), FRAME_COMPACTING_DEADLINE_MS);
      if (!read.done) {
        const why = read.reason === 'timeout' ? `did not answer within ${FRAME_COMPACTING_DEADLINE_MS} ms` : `failed (${errorText(read.error)})`;
        logger.warn(`frames: the frame store ${why}; compaction of ${sessionID} goes on without frame instructions`);
        return;
      }
      const frame = read.value.frames[sessionID];
      const instructions = instructionsFor(frame);
      if (!instructions || !frame) return;
      if (options.framePrompt) output.prompt = [instructions, ...output.context].join('\n\n');
      else output.context.push(instructions);
      logger.info(`frames: ${frame.status === 'completing' ? 'completion' : 'continuation'} instructions for frame ${sessionID}${options.framePrompt ? ' (as the prompt)' : ''}`);
    } catch (error) {
      logger.error(`frames: compaction instructions failed, compaction goes on without them: ${errorText(error)}`);
    }
  };
}
