/**
 * A popped frame's way to `completed`: its session is
 * compacted — with the model the session last used, once the session is idle
 * (a session cannot be compacted while the turn that called `flame_pop` still
 * runs) — and on `session.compacted` the stored summary (the assistant message
 * with `summary: true`) becomes the frame's `compactionSummary`.
 *
 * OpenCode publishes `session.compacted` after the summary message is stored
 * and after the compacting hook returned, so reading the session's messages
 * then always finds it.
 */
import type { CompactedSummaries } from '../summaries/compacted-summary.js';
import type { TaskRunner } from '../pool/task-runner.js';
import { readSessionMessages } from '../session/session-reader.js';
import type { MessageView, ModelRef } from '../session/message-view.js';
import { captureSummary } from './frame-state.js';
import type { FrameStore } from './frame-store.js';
import { errorText } from '../shared/logger.js';
import { forHook, type HandlerDeps } from '../shared/handler-deps.js';
import { HOST_READ_DEADLINE_MS, type HostClient } from '../host/host-client.js';
import { withDeadline } from '../shared/deadline.js';
import type { BackgroundWork } from '../shared/background-work.js';
import { isSessionIdle } from '../host/host-events.js';

export type { ModelRef };

/**
 * The model a session last used: the newest message that names one (`MessageView.model`).
 *
 * @param messages - read messages, oldest first.
 */
export function lastModelOf(messages: readonly MessageView[]): ModelRef | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const model = messages[index]?.model;
    if (model) return model;
  }
  return null;
}

/** Starts frame compactions and captures their summaries. */
export interface FrameLifecycle {
  /**
   * Starts the compaction of a popped frame: now, or when its session is next
   * idle if the pop came from inside it.
   */
  compact(frameID: string, calledFrom: string): void;
  /** The `event` hook's part: idle sessions and stored summaries. */
  event(input: { event: { type: string; properties?: Record<string, unknown> } }): Promise<void>;
}

/** The options the frame lifecycle reads. */
export const FRAME_LIFECYCLE_OPTIONS = ['frames', 'summaryMaxChars'] as const;

/** What the handler uses of the plugin's shared parts. */
export interface FrameLifecycleDeps extends HandlerDeps<(typeof FRAME_LIFECYCLE_OPTIONS)[number]> {
  host: HostClient;
  background: BackgroundWork;
  /** Cleans a captured summary (sanitizing and redacting text of any length is the pool's work). */
  runner: TaskRunner;
  /** Reads the summary a compaction stored (shared with the summary chain). */
  summaries: CompactedSummaries;
}

/** The newest messages read for a frame's model: its last turns name it. */
const MODEL_PAGE = { pageSize: 10, maxPages: 10 } as const;

/** How long the background work of a popped frame waits for each host call and store step. */
export interface FrameLifecycleDeadlines {
  /** A message list or a frame store step. @default HOST_READ_DEADLINE_MS */
  stepMs: number;
  /**
   * The host's compaction of the frame's session: a model call over the whole
   * frame, so minutes. Past it the plugin only stops waiting: when the
   * compaction ends, `session.compacted` still captures its summary.
   * @default 300000
   */
  summarizeMs: number;
}

/** The deadlines the plugin uses. */
export const FRAME_LIFECYCLE_DEADLINES: Readonly<FrameLifecycleDeadlines> = Object.freeze({ stepMs: HOST_READ_DEADLINE_MS, summarizeMs: 300_000 });

/** A step of the background work that did not answer in time. */
class StepTimeout extends Error {}

/**
 * @param context - the parts of the plugin it uses.
 * @param store - the project's frames.
 * @param deadlines - see {@link FrameLifecycleDeadlines}.
 */
export function createFrameLifecycle(context: FrameLifecycleDeps, store: FrameStore, deadlines: FrameLifecycleDeadlines = FRAME_LIFECYCLE_DEADLINES): FrameLifecycle {
  const { host, background, runner, summaries, options, logger } = forHook(context, 'frames');
  const waitingForIdle = new Set<string>();
  const now = (): string => new Date().toISOString();

  /** Awaits a host call or store step within `ms`; throws {@link StepTimeout} past it (the work itself is not cancelled). */
  async function step<T>(work: () => Promise<T>, what: string, ms = deadlines.stepMs): Promise<T> {
    const done = await withDeadline(Promise.resolve().then(work), ms);
    if (done.done) return done.value;
    if (done.reason === 'failed') throw done.error;
    throw new StepTimeout(`${what} did not answer within ${ms} ms`);
  }

  async function summarize(frameID: string): Promise<void> {
    let asked = false;
    try {
      // The newest messages only, page by page: a frame's session can be as long as any other.
      // The read has its own deadline, the step's.
      const read = await readSessionMessages(host, frameID, deadlines.stepMs, { ...MODEL_PAGE, partial: true, enough: (page) => lastModelOf(page) !== null });
      if (!read.done) throw read.reason === 'timeout' ? new StepTimeout(`the host's message list did not answer within ${deadlines.stepMs} ms`) : read.error;
      const listed = read.value;
      const model = Array.isArray(listed?.data) ? lastModelOf(listed.data) : null;
      if (!model || !host.session.summarize) {
        // Nothing was said in the frame (or the host cannot compact): goal and results stand for it.
        await step(() => store.update((tree) => captureSummary(tree, { sessionID: frameID, summary: null, now: now() })), 'the frame store');
        logger.info(`frames: frame ${frameID} ${model ? 'cannot be compacted by this host' : 'has no model turn to compact'}; finished without a summary`);
        return;
      }
      logger.info(`frames: compacting frame ${frameID} with ${model.providerID}/${model.modelID}`);
      asked = true;
      // Called on the session object: an SDK method may need its `this`.
      const answered = await step(() => Promise.resolve(host.session.summarize?.({ path: { id: frameID }, body: model })), "the host's compaction", deadlines.summarizeMs);
      if (answered?.error) {
        logger.warn(`frames: compaction of frame ${frameID} failed (${String((answered.error as { message?: unknown })?.message ?? JSON.stringify(answered.error))}); it stays completing, flame_pop again retries`);
      }
    } catch (error) {
      // The frame is left completing: flame_pop accepts a completing frame and starts again.
      // The host may still be compacting: its session.compacted event then captures the summary.
      const late = asked && error instanceof StepTimeout ? '; if the compaction still ends, its summary is captured' : '';
      logger.warn(`frames: compaction of frame ${frameID} stopped: ${errorText(error)}${late}; it stays completing, flame_pop again retries`);
    }
  }

  async function capture(frameID: string, given?: unknown): Promise<void> {
    try {
      const frame = (await step(() => store.read(), 'the frame store')).frames[frameID];
      if (!frame) return;
      if (frame.status !== 'completing') {
        // An overflow: the summary continues the frame, it does not close it.
        logger.info(`frames: frame ${frameID} compacted while ${frame.status}; it stays ${frame.status}`);
        return;
      }
      const read = await summaries.latest(frameID, given);
      if (read.kind === 'failed') throw new StepTimeout(`the host's message list ${read.why}`);
      // The summary is injected into other sessions' system text: clean, without secrets, capped.
      const cleaned = read.kind === 'found' ? await runner.run('cleanSummary', { summary: read.text, maxChars: options.summaryMaxChars }) : null;
      if (cleaned && !cleaned.ok) throw new Error(`the summary could not be cleaned (${cleaned.error.code}: ${cleaned.error.message})`);
      const summary = cleaned?.value ?? null;
      const changed = await step(() => store.update((tree) => captureSummary(tree, { sessionID: frameID, summary, now: now() })), 'the frame store');
      if (changed.ok) logger.info(`frames: frame ${frameID} ${changed.frame.status}; summary of ${summary?.length ?? 0} chars for frame ${changed.frame.parentID}`);
      else logger.info(`frames: summary of ${frameID} not captured: ${changed.reason}`);
    } catch (error) {
      logger.warn(`frames: summary of ${frameID} not captured: ${errorText(error)}; a completing frame stays completing, flame_pop again retries`);
    }
  }

  return {
    compact(frameID, calledFrom) {
      if (frameID === calledFrom) waitingForIdle.add(frameID);
      else background.run('frame compaction', () => summarize(frameID));
    },
    async event({ event }) {
      try {
        if (!options.frames) return;
        const sessionID = event?.properties?.['sessionID'];
        if (typeof sessionID !== 'string') return;
        if (isSessionIdle({ event }) && waitingForIdle.delete(sessionID)) background.run('frame compaction', () => summarize(sessionID));
        if (event.type === 'session.compacted') background.run('frame summary', () => capture(sessionID, event.properties?.['summary']));
      } catch (error) {
        logger.error(`frames: event handler failed: ${errorText(error)}`);
      }
    },
  };
}
