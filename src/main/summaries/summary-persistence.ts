/**
 * Summary persistence: after a compaction, the summary OpenCode stored,
 * sanitized and capped (summary-thought.ts), becomes the next thought of the
 * project's SequentialThinking chain.
 *
 * The summary goes in as plain markdown, never inside a code fence (maenifold
 * ignores links in code, and a thought without links is refused). Delivery —
 * the chain, its durability and its retries — is the outbox's (delivery.ts).
 */
export { buildSummaryThought, MAX_SUMMARY_PAYLOAD_CHARS } from '../../core/memory/summary-thought.js';
import type { TaskRunner } from '../pool/task-runner.js';
import { errorText } from '../shared/logger.js';
import { forHook, type HandlerDeps } from '../shared/handler-deps.js';
import type { MemoryPort } from '../memory/memory-port.js';
import type { BackgroundWork } from '../shared/background-work.js';
import type { CompactedSummaries } from './compacted-summary.js';
import type { Delivery } from '../memory/delivery/delivery.js';
import type { Project } from '../shared/project.js';

type EventHook = (input: { event: { type: string; properties?: Record<string, unknown> } }) => Promise<void>;

/** The options summary persistence reads. */
export const SUMMARY_PERSISTENCE_OPTIONS = ['summaries', 'summaryMaxChars'] as const;

/** What the handler uses of the plugin's shared parts. */
export interface SummaryPersistenceDeps extends HandlerDeps<(typeof SUMMARY_PERSISTENCE_OPTIONS)[number]> {
  /** The memory store: the maenifold CLI or the built-in file store. */
  memory: MemoryPort;
  runner: TaskRunner;
  /** Reads the summary a compaction stored (shared with goal frames). */
  summaries: CompactedSummaries;
  /** The session's project: its name heads the thought, its key names the chain. */
  project: Project;
  background: BackgroundWork;
  /** Writes to maenifold through the durable outbox. */
  delivery: Delivery;
  /** Asks for a pass of the project's memory digest once a summary's note is handed to delivery. */
  refreshDigest?: () => void;
}

/**
 * @param context - the parts of the plugin it uses.
 */
export function createSummaryPersistence(context: SummaryPersistenceDeps): EventHook {
  const { options, memory, runner, summaries, project, background, delivery, logger } = forHook(context, 'summary');

  async function persist(sessionID: string, given: unknown): Promise<void> {
    const read = await summaries.latest(sessionID, given);
    if (read.kind === 'failed') {
      // A host that never answers must not keep this work (and shutdown) waiting: the read has a deadline.
      logger.warn(`summary: session ${sessionID}: the host's message list ${read.why}; this summary is not persisted`);
      return;
    }
    if (read.kind === 'none') {
      logger.info(`summary: session ${sessionID} has no compaction summary to persist`);
      return;
    }
    const summary = read.text;
    // Sanitizing and redacting up to 50,000 characters is text work: it runs in the pool.
    const built = await runner.run('summaryThought', { project: project.name, sessionID, summary, maxChars: options.summaryMaxChars });
    if (!built.ok) {
      logger.warn(`summary: session ${sessionID}: the summary could not be prepared (${built.error.code}): ${built.error.message}`);
      return;
    }
    const response = built.value;
    // The same summary of the same session is one thought, however often the event arrives.
    await delivery.submitThought({ project: project.key, response, source: `${sessionID}\u0000${summary}` });
    context.refreshDigest?.();
  }

  return async ({ event }) => {
    try {
      if (!options.summaries || !memory.available || event?.type !== 'session.compacted') return;
      const sessionID = event.properties?.['sessionID'];
      if (typeof sessionID !== 'string') return;
      background.run('summary', () => persist(sessionID, event.properties?.['summary']));
    } catch (error) {
      logger.error(`summary: event handler failed: ${errorText(error)}`);
    }
  };
}
