/**
 * Scores what an extraction kept from a session against a hand-written truth
 * (the definitions of the real-sessions corpus README): case-insensitive
 * substring matching after NFKC, `a|b` alternatives, every keyword group of a
 * truth item matching one extracted item. How text is compared is in
 * `truth-match.ts`; the rates pooled over sessions in `pooled-metrics.ts`.
 */
import { allGroupsMatch, contextWithoutFiles, normalizeForMatch, pathForMatch } from './truth-match.js';

/** A truth item: what a careful reader keeps, and the keyword groups that recognise it. */
export interface TruthItem {
  text: string;
  /** Every group must match; a group matches when one of its `|` alternatives occurs. */
  keywords: string[];
}

/** The ground truth of one session. */
export interface Truth {
  session: string;
  decisions: TruthItem[];
  files: string[];
  problems: TruthItem[];
  topics: string[];
  next: TruthItem[];
}

/** What an extraction kept, in the shape the scorer reads. */
export interface ScoredOutput {
  decisions: ReadonlyArray<{ text: string; context?: string; category?: string }>;
  files: readonly string[];
  observations: ReadonlyArray<{ type: string; text: string }>;
  concepts: readonly string[];
  /** Items of a next-steps list, when the extraction has one besides its observations. */
  next?: readonly string[];
  /** The preservation context; `tokens` as counted by the model's tokenizer. */
  context: { text: string; tokens: number; budget: number };
}

/** Hits and totals of one session, or of a pool of sessions. */
export interface Counts {
  decisionTruth: number;
  decisionHits: number;
  decisionsExtracted: number;
  decisionsReal: number;
  fileTruth: number;
  fileHits: number;
  problemTruth: number;
  problemHits: number;
  topicTruth: number;
  topicHits: number;
  nextTruth: number;
  nextHits: number;
}

/** One session's score. */
export interface SessionScore {
  name: string;
  /** False when the run failed or its context broke the budget: every truth item is then a miss. */
  ok: boolean;
  /** Why the run does not count, when it does not. */
  failure?: string;
  counts: Counts;
  missed: { decisions: string[]; files: string[]; problems: string[]; topics: string[]; next: string[] };
  /** Extracted decisions that match no truth decision. */
  noise: string[];
}

/** The largest preservation context a run may keep and still count. */
export const MAX_CONTEXT_BUDGET = 500;

/**
 * Counts with the truth's totals and no hits yet.
 *
 * @param truth - the session's ground truth; an empty one gives all zeros.
 */
export function emptyCounts(truth: Truth): Counts {
  return {
    decisionTruth: truth.decisions.length,
    decisionHits: 0,
    decisionsExtracted: 0,
    decisionsReal: 0,
    fileTruth: truth.files.length,
    fileHits: 0,
    problemTruth: truth.problems.length,
    problemHits: 0,
    topicTruth: truth.topics.length,
    topicHits: 0,
    nextTruth: truth.next.length,
    nextHits: 0,
  };
}

/** Truth items recalled by one of `candidates` or by the context, and the texts of those missed. */
function recall(items: readonly TruthItem[], candidates: readonly string[], context: string): { hits: number; missed: string[] } {
  const missed: string[] = [];
  for (const item of items) {
    if (!candidates.some((text) => allGroupsMatch(item.keywords, text)) && !allGroupsMatch(item.keywords, context)) missed.push(item.text);
  }
  return { hits: items.length - missed.length, missed };
}

/**
 * Why an output does not count, or `null` when it does.
 *
 * @param output - the extraction, or `null` when it did not run.
 */
function failureOf(output: ScoredOutput | null, reason: string | undefined): string | null {
  if (!output) return reason ?? 'did not run';
  const { tokens, budget } = output.context;
  if (!Number.isFinite(tokens) || !Number.isFinite(budget)) return 'context has no token count';
  if (budget > MAX_CONTEXT_BUDGET) return `context budget ${budget} is over ${MAX_CONTEXT_BUDGET}`;
  if (tokens > budget) return `context of ${tokens} tokens is over its budget of ${budget}`;
  return null;
}

/**
 * Scores one session.
 *
 * @param truth - the session's ground truth.
 * @param output - what the extraction kept; `null` when it failed, so every item is a miss.
 * @param reason - why it failed, when `output` is `null`.
 */
export function scoreSession(truth: Truth, output: ScoredOutput | null, reason?: string): SessionScore {
  const counts = emptyCounts(truth);
  const failure = failureOf(output, reason);
  if (failure !== null || !output) {
    return {
      name: truth.session,
      ok: false,
      failure: failure ?? 'did not run',
      counts,
      missed: {
        decisions: truth.decisions.map((item) => item.text),
        files: [...truth.files],
        problems: truth.problems.map((item) => item.text),
        topics: [...truth.topics],
        next: truth.next.map((item) => item.text),
      },
      noise: [],
    };
  }
  const context = contextWithoutFiles(output.context.text);
  const decisions = output.decisions.map((decision) => normalizeForMatch(`${decision.text} ${decision.context ?? ''} ${decision.category ?? ''}`));
  const problems = output.observations.filter((observation) => /problem|warning|error/i.test(observation.type)).map((observation) => normalizeForMatch(observation.text));
  const steps = [...output.observations.map((observation) => observation.text), ...(output.next ?? [])].map(normalizeForMatch);
  const files = output.files.map(pathForMatch);
  const concepts = output.concepts.map(normalizeForMatch);

  const decided = recall(truth.decisions, decisions, context);
  const real = decisions.filter((text) => truth.decisions.some((item) => allGroupsMatch(item.keywords, text)));
  const problemHits = recall(truth.problems, problems, context);
  const nextHits = recall(truth.next, steps, context);
  const missedFiles = truth.files.filter((file) => {
    const wanted = pathForMatch(file).replace(/^\/+/, '');
    return !files.some((path) => path === wanted || path.endsWith(`/${wanted}`));
  });
  const missedTopics = truth.topics.filter(
    (topic) =>
      !topic.split('|').some((alternative) => {
        const wanted = normalizeForMatch(alternative).trim().replace(/\s+/g, '-');
        return wanted.length > 0 && concepts.some((concept) => concept.includes(wanted));
      }),
  );
  Object.assign(counts, {
    decisionHits: decided.hits,
    decisionsExtracted: decisions.length,
    decisionsReal: real.length,
    fileHits: truth.files.length - missedFiles.length,
    problemHits: problemHits.hits,
    topicHits: truth.topics.length - missedTopics.length,
    nextHits: nextHits.hits,
  });
  return {
    name: truth.session,
    ok: true,
    counts,
    missed: { decisions: decided.missed, files: missedFiles, problems: problemHits.missed, topics: missedTopics, next: nextHits.missed },
    noise: output.decisions
      .filter((_, index) => !truth.decisions.some((item) => allGroupsMatch(item.keywords, decisions[index] ?? '')))
      .map((decision) => decision.text),
  };
}

