/**
 * Summary persistence: after a compaction, the summary OpenCode stored,
 * sanitized and capped (summary-thought.ts), becomes the next thought of the
 * project's SequentialThinking chain.
 *
 * The summary goes in as plain markdown, never inside a code fence (maenifold
 * ignores links in code, and a thought without links is refused). Delivery —
 * the chain, its durability and its retries — is the outbox's (delivery.ts).
 *
 * Then the summary is read in the pool as the model's items (its closing
 * lists and the host template's sections, summary-lists.ts), and when it gave
 * any, a note superseding the session's compaction note is handed to delivery:
 * same session, a newer time, the session's latest extracted items (held since
 * its compaction note was written, or read back from its newest note after a
 * restart) and the model's items, which session start shows first.
 */
export { buildSummaryThought, MAX_SUMMARY_PAYLOAD_CHARS } from '../../core/memory/summary-thought.js';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { TaskRunner } from '../pool/task-runner.js';
import { errorText } from '../shared/logger.js';
import { forHook, type HandlerDeps } from '../shared/handler-deps.js';
import type { MemoryPort } from '../memory/memory-port.js';
import type { BackgroundWork } from '../shared/background-work.js';
import type { CompactedSummaries } from './compacted-summary.js';
import type { Delivery } from '../memory/delivery/delivery.js';
import type { Project } from '../shared/project.js';
import type { SessionItems } from '../compaction/session-items.js';
import { buildSessionNote, type CompactionNote } from '../compaction/compaction-note.js';
import { withDeadline } from '../shared/deadline.js';
import type { MemoryItem } from '../../core/memory/item-kinds.js';

/** Newest notes read back, at most, to find a session's own after a restart. */
const NOTES_READ_BACK = 3;
/** Summaries remembered as already read into a note, so an event that arrives again writes none. */
const SUPERSEDED_SUMMARIES = 64;

type EventHook = (input: { event: { type: string; properties?: Record<string, unknown> } }) => Promise<void>;

/** The options summary persistence reads. */
export const SUMMARY_PERSISTENCE_OPTIONS = ['summaries', 'summaryMaxChars', 'persistTimeoutMs'] as const;

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
  /**
   * Told when a summary is done with: `true` when its note was handed to delivery (a pass now, covering
   * the compaction's), `false` when it handed none (the compaction's pass, waiting for it, goes now).
   */
  refreshDigest?: (sessionID: string, noteHanded: boolean) => void;
  /** Each session's latest extracted items, kept by the compacting hook. */
  sessionItems: SessionItems;
}

/**
 * @param context - the parts of the plugin it uses.
 */
export function createSummaryPersistence(context: SummaryPersistenceDeps): EventHook {
  const { options, memory, runner, summaries, project, background, delivery, sessionItems, logger } = forHook(context, 'summary');
  const superseded = new LRUCache<string, true>({ max: SUPERSEDED_SUMMARIES });

  /** The session's newest note, read back from the store, when its items are no longer held; `null` when none is found in time. */
  async function newestNote(sessionID: string, deadline: number): Promise<{ uri: string; content: string } | null> {
    const left = (): number => Math.max(1, deadline - Date.now());
    const listed = await memory.listNotes(project.noteFolder, { timeoutMs: left() });
    if (!listed.ok) return null;
    // The slug ends with the session's id as the note's title gives it; the greatest slugs are the newest.
    const suffix = `-${sessionID.replace(/[^A-Za-z0-9]/g, '').slice(0, 40).toLowerCase()}`;
    const own = listed.value
      .filter((uri) => {
        const slug = uri.slice(uri.lastIndexOf('/') + 1);
        return slug.startsWith(project.noteSlugPrefix) && slug.endsWith(suffix);
      })
      .sort()
      .reverse()
      .slice(0, NOTES_READ_BACK);
    for (const uri of own) {
      const note = await memory.readNote(uri, { timeoutMs: left() });
      if (note.ok) return { uri, content: note.value.content };
    }
    return null;
  }

  /**
   * The note that supersedes the session's compaction note, when the summary gave items; `null` when it gave
   * none, or was read before (the event may arrive twice), or could not be read in time.
   */
  async function supersedingNote(sessionID: string, summary: string, deadline: number): Promise<{ note: CompactionNote; key: string } | null> {
    const key = `${sessionID}\u0000${createHash('sha256').update(summary).digest('hex')}`;
    if (superseded.has(key)) return null;
    const left = (): number => Math.max(1, deadline - Date.now());
    const held = sessionItems.latest(sessionID);
    const stored = held ? null : await withDeadline(newestNote(sessionID, deadline), left());
    const note = stored?.done ? stored.value : null;
    const read = await withDeadline(runner.run('summaryLists', { summary, note }), left());
    if (!read.done || !read.value.ok) {
      logger.warn(`summary items: session ${sessionID}: the summary's lists could not be read (${read.done && !read.value.ok ? read.value.error.code : read.done ? '' : read.reason})`);
      return null;
    }
    const { items, note: parsed } = read.value.value;
    if (items.length === 0) {
      logger.debug(`summary items: session ${sessionID}: the summary gave no items; its compaction note stands`);
      return null;
    }
    // The note read back may itself be a superseding one: only its extracted items are the session's own.
    const own = parsed && parsed.session === sessionID.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 100) ? parsed : null;
    // Its topics stay the compaction note's: linked again here, every topic would count each session twice in the graph.
    const extracted: readonly MemoryItem[] = (held?.items ?? own?.items.filter((item) => item.source === 'heuristic') ?? []).filter((item) => item.kind !== 'concept');
    const before = held?.at.getTime() ?? Date.parse(own?.timestamp ?? '');
    // Newer than the note it supersedes, whatever the clocks: session start takes a session's newest note.
    const at = new Date(Math.max(Date.now(), Number.isFinite(before) ? before + 1 : 0));
    logger.info(`summary items: session ${sessionID}: ${items.length} items from the summary, ${extracted.length} extracted${held ? '' : own ? ' (read back)' : ' (none found)'}`);
    return { note: buildSessionNote(project, sessionID, [...items, ...extracted], at), key };
  }

  /** @returns whether a note was handed to delivery. */
  async function persist(sessionID: string, given: unknown): Promise<boolean> {
    const read = await summaries.latest(sessionID, given);
    if (read.kind === 'failed') {
      // A host that never answers must not keep this work (and shutdown) waiting: the read has a deadline.
      logger.warn(`summary: session ${sessionID}: the host's message list ${read.why}; this summary is not persisted`);
      return false;
    }
    if (read.kind === 'none') {
      logger.info(`summary: session ${sessionID} has no compaction summary to persist`);
      return false;
    }
    const summary = read.text;
    const deadline = Date.now() + options.persistTimeoutMs;
    // Sanitizing and redacting up to 50,000 characters is text work: it runs in the pool, as the reading of its lists.
    const [built, superseding] = await Promise.all([
      runner.run('summaryThought', { project: project.name, sessionID, summary, maxChars: options.summaryMaxChars }),
      supersedingNote(sessionID, summary, deadline),
    ]);
    // Both are handed to delivery at once, the thought first: whoever sees the thought delivered finds the note queued.
    const handed: Promise<void>[] = [];
    if (!built.ok) logger.warn(`summary: session ${sessionID}: the summary could not be prepared (${built.error.code}): ${built.error.message}`);
    // The same summary of the same session is one thought, however often the event arrives.
    else handed.push(delivery.submitThought({ project: project.key, response: built.value, source: `${sessionID}\u0000${summary}` }));
    if (superseding) {
      superseded.set(superseding.key, true);
      handed.push(
        withDeadline(delivery.submitNote(project.key, superseding.note), Math.max(1, deadline - Date.now())).then((written) => {
          if (!written.done) logger.warn(`summary: session ${sessionID}: the note with the summary's items was not handed to delivery (${written.reason})`);
        }),
      );
    }
    await Promise.all(handed);
    // The digest folds the project's notes, not the chain's thoughts: with no note handed, only a compaction's pass waiting for this summary goes.
    return superseding !== null;
  }

  return async ({ event }) => {
    try {
      if (!options.summaries || !memory.available || event?.type !== 'session.compacted') return;
      const sessionID = event.properties?.['sessionID'];
      if (typeof sessionID !== 'string') return;
      background.run('summary', () =>
        persist(sessionID, event.properties?.['summary']).then(
          (handed) => context.refreshDigest?.(sessionID, handed),
          // Whatever failed here, the compaction's pass does not wait for this summary any longer.
          (error: unknown) => {
            context.refreshDigest?.(sessionID, false);
            throw error;
          },
        ),
      );
    } catch (error) {
      logger.error(`summary: event handler failed: ${errorText(error)}`);
    }
  };
}
