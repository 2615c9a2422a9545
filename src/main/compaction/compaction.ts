/**
 * Compaction: before OpenCode asks the model
 * for a summary, push tagging guidelines, the request to close the summary
 * with short fixed lists (decisions, reversed decisions, open and settled
 * problems, next steps), and a preservation context —
 * concepts, key decisions, working-set files, fitted to an exact token
 * budget — into `output.context`, in place; then write a compaction note to
 * maenifold in the background.
 *
 * `output.prompt` is never set: it would discard every plugin's context. If
 * extraction misses the hook's deadline, the hook returns with what is ready
 * and the note is written when extraction finishes.
 */
import { performance } from 'node:perf_hooks';
import { yieldToHost } from '../../core/text/time-slicer.js';
import { withDeadline, type DeadlineResult } from '../shared/deadline.js';
import { readSessionMessages } from '../session/session-reader.js';
import type { MessageView } from '../session/message-view.js';
import { createWindowScan } from './conversation-window.js';
import { COMPACTION_GUIDELINES, TAGGING_GUIDELINES } from './tagging-guidelines.js';
import { buildSessionNote, extractedItems } from './compaction-note.js';
import type { SessionItems } from './session-items.js';
import type { Project } from '../shared/project.js';
import type { Extraction } from './extraction-engine.js';
import { errorText } from '../shared/logger.js';
import { forHook, type HandlerDeps } from '../shared/handler-deps.js';
import type { MemoryPort } from '../memory/memory-port.js';
import type { TaskRunner } from '../pool/task-runner.js';
import type { ExtractionEngine } from './extraction-engine.js';
import type { HostClient } from '../host/host-client.js';
import type { BackgroundWork } from '../shared/background-work.js';
import type { Delivery } from '../memory/delivery/delivery.js';
import type { WorkingSetTracker } from '../working-set/working-set-tracker.js';
import type { Joining, WindowMemory } from './window-memory.js';
import type { PluginOptions } from '../options/plugin-options.js';
import type { ExtractionSettings } from './extraction-settings.js';
import { AGGRESSIVE_STRATEGY, CONSERVATIVE_STRATEGY } from '../../core/context/compaction-strategy.js';
import { CLOSING_LISTS_TOKENS } from '../../core/context/closing-lists.js';

/** Heading of the working-context block. */
export const WORKING_CONTEXT_HEADING = '## Working context\nFiles this session was working on; keep their paths in the summary.';
/** At most this share of the compaction budget goes to the working context. */
export const WORKING_CONTEXT_SHARE = 0.4;

/**
 * Whether the compaction asks the model for its closing lists: their request comes out of the budget,
 * so a budget too small to leave the preservation context as much again goes without it.
 *
 * @param compactionTokens - the budget of what a compaction adds.
 */
export function asksClosingLists(compactionTokens: number): boolean {
  return compactionTokens >= 2 * CLOSING_LISTS_TOKENS;
}

/**
 * The settings the hook extracts with: the compaction budget less what the working context and the
 * closing lists' request took, the
 * configured strategy, and no files when the working context already lists them. `npm run eval` uses
 * the same, so what it measures is what the hook injects.
 *
 * @param options - the plugin's compaction options.
 * @param workingTokens - tokens of the working-context block, or `null` when there is none.
 */
export function compactionExtractionSettings(
  options: Pick<PluginOptions, 'compactionTokens' | 'compactionStrategy'>,
  workingTokens: number | null,
): Partial<ExtractionSettings> {
  const strategy = options.compactionStrategy === 'aggressive' ? AGGRESSIVE_STRATEGY : CONSERVATIVE_STRATEGY;
  return {
    contextTokenBudget: options.compactionTokens - (workingTokens ?? 0) - (asksClosingLists(options.compactionTokens) ? CLOSING_LISTS_TOKENS : 0),
    strategy: { ...strategy },
    ...(workingTokens !== null ? { maxFiles: 0 } : {}),
  };
}

/**
 * A conversation as read: its messages (oldest first), the pages it took, how many messages they held (the
 * rest were remembered), and whether it begins at the session's first message.
 */
type Conversation = { ok: true; messages: MessageView[]; pages: number; fromStart: boolean; read: number } | { ok: false; error: string | null };

type Compacting = (input: { sessionID: string }, output: { context: string[]; prompt?: string }) => Promise<void>;

/** Characters of text and tool output as a worker reads them: a session of tool runs is not an empty one. */
function conversationChars(messages: readonly MessageView[]): number {
  return messages.reduce<number>((chars, message) => chars + message.weight, 0);
}

/** The options compaction reads. */
export const COMPACTION_OPTIONS = ['compaction', 'compactionTokens', 'compactionStrategy', 'compactionDeadlineMs', 'workingSetPaths', 'minConversationChars'] as const;

/** What the handler uses of the plugin's shared parts. */
export interface CompactionDeps extends HandlerDeps<(typeof COMPACTION_OPTIONS)[number]> {
  /** The memory store: the maenifold CLI or the built-in file store. */
  memory: MemoryPort;
  runner: TaskRunner;
  engine: ExtractionEngine;
  host: HostClient;
  /** The session's project: its key files the note. */
  project: Project;
  background: BackgroundWork;
  /** Writes to maenifold through the durable outbox. */
  delivery: Delivery;
  /** The paths each session's tools touched. */
  workingSet: WorkingSetTracker;
  /** The window each session's last compaction read. */
  windows: WindowMemory;
  /** Asks for a pass of the project's memory digest once a note is handed to delivery (it waits for the summary). */
  refreshDigest?: (sessionID: string) => void;
  /** Each session's latest extracted items, for the note that supersedes its compaction note. */
  sessionItems: SessionItems;
}

/**
 * @param context - the parts of the plugin it uses.
 */
export function createCompaction(context: CompactionDeps): Compacting {
  const { options, memory, engine, host, project, background, delivery, workingSet, windows, sessionItems, runner, logger } = forHook(context, 'compacting');

  /** The working-context block: the session's most recent paths, sorted, within its share of the budget, so rules that match them still apply after the compaction. */
  async function workingBlock(paths: readonly string[], deadlineMs: number): Promise<{ text: string; tokens: number } | null> {
    if (paths.length === 0) return null;
    const fitted = await withDeadline(
      runner.run('fitContext', {
        heading: WORKING_CONTEXT_HEADING,
        entries: [...paths].sort().map((path) => `- ${path}`),
        entryBudget: 200,
        totalBudget: Math.floor(options.compactionTokens * WORKING_CONTEXT_SHARE),
        encoding: 'o200k_base',
        separator: '\n',
      }),
      deadlineMs,
    );
    if (!fitted.done || !fitted.value.ok || fitted.value.value.included === 0) return null;
    return { text: fitted.value.value.text, tokens: fitted.value.value.tokens };
  }

  async function writeNote(sessionID: string, extraction: Extraction): Promise<void> {
    if (!memory.available) return;
    const at = new Date();
    const items = extractedItems(project.name, extraction);
    // Held for the note that supersedes this one when the summary arrives.
    sessionItems.remember(sessionID, { items, at });
    // The note is written after the hook has handed the thread back: this work starts inside the hook's
    // last turn, and the note's text is built in a turn of its own.
    await yieldToHost();
    // Through the outbox: a note that cannot be written now is retried later, never dropped.
    await delivery.submitNote(project.key, buildSessionNote(project, sessionID, items, at));
    context.refreshDigest?.(sessionID);
  }

  /**
   * The conversation as far back as the window the extraction reads: page by page, newest first, and
   * only the pages written since the session's last compaction when its window is remembered.
   */
  async function readConversation(sessionID: string, deadlineMs: number): Promise<DeadlineResult<Conversation>> {
    const started = performance.now();
    const attempt = async (join: Joining | null, budgetMs: number): Promise<DeadlineResult<Conversation>> => {
      const scan = createWindowScan(engine.window);
      let pages = 0;
      let joined = false;
      // Paging may use only part of the budget: after a page that never answers, the whole list and the extraction have the rest.
      const fetched = await readSessionMessages(host, sessionID, budgetMs, {
        warn: (line) => logger.warn(`compaction: ${line}`),
        enough: (page) => {
          pages += 1;
          scan.take(page);
          joined = join?.take(page) ?? false;
          return scan.whole || joined;
        },
      });
      if (!fetched.done) return fetched;
      const data = fetched.value?.data;
      if (!Array.isArray(data)) {
        const error = fetched.value?.error as { message?: unknown } | undefined;
        return { done: true, value: { ok: false, error: error ? String(error.message ?? 'error') : null } };
      }
      const conversation = joined ? join?.conversation(data) : null;
      // Not joined: the pages reached the window's start, or the session's first message.
      if (!conversation) return { done: true, value: { ok: true, messages: data, pages, fromStart: !scan.whole, read: data.length } };
      const check = createWindowScan(engine.window);
      check.take(conversation.messages);
      if (check.whole || conversation.fromStart) {
        return { done: true, value: { ok: true, messages: conversation.messages, pages, fromStart: conversation.fromStart, read: data.length } };
      }
      // Shorter than the window and cut where the remembered window began (a revert reaching further back): read it all again.
      const again = await attempt(null, Math.max(0, deadlineMs - (performance.now() - started)));
      return again.done && again.value.ok ? { done: true, value: { ...again.value, pages: again.value.pages + pages, read: again.value.read + data.length } } : again;
    };
    return attempt(windows.join(sessionID), deadlineMs);
  }

  return async (input, output) => {
    const start = performance.now();
    const sessionID = input?.sessionID;
    try {
      if (!options.compaction || typeof sessionID !== 'string' || !Array.isArray(output?.context)) return;
      // The model's closing lists become the session's items when the summary arrives (summary-persistence.ts).
      output.context.push(asksClosingLists(options.compactionTokens) ? COMPACTION_GUIDELINES : TAGGING_GUIDELINES);
      const deadline = options.compactionDeadlineMs;
      // The working context needs only the paths the tools touched: a worker fits it while the pages come.
      const recent = options.workingSetPaths > 0 ? workingSet.recent(sessionID, options.workingSetPaths) : [];
      const fitting = workingBlock(recent, deadline);
      const read = await readConversation(sessionID, deadline);
      const readMs = performance.now() - start;
      if (!read.done) {
        logger.warn(`compaction: could not read session ${sessionID} (${read.reason}); guidelines only`);
        return;
      }
      if (!read.value.ok) {
        logger.warn(`compaction: session ${sessionID} returned no messages${read.value.error ? ` (${read.value.error})` : ''}; guidelines only`);
        return;
      }
      const { messages, pages, fromStart } = read.value;
      /**
       * Kept for the next compaction of the session once the extraction says where the window began, after the
       * hook; not when no page was read (the host sent the whole list: nothing would join).
       */
      const rememberWindow = (beforeWindow: number): void => {
        if (pages === 0) return;
        background.run('compaction window', () => windows.remember(sessionID, messages.slice(beforeWindow), fromStart && beforeWindow === 0));
      };
      const chars = conversationChars(messages);
      if (chars < options.minConversationChars) {
        logger.debug(`compaction: conversation of ${chars} characters is under ${options.minConversationChars}; nothing to extract`);
        return;
      }
      const working = await fitting;
      if (working) output.context.push(working.text);
      // The two blocks share the budget; files named in the working context are not repeated.
      const extraction = engine.extract(messages, { settings: compactionExtractionSettings(options, working?.tokens ?? null) });
      // Tracked as background work from its start: a shutdown that begins while the hook waits for it
      // waits for it too before it stops the pool, instead of failing its tasks (inputs too large to run
      // inline left the guidelines only, and no note).
      background.run('compaction extraction', () => extraction);
      const left = Math.max(0, deadline - (performance.now() - start));
      const ready = await withDeadline(extraction, left);
      if (!ready.done) {
        logger.warn(`compaction: extraction not ready within ${deadline} ms; the note is written when it finishes`);
        background.run('compaction note', async () => {
          const late = await extraction;
          if (late.ok) rememberWindow(late.value.stats.beforeWindow);
          if (late.ok) await writeNote(sessionID, working ? { ...late.value, files: recent } : late.value);
          else logger.warn(`compaction: extraction failed (${late.error.code}): ${late.error.message}`);
        });
        return;
      }
      if (!ready.value.ok) {
        logger.warn(`compaction: extraction failed (${ready.value.error.code}): ${ready.value.error.message}; guidelines only`);
        return;
      }
      const found = working ? { ...ready.value.value, files: recent } : ready.value.value;
      rememberWindow(found.stats.beforeWindow);
      // Paths read from the messages (after a restart, say) keep conditional rules applying.
      if (!working) workingSet.merge(sessionID, found.files);
      if (found.context.text) output.context.push(found.context.text);
      logger.info(
        `compaction: ${messages.length - found.stats.beforeWindow} messages, ${chars} chars; ${found.concepts.length} concepts, ${found.decisions.length} decisions, ${found.files.length} files, ${found.stats.redactions} secrets redacted; context ${found.context.tokens}/${found.context.budget} tokens${working ? ` + working context ${working.tokens} (${options.compactionTokens} in all)` : ''} in ${Math.round(performance.now() - start)} ms (read ${read.value.read} messages in ${Math.max(1, pages)} ${pages > 1 ? 'pages' : 'page'}${read.value.read < messages.length ? `, ${messages.length - read.value.read} remembered` : ''}, ${Math.round(readMs)} ms; extraction ${Math.round(found.timings['total'] ?? 0)} ms)`,
        // Each stage's milliseconds (worker stages summed across threads), on the same line: one call to the host's log.
        { stages: found.timings, units: found.stats.units, cachedUnits: found.stats.cachedUnits, batches: found.stats.batches },
      );
      background.run('compaction note', () => writeNote(sessionID, found));
    } catch (error) {
      logger.error(`compaction: hook failed, compaction goes on unchanged: ${errorText(error)}`);
    }
  };
}
