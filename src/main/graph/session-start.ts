/**
 * Session start (FR-12.1): knowledge-graph context appended to the system
 * prompt of each session's model calls.
 *
 * The context depends on the project and recent activity, not on the
 * session, so it is built ahead (when the plugin loads and again when it
 * goes stale) and a session's first call usually finds it ready. Each session
 * keeps the block it started with, so its system prompt stays stable.
 */
import { performance } from 'node:perf_hooks';
import { fetchConceptContexts, fitConceptContexts } from './graph-context.js';
import { activityText, linksByFrequency, linksOf, rankConcepts, searchText } from './wikilink-ranking.js';
import { isPluginConcept } from '../compaction/compaction-note.js';
import { withDeadline } from '../shared/deadline.js';
import { appendToSystem } from '../shared/system-text.js';
import { errorText } from '../shared/logger.js';
import { forHook, type HandlerDeps } from '../shared/handler-deps.js';
import type { MemoryPort } from '../memory/memory-port.js';
import type { TaskRunner } from '../pool/task-runner.js';
import type { BackgroundWork } from '../shared/background-work.js';

/** The heading of the injected block. */
export const SESSION_CONTEXT_HEADING = '## Knowledge Graph Context';

/** How long a built context is reused for new sessions. */
export const CONTEXT_TTL_MS = 5 * 60_000;

/** Recent activity looked at: the last day. */
const RECENT_SPAN_MS = 86_400_000;

/** Sessions remembered; the oldest is forgotten past this. */
const MAX_SESSIONS = 1_000;

interface BuiltContext {
  text: string | null;
  builtAt: number;
  /**
   * The build ran out of time somewhere (a CLI call, the total budget): a
   * miss then says nothing about the graph, so it is not kept, and the next
   * call builds again.
   */
  timedOut: boolean;
}

type SystemTransform = (input: { sessionID?: string; model?: { id?: string } }, output: { system: string[] }) => Promise<void>;

/** What the handler uses of the plugin's shared parts. */
export interface SessionStartDeps extends HandlerDeps {
  /** The memory store: the maenifold CLI or the built-in file store. */
  cli: MemoryPort;
  runner: TaskRunner;
  /** The project's name. */
  project: string;
  background: BackgroundWork;
}

/**
 * @param context - the parts of the plugin it uses.
 * @returns the hook and `prepare`, which starts a build ahead of need.
 */
export function createSessionStart(context: SessionStartDeps): { hook: SystemTransform; prepare(): void } {
  const { options, cli, runner, project, background, logger } = forHook(context, 'session-start');
  const sessions = new Map<string, string | null>();
  // Sessions whose first call timed out: later calls only look whether the build is ready.
  const waited = new Set<string>();
  let current: Promise<BuiltContext> | null = null;
  let currentAt = 0;
  let currentRevision = cli.revision?.() ?? 0;
  // Set when the current build came back empty because it ran out of time.
  let currentMissed = false;

  async function build(): Promise<BuiltContext> {
    const start = performance.now();
    const timing = { timeoutMs: options.contextTimeoutMs };
    const [search, recent] = await Promise.all([
      cli.search({ query: project, mode: 'Hybrid', pageSize: 5 }, timing),
      cli.recent({ limit: 10, withinMs: RECENT_SPAN_MS, includeContent: true }, timing),
    ]);
    let timedOut = (!search.ok && search.error.code === 'TIMEOUT') || (!recent.ok && recent.error.code === 'TIMEOUT');
    if (!search.ok) logger.warn(`session context: SearchMemories failed (${search.error.code}): ${search.error.message}`);
    if (!recent.ok) logger.warn(`session context: RecentActivity failed (${recent.error.code}): ${recent.error.message}`);
    const hitText = search.ok ? searchText(search.value) : '';
    const perConcept = options.sessionStartConceptTokens;
    const wanted = Math.max(1, Math.floor(options.sessionStartTokens / perConcept));
    // Twice what fits: some candidates will be empty or weak. The plugin's own words and the project's
    // name sit on every note (older notes link them): they would crowd out what the sessions were about.
    const topical = (concept: string): boolean => !isPluginConcept(concept, project);
    const concepts = rankConcepts(linksOf(hitText).filter(topical), (recent.ok ? linksByFrequency(activityText(recent.value)) : []).filter(topical), wanted * 2);
    const left = options.contextTotalTimeoutMs - (performance.now() - start);
    if (concepts.length === 0 || left <= 0) {
      timedOut ||= left <= 0;
      logger.info(`session context: nothing to inject (${concepts.length} candidate concepts${timedOut ? '; out of time, built again at the next call' : ''})`);
      return { text: null, builtAt: Date.now(), timedOut };
    }
    const contexts = await fetchConceptContexts(cli, concepts, {
      depth: 1,
      maxEntities: 3,
      perCallTimeoutMs: options.contextTimeoutMs,
      totalTimeoutMs: left,
    });
    const skipped = contexts.filter((entry) => !entry.ok).map((entry) => `${entry.concept} (${entry.ok ? '' : entry.reason})`);
    timedOut ||= contexts.some((entry) => !entry.ok && entry.reason === 'timeout');
    const fitted = await fitConceptContexts(runner, contexts, {
      heading: SESSION_CONTEXT_HEADING,
      entryTokens: perConcept,
      totalTokens: options.sessionStartTokens,
      encoding: 'o200k_base',
    });
    if (!fitted.ok) {
      logger.warn(`session context: budgeting failed: ${fitted.message}`);
      return { text: null, builtAt: Date.now(), timedOut: true };
    }
    const ms = Math.round(performance.now() - start);
    if (!fitted.value) {
      logger.info(`session context: no usable concept in ${ms} ms; skipped ${skipped.join(', ') || 'none'}${timedOut ? '; out of time, built again at the next call' : ''}`);
      return { text: null, builtAt: Date.now(), timedOut };
    }
    logger.info(
      `session context: ${fitted.value.concepts.length} concepts, ${fitted.value.tokens} tokens in ${ms} ms (${fitted.value.concepts.join(', ')}); skipped ${skipped.join(', ') || 'none'}`,
    );
    return { text: fitted.value.text, builtAt: Date.now(), timedOut: false };
  }

  function prepare(): Promise<BuiltContext> {
    // A store that counts its writes makes a context built before the last one stale.
    const revision = cli.revision?.() ?? 0;
    if (!current || currentMissed || Date.now() - currentAt > CONTEXT_TTL_MS || revision !== currentRevision) {
      currentAt = Date.now();
      currentRevision = revision;
      currentMissed = false;
      const building = build().catch((error: unknown): BuiltContext => {
        logger.warn(`session context: build failed: ${errorText(error)}`);
        return { text: null, builtAt: Date.now(), timedOut: true };
      });
      current = building;
      void building.then((built) => {
        if (current === building && built.text === null && built.timedOut) currentMissed = true;
      });
      // Tracked, so shutdown waits for the CLI calls it started.
      background.run('session context', () => building);
    }
    return current;
  }

  const hook: SystemTransform = async (input, output) => {
    try {
      if (!options.sessionStart || !cli.available || !input?.sessionID || !Array.isArray(output?.system)) return;
      let block = sessions.get(input.sessionID);
      if (block === undefined) {
        const patience = waited.has(input.sessionID) ? 0 : options.contextTotalTimeoutMs;
        const ready = await withDeadline(prepare(), patience);
        if (ready.done && !(ready.value.text === null && ready.value.timedOut)) {
          block = ready.value.text;
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

  return { hook, prepare: () => void prepare() };
}
