/**
 * Goal frames: a tree of sub-goals, each worked in its own child
 * session. This module holds the tree's shape and its transitions as pure
 * functions; frame-store.ts keeps it on disk.
 *
 * A frame is identified by its session. The root frame is the session where
 * the first push happened; a push from session S creates a child frame whose
 * session's parent is S, and makes it S's current child.
 *
 *     in_progress ──flame_pop──▶ completing ──session.compacted──▶ completed | failed | blocked
 *          ▲                          │
 *          └── overflow compactions ──┘ (a pop again retries the compaction)
 */

import { redactedLine } from '../../core/text/secrets.js';

/** Longest goal, criteria or results kept: they are quoted in other sessions' system text. */
export const MAX_FRAME_TEXT_CHARS = 4_000;

/**
 * A goal, criteria, results or artifact list as it may be stored, shown and
 * sent on: one line (a line break would let it open a heading or a `SYSTEM:`
 * line of its own in another session's system text), capped, and without
 * secrets (a goal may quote the token the task is about). Applied when the
 * model's words are taken and again where a stored frame is shown: a frames
 * file written before may hold anything.
 *
 * @param value - what the model or the frames file gave.
 * @param maxChars - the longest result.
 */
export function frameText(value: unknown, maxChars = MAX_FRAME_TEXT_CHARS): string {
  return redactedLine(typeof value === 'string' ? value : String(value ?? ''), maxChars);
}

/** Where a frame stands. */
export type FrameStatus = 'in_progress' | 'completing' | 'completed' | 'failed' | 'blocked';

/** What `flame_pop` reports. */
export type FrameOutcome = 'completed' | 'failed' | 'blocked';

/** The outcomes `flame_pop` accepts. */
export const FRAME_OUTCOMES: readonly FrameOutcome[] = ['completed', 'failed', 'blocked'];

/** One frame. */
export interface Frame {
  /** The frame's session. */
  sessionID: string;
  /** The parent frame's session; `null` for a root. */
  parentID: string | null;
  /** Empty for a root frame, which has no goal of its own. */
  goal: string;
  successCriteria: string;
  status: FrameStatus;
  /** What `flame_pop` reported; the status the frame ends in. */
  outcome?: FrameOutcome;
  /** What `flame_pop` said was achieved. */
  results?: string;
  /** Files the frame's session touched, when it was popped. */
  artifacts: string[];
  /** The child pushed last and not yet popped. */
  currentChild?: string;
  /** The summary OpenCode's compaction wrote when the frame completed. */
  compactionSummary?: string;
  compactionTimestamp?: string;
  createdAt: string;
  updatedAt: string;
}

/** Every frame of a project, by session. */
export interface FrameTree {
  frames: Record<string, Frame>;
}

/** A transition's outcome: the frame it produced, or why it was refused. */
export type FrameChange = { ok: true; frame: Frame } | { ok: false; reason: string };

/** Whether a frame is finished (its summary, or goal and results, stand for it). */
export function isFinished(frame: Frame): boolean {
  return frame.status === 'completed' || frame.status === 'failed' || frame.status === 'blocked';
}

/** An empty tree, without a prototype so a session id is only ever a key. */
export function emptyTree(): FrameTree {
  return { frames: Object.create(null) as Record<string, Frame> };
}

/**
 * Pushes a child frame under `parentID`, creating the root frame for it when
 * it is not a frame yet, and makes the child the parent's current one.
 */
export function pushFrame(tree: FrameTree, request: { parentID: string; sessionID: string; goal: string; successCriteria: string; now: string }): FrameChange {
  const goal = request.goal.trim();
  if (!goal) return { ok: false, reason: 'a frame needs a goal' };
  if (tree.frames[request.sessionID]) return { ok: false, reason: `session ${request.sessionID} is already a frame` };
  let parent = tree.frames[request.parentID];
  if (parent && parent.status !== 'in_progress') return { ok: false, reason: `frame ${request.parentID} is ${parent.status}; push from a frame in progress` };
  if (!parent) {
    parent = { sessionID: request.parentID, parentID: null, goal: '', successCriteria: '', status: 'in_progress', artifacts: [], createdAt: request.now, updatedAt: request.now };
    tree.frames[request.parentID] = parent;
  }
  const frame: Frame = {
    sessionID: request.sessionID,
    parentID: request.parentID,
    goal,
    successCriteria: request.successCriteria.trim(),
    status: 'in_progress',
    artifacts: [],
    createdAt: request.now,
    updatedAt: request.now,
  };
  tree.frames[request.sessionID] = frame;
  parent.currentChild = request.sessionID;
  parent.updatedAt = request.now;
  return { ok: true, frame };
}

/**
 * The frame `flame_pop` called from `sessionID` means: the session's own
 * frame when it has a parent, otherwise the session's current child.
 */
export function frameToPop(tree: FrameTree, sessionID: string): Frame | null {
  const own = tree.frames[sessionID];
  if (own?.parentID && (own.status === 'in_progress' || own.status === 'completing')) return own;
  const child = own?.currentChild ? tree.frames[own.currentChild] : undefined;
  return child && (child.status === 'in_progress' || child.status === 'completing') ? child : null;
}

/** Marks a frame `completing`: its compaction is about to write its summary. A frame already completing may be popped again. */
export function beginPop(tree: FrameTree, request: { sessionID: string; outcome: FrameOutcome; results: string; artifacts: string[]; now: string }): FrameChange {
  const frame = tree.frames[request.sessionID];
  if (!frame) return { ok: false, reason: `session ${request.sessionID} is not a frame` };
  if (!frame.parentID) return { ok: false, reason: 'the root frame has no parent to report to' };
  if (frame.status !== 'in_progress' && frame.status !== 'completing') return { ok: false, reason: `frame ${frame.sessionID} is already ${frame.status}` };
  frame.status = 'completing';
  frame.outcome = request.outcome;
  if (request.results.trim()) frame.results = request.results.trim();
  frame.artifacts = [...request.artifacts];
  frame.updatedAt = request.now;
  const parent = tree.frames[frame.parentID];
  if (parent?.currentChild === frame.sessionID) {
    delete parent.currentChild;
    parent.updatedAt = request.now;
  }
  return { ok: true, frame };
}

/** Stores the compaction summary of a completing frame and ends it in the outcome `flame_pop` reported (`completed` unless it said otherwise). */
export function captureSummary(tree: FrameTree, request: { sessionID: string; summary: string | null; now: string }): FrameChange {
  const frame = tree.frames[request.sessionID];
  if (!frame) return { ok: false, reason: `session ${request.sessionID} is not a frame` };
  if (frame.status !== 'completing') return { ok: false, reason: `frame ${frame.sessionID} is ${frame.status}, not completing` };
  if (request.summary) {
    frame.compactionSummary = request.summary;
    frame.compactionTimestamp = request.now;
  }
  frame.status = frame.outcome ?? 'completed';
  frame.updatedAt = request.now;
  return { ok: true, frame };
}

/** The frames from the root down to `sessionID`'s parent, nearest last. */
export function ancestorsOf(tree: FrameTree, sessionID: string): Frame[] {
  const chain: Frame[] = [];
  const seen = new Set<string>([sessionID]);
  let parentID = tree.frames[sessionID]?.parentID ?? null;
  while (parentID && !seen.has(parentID)) {
    seen.add(parentID);
    const parent = tree.frames[parentID];
    if (!parent) break;
    chain.unshift(parent);
    parentID = parent.parentID;
  }
  return chain;
}

/** The children of a frame, oldest first. */
export function childrenOf(tree: FrameTree, sessionID: string): Frame[] {
  return Object.values(tree.frames)
    .filter((frame) => frame.parentID === sessionID)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}
