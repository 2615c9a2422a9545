/**
 * Frame context in the system text: a model
 * call in a frame's session sees where it stands — the goals of the frames
 * above it, its own goal, and what its finished children and siblings
 * achieved, by their compaction summaries (or goal, results and artifacts
 * when there is none), never by their messages. Each part has its own exact
 * token budget, counted in the pool.
 */
import { withDeadline } from '../shared/deadline.js';
import { appendToSystem } from '../shared/system-text.js';
import { ancestorsOf, childrenOf, frameText, isFinished, type Frame, type FrameTree } from './frame-state.js';
import { redactSecrets } from '../../core/text/secrets.js';
import { sanitizeText } from '../../core/text/sanitize.js';
import { normalizeLineBreaks, splitLines } from '../../core/text/line-breaks.js';
import { encodingForModel, type TokenEncoding } from '../../core/text/tokens/token-encodings.js';
import type { FrameStore } from './frame-store.js';
import { errorText } from '../shared/logger.js';
import { forHook, type HandlerDeps } from '../shared/handler-deps.js';
import type { TaskRunner } from '../pool/task-runner.js';

/** Headings of the three parts. */
export const FRAME_HEADINGS = Object.freeze({
  ancestors: '## Goal frames above this one',
  current: '## Current goal frame',
  finished: '## Finished sub-goals (summaries)',
});

/** How long one call may wait for the store and the budgeting. */
export const FRAME_CONTEXT_DEADLINE_MS = 3_000;

type SystemTransform = (input: { sessionID?: string; model?: { id?: string } }, output: { system: string[] }) => Promise<void>;

/** Longest session id shown: ids come from the host, but through the frames file. */
const MAX_ID_CHARS = 200;

/**
 * A compaction summary as other sessions see it: its own lines kept, each quoted (`> `), so that no line
 * of it can pass for a heading or an instruction of the system text around it, and without secrets.
 */
function quotedSummary(summary: string): string {
  // Breaks are made line feeds first: sanitizing drops VT, FF and NEL as controls and would join the lines around them.
  return splitLines(redactSecrets(sanitizeText(normalizeLineBreaks(summary))).text)
    .map((line) => `> ${line}`.trimEnd())
    .join('\n');
}

/** A finished frame as its parent and siblings see it. */
export function finishedEntry(frame: Frame): string {
  const lines = [`### ${frameText(frame.goal)} (${frame.status}, session ${frameText(frame.sessionID, MAX_ID_CHARS)})`];
  if (frame.compactionSummary) lines.push(quotedSummary(frame.compactionSummary));
  else {
    if (frame.results) lines.push(`Results: ${frameText(frame.results)}`);
    if (frame.artifacts.length > 0) lines.push(`Artifacts: ${frameText(frame.artifacts.join(', '))}`);
  }
  return lines.join('\n');
}

/**
 * The entries of each part for the frame of `sessionID`, most important first.
 */
export function frameContextEntries(tree: FrameTree, sessionID: string): { ancestors: string[]; current: string[]; finished: string[] } | null {
  const frame = tree.frames[sessionID];
  if (!frame) return null;
  // The nearest ancestor matters most, so it comes first and is the last to be dropped.
  const ancestors = ancestorsOf(tree, sessionID)
    .reverse()
    .map((parent, index) => `- ${index === 0 ? 'Parent' : 'Above'}: ${frameText(parent.goal) || '(root session)'}`);
  const current: string[] = [];
  const goal = frameText(frame.goal);
  if (goal) current.push(`Goal: ${goal}`);
  else current.push('This session is the root frame.');
  const criteria = frameText(frame.successCriteria);
  if (criteria) current.push(`Success criteria: ${criteria}`);
  current.push(`Status: ${frame.status}`);
  const active = frame.currentChild ? tree.frames[frame.currentChild] : undefined;
  if (active && !isFinished(active)) current.push(`Sub-goal in progress in session ${frameText(active.sessionID, MAX_ID_CHARS)}: ${frameText(active.goal)}`);
  const children = childrenOf(tree, sessionID).filter(isFinished).reverse();
  const siblings = frame.parentID ? childrenOf(tree, frame.parentID).filter((sibling) => sibling.sessionID !== sessionID && isFinished(sibling)).reverse() : [];
  return { ancestors, current, finished: [...children, ...siblings].map(finishedEntry) };
}

/** The options the frame context reads. */
export const FRAME_CONTEXT_OPTIONS = ['frames', 'frameAncestorTokens', 'frameCurrentTokens', 'frameSiblingTokens'] as const;

/** What the handler uses of the plugin's shared parts. */
export interface FrameContextDeps extends HandlerDeps<(typeof FRAME_CONTEXT_OPTIONS)[number]> {
  runner: TaskRunner;
}

/**
 * @param context - the parts of the plugin it uses.
 * @param store - the project's frames.
 */
export function createFrameContext(context: FrameContextDeps, store: FrameStore): SystemTransform {
  const { options, runner, logger } = forHook(context, 'frames');

  async function fit(heading: string, entries: string[], budget: number, encoding: TokenEncoding): Promise<string> {
    if (entries.length === 0) return '';
    // The heading and separators take a few tokens; one entry may use the rest.
    const fitted = await runner.run('fitContext', { heading, entries, entryBudget: Math.max(1, Math.floor(budget * 0.85)), totalBudget: budget, encoding, separator: '\n' });
    if (!fitted.ok) throw new Error(`${fitted.error.code}: ${fitted.error.message}`);
    return fitted.value.text;
  }

  async function build(sessionID: string, encoding: TokenEncoding): Promise<string | null> {
    const entries = frameContextEntries(await store.read(), sessionID);
    if (!entries) return null;
    const parts = await Promise.all([
      fit(FRAME_HEADINGS.ancestors, entries.ancestors, options.frameAncestorTokens, encoding),
      fit(FRAME_HEADINGS.current, entries.current, options.frameCurrentTokens, encoding),
      fit(FRAME_HEADINGS.finished, entries.finished, options.frameSiblingTokens, encoding),
    ]);
    const text = parts.filter(Boolean).join('\n\n');
    return text || null;
  }

  return async (input, output) => {
    try {
      const sessionID = input?.sessionID;
      if (!options.frames || typeof sessionID !== 'string' || !Array.isArray(output?.system)) return;
      const built = await withDeadline(build(sessionID, encodingForModel(input.model?.id)), FRAME_CONTEXT_DEADLINE_MS);
      if (!built.done) {
        logger.warn(`frames: context of ${sessionID} not ${built.reason === 'timeout' ? `ready within ${FRAME_CONTEXT_DEADLINE_MS} ms` : `built (${errorText(built.error)})`}; this call goes without it`);
        return;
      }
      if (built.value) appendToSystem(output.system, built.value);
    } catch (error) {
      logger.error(`frames: context hook failed, system prompt left as it was: ${errorText(error)}`);
    }
  };
}
