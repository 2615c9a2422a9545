/**
 * The continuity run through both OpenCode lines side by side: each
 * session's 1.x and 2.x scenarios run at the same moment, and the sessions
 * whose next session received different text are listed with the lines only
 * one line received. Two texts that differ only in dates, times and ages
 * (the compactions of two processes a minute apart) are told apart from
 * texts that differ in what they say.
 */
import type { CorpusEntry } from './corpus.js';
import { emptyResults, runContinuityHosts, type ContinuityOptions, type ContinuityResults } from './continuity.js';
import { clockMasked, linesMissingFrom } from './continuity-score.js';

/** How one session's received text compares between the hosts. */
export interface HostDifference {
  name: string;
  /** `clock`: the same once dates, times and ages are masked; `text`: not even then; `failed`: a host's run failed. */
  kind: 'clock' | 'text' | 'failed';
  /** Lines only the 1.x instance received, as it received them. */
  onlyV1: string[];
  /** Lines only the 2.x instance received. */
  onlyV2: string[];
}

/** The hosts side by side: each one's results, and the sessions whose received text differs. */
export interface HostComparison {
  v1: ContinuityResults;
  v2: ContinuityResults;
  /** Sessions whose text is the same to the byte through both hosts. */
  identical: number;
  /** The others, in corpus order. */
  differences: HostDifference[];
  notes: string[];
}

/**
 * Compares two received texts of one session.
 *
 * @returns `null` when they are the same to the byte.
 */
export function hostDifference(name: string, v1: string | null, v2: string | null): HostDifference | null {
  if (v1 === null || v2 === null) return { name, kind: 'failed', onlyV1: [], onlyV2: [] };
  if (v1 === v2) return null;
  const kind = clockMasked(v1) === clockMasked(v2) ? 'clock' : 'text';
  return { name, kind, onlyV1: linesMissingFrom(v1, v2), onlyV2: linesMissingFrom(v2, v1) };
}

/**
 * Runs the continuity scenario through both OpenCode lines, each session's two scenarios at once, and
 * compares what P's next session received through each.
 *
 * @param entries - as for {@link runContinuity}.
 * @param options - as for {@link runContinuity}; `host` is not read.
 */
export async function compareHosts(entries: readonly CorpusEntry[], options: Partial<ContinuityOptions> = {}): Promise<HostComparison> {
  const { results, notes } = await runContinuityHosts(entries, ['v1', 'v2'], options);
  const v1 = results.get('v1') ?? emptyResults('v1');
  const v2 = results.get('v2') ?? emptyResults('v2');
  const differences: HostDifference[] = [];
  for (const [index, run] of v1.runs.entries()) {
    const difference = hostDifference(run.name, run.received, v2.runs[index]?.received ?? null);
    if (difference) differences.push(difference);
  }
  return { v1, v2, identical: v1.runs.length - differences.length, differences, notes };
}
