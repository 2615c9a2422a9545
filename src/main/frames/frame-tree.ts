/**
 * The frame tree as text, for `flame_status`: one line per frame with its
 * status and goal, indented under its parent, and the summary (or results)
 * of each finished frame beneath it.
 */
import { ancestorsOf, childrenOf, frameText, type Frame, type FrameTree } from './frame-state.js';
import { redactSecrets } from '../../core/text/secrets.js';
import { capChars } from '../../core/text/char-cap.js';
import { splitLines } from '../../core/text/line-breaks.js';

/** Longest summary shown per frame. */
const SUMMARY_CHARS = 1_200;

/** A stored text as the model may see it: a frame file written before redaction existed may hold a secret. */
function shown(text: string, maxChars = 4 * SUMMARY_CHARS): string {
  // Cut twice as long first, then redact, then cut: a secret split by the first cut lies past the second.
  const redacted = redactSecrets(capChars(text, maxChars * 2)).text;
  return redacted.length > maxChars ? `${capChars(redacted, maxChars)}\u2026` : redacted;
}

function describeGoal(frame: Frame): string {
  // One line: a goal with a line break would open a line of its own in the tree the model reads.
  return frameText(frame.goal, 4 * SUMMARY_CHARS) || '(root session)';
}

function indentBlock(text: string, indent: string): string {
  // Every break a reader honours: a line left unsplit would start at the margin, outside its frame.
  return splitLines(text)
    .map((line) => `${indent}${line}`)
    .join('\n');
}

function renderFrame(tree: FrameTree, frame: Frame, depth: number, here: string, lines: string[], seen: Set<string>): void {
  if (seen.has(frame.sessionID)) return;
  seen.add(frame.sessionID);
  const indent = '  '.repeat(depth);
  const marks = [frame.sessionID === here ? 'this session' : '', frame.sessionID === tree.frames[frame.parentID ?? '']?.currentChild ? 'current' : ''].filter(Boolean);
  lines.push(`${indent}- [${frame.status}] ${describeGoal(frame)} (session ${frame.sessionID}${marks.length ? `; ${marks.join(', ')}` : ''})`);
  const about = frame.compactionSummary ?? (frame.results ? `Results: ${frame.results}` : '');
  if (about && frame.status !== 'in_progress') lines.push(indentBlock(`Summary: ${shown(about, SUMMARY_CHARS)}`, `${indent}    `));
  if (frame.artifacts.length > 0 && frame.status !== 'in_progress') lines.push(`${indent}    Artifacts: ${frameText(frame.artifacts.join(', '), 4 * SUMMARY_CHARS)}`);
  for (const child of childrenOf(tree, frame.sessionID)) renderFrame(tree, child, depth + 1, here, lines, seen);
}

/**
 * @param tree - the project's frames.
 * @param sessionID - the session asking; its tree is shown, or every tree when it has no frame.
 */
export function renderFrameTree(tree: FrameTree, sessionID: string): string {
  const frames = Object.values(tree.frames);
  if (frames.length === 0) return 'No goal frames yet. Start one with flame_push.';
  const own = tree.frames[sessionID];
  const roots = own ? [ancestorsOf(tree, sessionID)[0] ?? own] : frames.filter((frame) => !frame.parentID || !tree.frames[frame.parentID]);
  const lines: string[] = ['Goal frames:'];
  const seen = new Set<string>();
  for (const root of roots) renderFrame(tree, root, 0, sessionID, lines, seen);
  return lines.join('\n');
}
