/**
 * Session start: what earlier sessions of the project left, appended to the
 * system prompt of each session's model calls. Two blocks share one exact
 * token budget: first the project's memory (its latest compaction summary,
 * open problems, next steps and decisions, from its own compaction notes;
 * project-memory.ts), then knowledge-graph context for the concepts its
 * notes link (BuildContext per concept, weak ones skipped).
 *
 * Another project's session memory (its compaction notes, digest and summary
 * chain) is left out of the search hits, recent activity and related files;
 * the rest of the graph is read as the store gives it (memory-scope.ts),
 * unless the `memoryScope` option widens it to all of memory.
 *
 * The context depends on the project and recent activity, not on the
 * session, so it is built ahead (when the plugin loads and again when it
 * goes stale) and a session's first call usually finds it ready. When it
 * does not (OpenCode just started and the workers have not), the block
 * saved from the last build answers it: at once when nothing was written to
 * memory since its reads began, else as soon as the store's reads show the
 * project's memory unchanged since (saved-block.ts). The build at load waits
 * for the host's start (plugin/host-start.ts) when the saved block answers at
 * once, and reads at once (its first task starts the workers) when it does
 * not. Each session keeps the block it started with, so its system prompt
 * stays stable.
 */
import { performance } from 'node:perf_hooks';
import { fetchConceptContexts, fitConceptContexts } from './graph-context.js';
import { activityText, linksByFrequency, linksOf, rankConcepts, searchText } from './wikilink-ranking.js';
import { isPluginConcept } from '../shared/plugin-concepts.js';
import { readProjectMemory, sessionMemoryLimits, type ChainLookup } from './project-memory.js';
import { projectFilters, readChainSessions, type ScopeChains } from './memory-scope.js';
import type { Project } from '../shared/project.js';
import { withDeadline } from '../shared/deadline.js';
import { appendToSystem } from '../shared/system-text.js';
import { errorText } from '../shared/logger.js';
import { forHook, type HandlerDeps } from '../shared/handler-deps.js';
import type { MemoryPort } from '../memory/memory-port.js';
import type { TaskRunner } from '../pool/task-runner.js';
import type { BackgroundWork } from '../shared/background-work.js';
import { answersFor, answersUnread, blockSignature, loadSavedBlock, saveBlock, savedBlockFile, type SavedBlock } from './saved-block.js';
import { lastWritten, MARK_SLACK_MS, writtenMarkFile } from '../memory/written-mark.js';
import { isSessionIdle, type HostEventInput } from '../host/host-events.js';

/** The heading of the injected block. */
export const SESSION_CONTEXT_HEADING = '## Knowledge Graph Context';

/** How long a built context is reused for new sessions. */
export const CONTEXT_TTL_MS = 5 * 60_000;

/** Recent activity looked at: the last day. */
const RECENT_SPAN_MS = 86_400_000;

/** Search hits and recent files used, as the seed's hook takes them. */
const SEARCH_HITS = 5;
const RECENT_FILES = 10;

/**
 * How many more the store is asked for within the project scope: other projects' session memory is left
 * out after the store ranked it, and would otherwise take the places of the project's own hits and files.
 */
const SCOPED_OVERFETCH = 4;

/** Sessions remembered; the oldest is forgotten past this. */
const MAX_SESSIONS = 1_000;

interface BuiltContext {
  text: string | null;
  builtAt: number;
  /**
   * The build ran out of time somewhere (a store call, the total budget): what
   * it found serves the session that waited, but a miss says nothing about
   * the memory, so the next session builds again.
   */
  timedOut: boolean;
  /**
   * The block saved from an earlier build, answering while this one runs: `unwritten` when nothing was
   * written to memory since its reads, `unchanged` when this build's reads found the same memory.
   */
  saved?: 'unwritten' | 'unchanged';
}

type SystemTransform = (input: { sessionID?: string; model?: { id?: string } }, output: { system: string[] }) => Promise<void>;

/** The options session start reads. */
export const SESSION_START_OPTIONS = ['sessionStart', 'sessionStartTokens', 'sessionStartConceptTokens', 'sessionStartMemoryTokens', 'memoryScope', 'contextTimeoutMs', 'contextTotalTimeoutMs', 'summaryMaxChars', 'stateDir'] as const;

/** What the handler uses of the plugin's shared parts. */
export interface SessionStartDeps extends HandlerDeps<(typeof SESSION_START_OPTIONS)[number]> {
  /** The memory store: the maenifold CLI or the built-in file store. */
  memory: MemoryPort;
  runner: TaskRunner;
  /** The session's project. */
  project: Project;
  /** Where the project's summary chain, and every other project's, is recorded. */
  chains: ScopeChains;
  background: BackgroundWork;
}

/** What session start hands the plugin. */
export interface SessionStart {
  hook: SystemTransform;
  /**
   * Starts a build ahead of need (when none is fresh).
   *
   * @param until - settles when the host has got through its start: the build's reads wait for it when the
   * saved block answers the first sessions at once, and start at once when it does not.
   */
  prepare(until?: Promise<void>): void;
  /**
   * Told the host's events: once a session goes idle after the plugin wrote to memory (a compaction's note,
   * its summary, the digest), builds again when the writes in flight are done, so the block saved for the
   * next start is read after them and answers that start's first prompt at once.
   */
  event(input: HostEventInput): void;
  /** Shutdown: a build still waiting for the host's start ends without reading. */
  close(): void;
}

/** Why a session starts with a saved block, for the log. */
const SAVED_WHY = { unwritten: 'nothing written to memory since', unchanged: "the project's memory unchanged since" } as const;

/** How long a build after writes waits for the plugin's other background work (a digest pass waits for its summary). */
export const REBUILD_WAIT_MS = 90_000;

/**
 * @param context - the parts of the plugin it uses.
 * @returns the hook and `prepare`.
 */
export function createSessionStart(context: SessionStartDeps): SessionStart {
  const { options, memory, runner, project, chains, background, logger } = forHook(context, 'session-start');
  const sessions = new Map<string, string | null>();
  // Sessions whose first call timed out: later calls only look whether the build is ready.
  const waited = new Set<string>();
  let current: Promise<BuiltContext> | null = null;
  let currentAt = 0;
  let currentRevision = memory.revision?.() ?? 0;
  // Set when the current build came back empty because it ran out of time.
  let currentMissed = false;
  // The current build's answer from the saved block: settles only if the memory is what the block was built from.
  let currentEarly: Promise<BuiltContext> = new Promise(() => undefined);
  const savedFile = savedBlockFile(options.stateDir, project.key);
  const markFile = writtenMarkFile(options.stateDir);
  let saved: Promise<SavedBlock | null> = loadSavedBlock(savedFile);
  // The build held back until the host's start, if one is: waking lets it read at once.
  let wakeBuild: () => void = () => undefined;
  let closed = false;
  // What the saved block's signature covers besides the memory read: what else shapes the block.
  const shape = [project.key, options.sessionStartTokens, options.sessionStartConceptTokens, options.sessionStartMemoryTokens, options.memoryScope, options.summaryMaxChars];

  async function build(offer: (built: BuiltContext) => void, held: Promise<void>): Promise<BuiltContext> {
    await held;
    if (closed) return { text: null, builtAt: Date.now(), timedOut: true };
    const start = performance.now();
    const readAt = Date.now();
    const timing = { timeoutMs: options.contextTimeoutMs };
    // One look at the chain per build: the project memory and the scope filters share it.
    const chain = withDeadline(chains.get(project.key), options.contextTimeoutMs).then((read) => (read.done ? read.value : null));
    const onceChains: ChainLookup = { get: () => chain };
    // Which thinking sessions are other projects', read beside the store's answers.
    const chainSessions = options.memoryScope === 'project' ? chain.then((record) => readChainSessions(chains, project, record, options.contextTimeoutMs)) : null;
    const fetched = chainSessions ? SCOPED_OVERFETCH : 1;
    const memoryBudget = Math.min(options.sessionStartMemoryTokens, options.sessionStartTokens);
    let signature: string | null = null;
    // Known from the store's reads, before any worker: whether the saved block was built from this memory.
    const onRead = (read: unknown): void => {
      signature = blockSignature([shape, read]);
      const known = signature;
      void saved.then((block) => {
        if (answersFor(block, known, Date.now())) offer({ text: block.text, builtAt: block.builtAt, timedOut: false, saved: 'unchanged' });
      });
    };
    const [projectMemory, search, recent, sessions] = await Promise.all([
      memoryBudget > 0
        ? readProjectMemory(memory, runner, project, onceChains, sessionMemoryLimits(options), onRead)
        : Promise.resolve({ memory: null, timedOut: false, problems: [] }),
      memory.search({ query: project.name, mode: 'Hybrid', pageSize: SEARCH_HITS * fetched }, timing),
      memory.recent({ limit: RECENT_FILES * fetched, withinMs: RECENT_SPAN_MS, includeContent: true }, timing),
      chainSessions,
    ]);
    let timedOut = projectMemory.timedOut || (!search.ok && search.error.code === 'TIMEOUT') || (!recent.ok && recent.error.code === 'TIMEOUT');
    if (!search.ok) logger.warn(`session context: SearchMemories failed (${search.error.code}): ${search.error.message}`);
    if (!recent.ok) logger.warn(`session context: RecentActivity failed (${recent.error.code}): ${recent.error.message}`);
    if (projectMemory.problems.length > 0) logger.warn(`session context: project memory incomplete: ${projectMemory.problems.join(', ')}`);
    if (sessions && sessions.others === null) logger.warn('session context: chain state not read; thinking sessions outside the project\'s own chain left out');
    const scoped = sessions ? projectFilters(project, sessions) : null;
    const hits = search.ok ? search.value.filter((hit) => !scoped || scoped.hit(hit)).slice(0, SEARCH_HITS) : [];
    const activity = recent.ok ? recent.value.filter((item) => !scoped || scoped.activity(item)).slice(0, RECENT_FILES) : [];
    const memoryText = projectMemory.memory?.text ?? '';
    const memoryTokens = projectMemory.memory?.tokens ?? 0;
    const memoryLine = projectMemory.memory
      ? `project memory ${memoryTokens} tokens (summary ${projectMemory.memory.summary ? 'yes' : 'no'}, ${projectMemory.memory.problems} problems, ${projectMemory.memory.next} next steps, ${projectMemory.memory.decisions} decisions from ${projectMemory.memory.notes} notes)`
      : 'no project memory';
    const done = (text: string | null, graphLine: string, missed: boolean): BuiltContext => {
      const ms = Math.round(performance.now() - start);
      logger.info(`session context: ${memoryLine}; ${graphLine} in ${ms} ms (project ${project.key})${missed ? '; out of time, built again at the next call' : ''}`);
      const built = { text, builtAt: Date.now(), timedOut: missed };
      if (!missed && signature !== null) {
        const block = { signature, text, builtAt: built.builtAt, readAt };
        saved = Promise.resolve(block);
        background.run('session context', () => saveBlock(savedFile, block));
      }
      return built;
    };
    // The separator between the blocks costs at most two tokens.
    const graphBudget = options.sessionStartTokens - memoryTokens - (memoryText ? 2 : 0);
    const perConcept = options.sessionStartConceptTokens;
    const wanted = Math.max(1, Math.floor(graphBudget / perConcept));
    // Twice what fits: some candidates will be empty or weak. The plugin's own words and the project's
    // name and key sit on every note (older notes link them): they would crowd out what the sessions were about.
    const topical = (concept: string): boolean => !isPluginConcept(concept, project.name) && concept !== project.key;
    const concepts =
      graphBudget >= Math.min(perConcept, 100)
        ? rankConcepts(linksOf(searchText(hits)).filter(topical), linksByFrequency(activityText(activity)).filter(topical), wanted * 2)
        : [];
    const left = options.contextTotalTimeoutMs - (performance.now() - start);
    if (concepts.length === 0 || left <= 0) {
      timedOut ||= left <= 0;
      return done(memoryText || null, `no graph context (${concepts.length} candidate concepts)`, timedOut);
    }
    const contexts = await fetchConceptContexts(memory, concepts, {
      depth: 1,
      maxEntities: 3,
      perCallTimeoutMs: options.contextTimeoutMs,
      totalTimeoutMs: left,
      ...(scoped ? { keepFile: scoped.file } : {}),
    });
    const skipped = contexts.filter((entry) => !entry.ok).map((entry) => `${entry.concept} (${entry.ok ? '' : entry.reason})`);
    timedOut ||= contexts.some((entry) => !entry.ok && entry.reason === 'timeout');
    const fitted = await fitConceptContexts(runner, contexts, {
      heading: SESSION_CONTEXT_HEADING,
      entryTokens: perConcept,
      totalTokens: graphBudget,
      encoding: 'o200k_base',
    });
    if (!fitted.ok) {
      logger.warn(`session context: budgeting failed: ${fitted.message}`);
      return done(memoryText || null, 'no graph context', true);
    }
    if (!fitted.value) return done(memoryText || null, `no usable concept; skipped ${skipped.join(', ') || 'none'}`, timedOut);
    const text = memoryText ? `${memoryText}\n\n${fitted.value.text}` : fitted.value.text;
    return done(text, `${fitted.value.concepts.length} concepts, ${fitted.value.tokens} tokens (${fitted.value.concepts.join(', ')}); skipped ${skipped.join(', ') || 'none'}`, false);
  }

  /**
   * The saved block when nothing was written to memory since its reads began (the newer of this process's
   * and the state folder's), else `null`. Two small file reads; never throws.
   */
  async function unwrittenAnswer(): Promise<BuiltContext | null> {
    const [file, own, written] = await Promise.all([loadSavedBlock(savedFile), saved.catch(() => null), lastWritten(markFile)]);
    const block = file && own ? (file.builtAt >= own.builtAt ? file : own) : (file ?? own);
    return answersUnread(block, written, Date.now()) ? { text: block.text, builtAt: block.builtAt, timedOut: false, saved: 'unwritten' } : null;
  }

  function prepare(until?: Promise<void>): Promise<BuiltContext> {
    // A store that counts its writes makes a context built before the last one stale.
    const revision = memory.revision?.() ?? 0;
    if (!current || currentMissed || Date.now() - currentAt > CONTEXT_TTL_MS || revision !== currentRevision) {
      currentAt = Date.now();
      currentRevision = revision;
      currentMissed = false;
      let offer: (built: BuiltContext) => void = () => undefined;
      currentEarly = new Promise((resolve) => (offer = resolve));
      let held: Promise<void> = Promise.resolve();
      if (until) {
        // While OpenCode starts, the saved block answers and the build waits: its reads (CLI calls, the file
        // store's index) and its fit would take the cores the host's start needs.
        held = Promise.race([until, new Promise<void>((resolve) => (wakeBuild = resolve))]);
        void unwrittenAnswer().then((answer) => {
          if (!answer) wakeBuild();
        });
      }
      const building = build(offer, held).catch((error: unknown): BuiltContext => {
        logger.warn(`session context: build failed: ${errorText(error)}`);
        return { text: null, builtAt: Date.now(), timedOut: true };
      });
      current = building;
      void building.then((built) => {
        if (current === building && built.timedOut) currentMissed = true;
      });
      // Tracked, so shutdown waits for the CLI calls it started.
      background.run('session context', () => building);
    }
    return current;
  }

  const hook: SystemTransform = async (input, output) => {
    try {
      if (!options.sessionStart || !memory.available || !input?.sessionID || !Array.isArray(output?.system)) return;
      let block = sessions.get(input.sessionID);
      if (block === undefined) {
        const patience = waited.has(input.sessionID) ? 0 : options.contextTotalTimeoutMs;
        const building = prepare();
        // Whichever comes first: the build, the saved block when nothing was written since its reads, or the
        // saved block once this build's reads show it was built from this memory.
        const unwritten = unwrittenAnswer().then((answer) => {
          if (answer) return answer;
          wakeBuild();
          return new Promise<BuiltContext>(() => undefined);
        });
        const ready = await withDeadline(Promise.race([building, unwritten, currentEarly]), patience);
        if (ready.done && !(ready.value.text === null && ready.value.timedOut)) {
          block = ready.value.text;
          if (ready.value.saved) logger.info(`session context: session ${input.sessionID} starts with the block built at ${new Date(ready.value.builtAt).toISOString()} (${SAVED_WHY[ready.value.saved]}) while the new one is built`);
          waited.delete(input.sessionID);
          if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
          sessions.set(input.sessionID, block);
        } else if (ready.done) {
          // A miss for want of time is not this session's answer: a later call looks again, without waiting.
          if (waited.size >= MAX_SESSIONS) waited.clear();
          waited.add(input.sessionID);
        } else if (!waited.has(input.sessionID)) {
          if (waited.size >= MAX_SESSIONS) waited.clear();
          waited.add(input.sessionID);
          logger.warn(`session context: not ready within ${patience} ms; this call of session ${input.sessionID} goes without`);
        }
      }
      if (block) appendToSystem(output.system, block);
    } catch (error) {
      logger.error(`session context: hook failed, system prompt left as it was: ${errorText(error)}`);
    }
  };

  let rebuilding = false;
  return {
    hook,
    prepare: (until) => void prepare(until),
    event(input) {
      if (rebuilding || closed || !options.sessionStart || !memory.available || !isSessionIdle(input)) return;
      if ((memory.revision?.() ?? 0) === currentRevision) return;
      rebuilding = true;
      void withDeadline(background.idle(), REBUILD_WAIT_MS)
        // Its reads begin past the slack a stamp may lag by: the saved block then stands unread.
        .then(() => new Promise((resolve) => setTimeout(resolve, 2 * MARK_SLACK_MS)))
        .then(() => {
          // prepare() builds only if the memory changed since the current build began.
          if (!closed) void prepare();
        })
        .finally(() => (rebuilding = false));
    },
    close() {
      closed = true;
      wakeBuild();
    },
  };
}
