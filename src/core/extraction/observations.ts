/**
 * Observations made during a session and how much each one matters when the
 * context has to shrink to its token budget.
 */

/** What an observation records. */
export type ObservationType = 'decision' | 'problem' | 'next' | 'warning' | 'success' | 'concept' | 'file' | 'note';

/** One thing the session learned. Plain data: it crosses worker threads. */
export interface Observation {
  /** Stable identity, used to merge repeats. */
  id: string;
  type: ObservationType;
  /** The observation as one line of text. */
  text: string;
  /** Position in the session: higher is more recent. */
  order: number;
  /** How often it was seen, at least 1. */
  frequency: number;
  /** Key words or concepts, used to summarize it when it is dropped. */
  topics?: string[];
  /**
   * What produced it, when a later event can settle it: for problems from a command's output, the
   * command's key (see `commandKey`), so a later clean run of the same command marks them resolved.
   */
  source?: string;
}

/**
 * How much each type matters on its own, from 0 to 1.
 *
 * - `decision` 1 and `problem` 0.95: why the code is the way it is and what is still broken cannot be
 *   recovered from the repository, and a continuation that loses them repeats work or undoes choices.
 * - `next` 0.9: what the user asked for last and what was in progress; the continuation starts there.
 * - `warning` 0.8: a pitfall already met; cheap to keep, costly to step into twice.
 * - `file` 0.6: the files that matter; the continuation reopens them first, and a path is cheap.
 * - `success` 0.5: confirms what works, so nobody re-checks it, but the code itself shows much of it.
 * - `concept` 0.45: names in the knowledge graph; the graph keeps them, the context only needs the live ones.
 * - `note` 0.15: unclassified remarks, the first to go.
 */
export const TYPE_WEIGHTS: Readonly<Record<ObservationType, number>> = Object.freeze({
  decision: 1,
  problem: 0.95,
  next: 0.9,
  warning: 0.8,
  file: 0.6,
  success: 0.5,
  concept: 0.45,
  note: 0.15,
});

/** Positions after which recency has halved. */
const RECENCY_HALF_LIFE = 25;
/** Share of the type weight an observation keeps however old it is, so an old decision still outranks a fresh note. */
const RECENCY_FLOOR = 0.3;
/** Gain per doubling of `frequency`. */
const FREQUENCY_GAIN = 0.5;

/**
 * Relevance of an observation when the context must shrink: higher is kept first.
 *
 * `score = weight × (RECENCY_FLOOR + (1 − RECENCY_FLOOR) × 0.5^(age / RECENCY_HALF_LIFE)) × (1 + FREQUENCY_GAIN × log2(frequency))`
 * with `weight = TYPE_WEIGHTS[type]`, `age = max(0, latestOrder − order)`, floor 0.3, half-life 25 positions and
 * gain 0.5. So recency decays smoothly but never below 30 % of the type weight, and repeats help with diminishing
 * returns (seen twice ×1.5, four times ×2, sixteen times ×3). The same input always gives the same score.
 *
 * @param observation - the observation to score; an unknown type weighs like a note, a missing or
 *   non-finite `frequency` counts as 1 and a non-finite `order` as the latest.
 * @param context - `latestOrder`: the most recent position in the session, the reference for recency.
 * @returns a score ≥ 0; about 3 at most for realistic frequencies.
 */
export function calculateRelevanceScore(observation: Observation, context: { latestOrder: number }): number {
  const weight = (TYPE_WEIGHTS as Record<string, number | undefined>)[observation.type] ?? TYPE_WEIGHTS.note;
  const age = Number.isFinite(observation.order) && Number.isFinite(context.latestOrder)
    ? Math.max(0, context.latestOrder - observation.order)
    : 0;
  const recency = RECENCY_FLOOR + (1 - RECENCY_FLOOR) * 0.5 ** (age / RECENCY_HALF_LIFE);
  const frequency = Number.isFinite(observation.frequency) ? Math.max(1, observation.frequency) : 1;
  return weight * recency * (1 + FREQUENCY_GAIN * Math.log2(frequency));
}

/** Topics taken from one observation at most, so summaries stay cheap on long texts. */
const MAX_TOPICS_PER_OBSERVATION = 12;
/** Characters of text searched for salient words. */
const MAX_TOPIC_SOURCE_CHARS = 1_000;
/** Longest topic kept; longer ones are cut. */
const MAX_TOPIC_CHARS = 40;
/** A word, possibly joined by `_ - . /` (`worker-pool`, `src/tokens.ts`, `o200k_base`). */
const WORD = /[\p{L}\p{N}](?:[\p{L}\p{N}_\-./]*[\p{L}\p{N}])?/gu;
const DIGITS_ONLY = /^[\d.]+$/;

/** Function words and filler verbs that say nothing about a topic. Words under three letters are dropped anyway. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'the and for with that this these those from into onto over under about after before again also just only ' +
    'very more most some such each other own same too than then when what which who whom why how where while ' +
    'here there now not but all any both few yet per via are was were been being has have had does did doing ' +
    'done can could should would will shall may might must its our you your they them their use used using ' +
    'get got let make made need needs new see set way one two because until out off instead still already'
  ).split(' '),
);

/** A topic as one short lowercase phrase that cannot break a comma-separated line. */
function normalizeTopic(raw: string): string {
  return raw.toLowerCase().replace(/[\s,]+/g, ' ').trim().slice(0, MAX_TOPIC_CHARS).trim();
}

/**
 * The key topics of an observation, for summaries of dropped ones.
 *
 * @param observation - its `topics` are used when any is usable; otherwise the salient words of its `text`
 *   (lowercased; stop words, words under three characters and numbers left out).
 * @returns distinct topics in order of appearance, at most 12.
 */
export function observationTopics(observation: Observation): string[] {
  const found = new Set<string>();
  for (const raw of Array.isArray(observation.topics) ? observation.topics : []) {
    const topic = typeof raw === 'string' ? normalizeTopic(raw) : '';
    if (topic.length > 0) found.add(topic);
    if (found.size === MAX_TOPICS_PER_OBSERVATION) break;
  }
  if (found.size > 0) return [...found];
  const text = typeof observation.text === 'string' ? observation.text.slice(0, MAX_TOPIC_SOURCE_CHARS).toLowerCase() : '';
  for (const [word] of text.matchAll(WORD)) {
    if (word.length < 3 || STOP_WORDS.has(word) || DIGITS_ONLY.test(word)) continue;
    const topic = word.slice(0, MAX_TOPIC_CHARS);
    found.add(topic);
    if (found.size === MAX_TOPICS_PER_OBSERVATION) break;
  }
  return [...found];
}
