/**
 * Shrinks a session's observations to a token budget before compaction:
 * the most relevant are kept, the rest dropped or summarized in
 * one line. Every count is exact, taken on the text as it will be sent.
 */
import { calculateRelevanceScore, observationTopics, type Observation } from '../extraction/observations.js';
import { countTokens, isWithinTokens, type TokenEncoding } from '../text/tokens/tokens.js';
import { AGGRESSIVE_STRATEGY, CONSERVATIVE_STRATEGY, resolveStrategy, type CompactionStrategy } from './compaction-strategy.js';
import { formatSummary, moveTopics, type TopicCounts } from './dropped-summary.js';

/** What {@link handleSessionCompacting} returns. Plain data. */
export interface CompactionResult {
  /** The kept observations, in their original order. */
  observations: Observation[];
  /** How many were dropped. */
  removed: number;
  /** In `aggressive` mode, the line that stands for the dropped ones (rendered first); otherwise `null`. */
  summary: string | null;
  /** Exact token count of the summary line and the kept lines joined by `\n`; `NaN` when degraded. */
  tokens: number;
  /** `true` when an internal error left the input unchanged. */
  degraded: boolean;
}

const SEPARATOR = '\n';
/** Lines longer than this are first checked against the room left, so one huge line is never counted whole. */
const LONG_LINE_CHARS = 4_096;
/** Exact re-checks spent extending the kept observations past the per-line estimate. */
const MAX_REFILL_ATTEMPTS = 16;
/** Topics a summary names unless told otherwise. */
const DEFAULT_SUMMARY_TOPICS = 8;
/** Tokens a join may save (`.` and `\n` merge into one token), so a line one over the slack may still fit. */
const JOIN_SAVING = 1;

/**
 * Renders an observation as `- [type] text`.
 *
 * @param observation - the observation to render.
 */
export function renderObservation(observation: Observation): string {
  return `- [${observation.type}] ${observation.text}`;
}

/** Indices from most to least worth keeping: preserved types first (conservative), then score, recency, position. */
function rankByPriority(observations: readonly Observation[], strategy: CompactionStrategy): number[] {
  let latestOrder = Number.NEGATIVE_INFINITY;
  for (const observation of observations) {
    if (Number.isFinite(observation.order) && observation.order > latestOrder) latestOrder = observation.order;
  }
  const scores = observations.map((observation) => calculateRelevanceScore(observation, { latestOrder }));
  const preserved = new Set<string>(strategy.mode === 'conservative' ? strategy.preserveTypes : []);
  const tier = observations.map((observation) => (preserved.has(observation.type) ? 0 : 1));
  const orderOf = (index: number): number => {
    const order = observations[index]?.order ?? 0;
    return Number.isFinite(order) ? order : 0;
  };
  return observations
    .map((_, index) => index)
    .sort((a, b) => tier[a]! - tier[b]! || scores[b]! - scores[a]! || orderOf(b) - orderOf(a) || a - b);
}

/**
 * Keeps the longest run of the priority order that fits, so the lowest-priority observations go first. Each
 * line is counted once, with its separator, for a greedy estimate; then the assembled text is counted exactly,
 * trimmed from the lowest priority while over the target, and extended while the exact count allows. An
 * observation whose line alone exceeds the target can never be kept and is passed over, so it blocks nothing.
 */
function selectWithinBudget(
  observations: readonly Observation[],
  lines: readonly string[],
  strategy: CompactionStrategy,
  encoding: TokenEncoding,
): CompactionResult {
  const target = strategy.targetTokenCount;
  const priority = rankByPriority(observations, strategy);
  const kept = new Uint8Array(lines.length);
  const costs = new Float64Array(lines.length).fill(Number.NaN);
  // Aggressive mode tracks the topics of what is dropped; everything starts dropped.
  const topics = strategy.mode === 'aggressive' ? observations.map((observation) => observationTopics(observation)) : null;
  const dropped: TopicCounts = new Map();
  if (topics !== null) for (const list of topics) moveTopics(dropped, list, 1);
  let summaryTopics = DEFAULT_SUMMARY_TOPICS;
  let keptCount = 0;

  const costOf = (index: number, room: number): number => {
    const cached = costs[index]!;
    if (!Number.isNaN(cached)) return cached;
    const line = lines[index]! + SEPARATOR;
    if (line.length > LONG_LINE_CHARS && !isWithinTokens(line, room, encoding)) return room + 1;
    return (costs[index] = countTokens(line, encoding));
  };
  const isOversized = (index: number): boolean => !isWithinTokens(lines[index]!, target, encoding);
  const setKept = (index: number, keep: boolean): void => {
    kept[index] = keep ? 1 : 0;
    keptCount += keep ? 1 : -1;
    if (topics !== null) moveTopics(dropped, topics[index]!, keep ? -1 : 1);
  };
  const measure = (): { summary: string | null; tokens: number } => {
    const removed = lines.length - keptCount;
    const summary = topics === null || removed === 0 ? null : formatSummary(removed, dropped, summaryTopics);
    const parts = summary === null ? [] : [summary];
    for (let index = 0; index < lines.length; index++) if (kept[index] === 1) parts.push(lines[index]!);
    return { summary, tokens: countTokens(parts.join(SEPARATOR), encoding) };
  };

  let state = measure();
  let room = target - (state.summary === null ? 0 : countTokens(state.summary + SEPARATOR, encoding));
  for (const index of priority) {
    const cost = costOf(index, Math.max(room, 0));
    if (cost <= room) {
      setKept(index, true);
      room -= cost;
    } else if (!isOversized(index)) break;
  }

  state = measure();
  for (let cursor = priority.length - 1; state.tokens > target && cursor >= 0; cursor--) {
    const index = priority[cursor]!;
    if (kept[index] === 0) continue;
    setKept(index, false);
    state = measure();
  }
  // Nothing kept and the summary alone is too long: fewer topics, then no summary.
  while (state.tokens > target && state.summary !== null) {
    if (summaryTopics === 0) state = { summary: null, tokens: 0 };
    else {
      summaryTopics--;
      state = measure();
    }
  }

  // The estimate counts a separator per line and misses tokens that joins merge: add what still fits exactly.
  let attempts = 0;
  for (const index of priority) {
    const slack = target - state.tokens;
    if (kept[index] === 1) continue;
    if (slack <= 0 || attempts >= MAX_REFILL_ATTEMPTS) break;
    if (costOf(index, slack + JOIN_SAVING) > slack + JOIN_SAVING) {
      if (isOversized(index)) continue;
      break;
    }
    attempts++;
    setKept(index, true);
    const next = measure();
    if (next.tokens > target) {
      setKept(index, false);
      break;
    }
    state = next;
  }

  const survivors = observations.filter((_, index) => kept[index] === 1);
  return {
    observations: survivors,
    removed: observations.length - survivors.length,
    summary: state.summary,
    tokens: state.tokens,
    degraded: false,
  };
}

/**
 * Fits a session's observations into `targetTokenCount` exact tokens before compaction.
 *
 * Under the target, the observations come back as they are. Over it, they are scored with
 * `calculateRelevanceScore` and the lowest-priority ones are dropped until the rest fits (an observation whose
 * line alone exceeds the target is dropped outright). In `conservative` mode the `preserveTypes` rank above every
 * other type, so others go first; if the preserved ones alone exceed the target, the highest-scored of them that
 * fit are kept, which is a normal result, not a degraded one. In `aggressive` mode the score alone decides, and
 * the dropped ones become one summary line that counts against the target too (with fewer topics, or left out,
 * when even it does not fit). Kept observations keep their original order.
 *
 * @param observations - the session's observations, in any order.
 * @param strategy - overrides of the strategy; missing fields come from {@link CONSERVATIVE_STRATEGY}, or from
 *   {@link AGGRESSIVE_STRATEGY} when `mode` is `'aggressive'`. @default CONSERVATIVE_STRATEGY
 * @param settings - `encoding`: the tokenizer @default 'o200k_base'; `render`: one observation as one line of
 *   the text that is counted @default renderObservation (`- [type] text`).
 * @returns the kept observations and their exact count. Never throws: on any error, including an invalid
 *   strategy or a throwing `render`, the input comes back unchanged with `degraded: true`.
 */
export function handleSessionCompacting(
  observations: readonly Observation[],
  strategy: Partial<CompactionStrategy> = {},
  settings: { encoding?: TokenEncoding; render?: (observation: Observation) => string } = {},
): CompactionResult {
  try {
    const resolved = resolveStrategy(strategy);
    const encoding = settings.encoding ?? 'o200k_base';
    const render = settings.render ?? renderObservation;
    const lines = observations.map((observation) => render(observation));
    const whole = lines.join(SEPARATOR);
    if (isWithinTokens(whole, resolved.targetTokenCount, encoding)) {
      return { observations: [...observations], removed: 0, summary: null, tokens: countTokens(whole, encoding), degraded: false };
    }
    return selectWithinBudget(observations, lines, resolved, encoding);
  } catch {
    // Fail safe: compaction goes on with what the caller already had.
    return {
      observations: Array.isArray(observations) ? [...observations] : [],
      removed: 0,
      summary: null,
      tokens: Number.NaN,
      degraded: true,
    };
  }
}
