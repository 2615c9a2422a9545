/**
 * A popped frame's way to `completed` (seed 002, phase 1.3.2): its session is
 * compacted — with the model the session last used, once the session is idle
 * (a session cannot be compacted while the turn that called `flame_pop` still
 * runs) — and on `session.compacted` the stored summary (the assistant message
 * with `summary: true`) becomes the frame's `compactionSummary`.
 *
 * OpenCode publishes `session.compacted` after the summary message is stored
 * and after the compacting hook returned, so reading the session's messages
 * then always finds it.
 */
import { sanitizeText } from '../../core/text/sanitize.js';
import { redactSecrets } from '../../core/text/secrets.js';
import { capChars } from '../../core/text/sections.js';
import { lastSummaryText } from '../summaries/summary-persistence.js';
import { captureSummary } from './frame-state.js';
import type { FrameStore } from './frame-store.js';
import type { PluginOptions } from '../shared/plugin-options.js';
import type { Logger } from '../shared/logger.js';
import type { HostClient } from '../shared/host-client.js';
import type { BackgroundWork } from '../shared/background-work.js';

/** A model as the SDK names it. */
export interface ModelRef {
  providerID: string;
  modelID: string;
}

/**
 * The model a session last used: an assistant message's `providerID`/`modelID`,
 * or a user message's `model`.
 *
 * @param messages - `{ info, parts }` entries.
 */
export function lastModelOf(messages: readonly unknown[]): ModelRef | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const info = (messages[index] as { info?: { providerID?: unknown; modelID?: unknown; model?: { providerID?: unknown; modelID?: unknown } } })?.info;
    const source = typeof info?.providerID === 'string' ? info : info?.model;
    if (typeof source?.providerID === 'string' && typeof source.modelID === 'string' && source.providerID && source.modelID) {
      return { providerID: source.providerID, modelID: source.modelID };
    }
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

/** What the handler uses of the plugin's shared parts. */
export interface FrameLifecycleDeps {
  options: PluginOptions;
  logger: Logger;
  host: HostClient;
  background: BackgroundWork;
}

/**
 * @param context - the parts of the plugin it uses.
 * @param store - the project's frames.
 */
export function createFrameLifecycle(context: FrameLifecycleDeps, store: FrameStore): FrameLifecycle {
  const { host, background, options } = context;
  const logger = context.logger.with({ hook: 'frames' });
  const waitingForIdle = new Set<string>();
  const now = (): string => new Date().toISOString();

  async function summarize(frameID: string): Promise<void> {
    const listed = await host.session.messages({ path: { id: frameID } });
    const model = Array.isArray(listed?.data) ? lastModelOf(listed.data) : null;
    if (!model || !host.session.summarize) {
      // Nothing was said in the frame (or the host cannot compact): goal and results stand for it.
      await store.update((tree) => captureSummary(tree, { sessionID: frameID, summary: null, now: now() }));
      logger.info(`frames: frame ${frameID} ${model ? 'cannot be compacted by this host' : 'has no model turn to compact'}; finished without a summary`);
      return;
    }
    logger.info(`frames: compacting frame ${frameID} with ${model.providerID}/${model.modelID}`);
    const answered = await host.session.summarize({ path: { id: frameID }, body: model });
    if (answered?.error) {
      logger.warn(`frames: compaction of frame ${frameID} failed (${String((answered.error as { message?: unknown })?.message ?? JSON.stringify(answered.error))}); it stays completing, flame_pop again retries`);
    }
  }

  async function capture(frameID: string): Promise<void> {
    const frame = (await store.read()).frames[frameID];
    if (!frame) return;
    if (frame.status !== 'completing') {
      // An overflow: the summary continues the frame, it does not close it.
      logger.info(`frames: frame ${frameID} compacted while ${frame.status}; it stays ${frame.status}`);
      return;
    }
    const listed = await host.session.messages({ path: { id: frameID } });
    const found = Array.isArray(listed?.data) ? lastSummaryText(listed.data) : null;
    // The summary is injected into other sessions' system text: clean, without secrets, capped.
    const summary = found ? capChars(redactSecrets(sanitizeText(found)).text, options.summaryMaxChars) : null;
    const changed = await store.update((tree) => captureSummary(tree, { sessionID: frameID, summary, now: now() }));
    if (changed.ok) logger.info(`frames: frame ${frameID} ${changed.frame.status}; summary of ${summary?.length ?? 0} chars for frame ${changed.frame.parentID}`);
    else logger.info(`frames: summary of ${frameID} not captured: ${changed.reason}`);
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
        const status = (event.properties?.['status'] as { type?: unknown } | undefined)?.type;
        const idle = event.type === 'session.idle' || (event.type === 'session.status' && status === 'idle');
        if (idle && waitingForIdle.delete(sessionID)) background.run('frame compaction', () => summarize(sessionID));
        if (event.type === 'session.compacted') background.run('frame summary', () => capture(sessionID));
      } catch (error) {
        logger.error(`frames: event handler failed: ${(error as Error)?.message ?? String(error)}`);
      }
    },
  };
}
