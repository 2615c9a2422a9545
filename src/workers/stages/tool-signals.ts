/**
 * Problems, warnings and successes that tool output reports: the typed
 * observations (seed 003) that are not decisions, concepts or files.
 *
 * Every pattern is anchored near the start of a line and scans a bounded
 * prefix of it, so the cost stays linear on any output.
 */
import type { Observation, ObservationType } from './observations.js';
import { capChars } from './sections.js';

/** How much of each line the patterns look at. */
const LINE_PREFIX_CHARS = 240;
/** How many signals one tool output may yield. */
const MAX_SIGNALS_PER_OUTPUT = 8;

const PROBLEM = /^\s*(?:(?:[A-Z][A-Za-z]*)?Error\b|error(?:\[[A-Z0-9]+\])?:|FAIL\b|FAILED\b|Traceback \(most recent call last\)|panic:|fatal:|✗|×\s|npm ERR!|Exception\b|[A-Za-z.]+Exception:)/;
const WARNING = /^\s*(?:warn(?:ing)?\b:?|WARN\b|⚠|DeprecationWarning|npm warn\b|\(node:\d+\) \w*Warning)/i;
const SUCCESS = /^\s*(?:✓|✔|PASS\b|ok\b|Tests?:?\s+\d+ passed|\d+ (?:passed|passing)\b|Build succeeded|All \d* ?tests? passed|Successfully\b)/;

/**
 * Classifies one line of tool output.
 *
 * @param line - a line of output, any length.
 * @returns the observation type it signals, or `null`.
 */
export function classifySignalLine(line: string): ObservationType | null {
  const head = capChars(line, LINE_PREFIX_CHARS);
  if (PROBLEM.test(head)) return 'problem';
  if (WARNING.test(head)) return 'warning';
  if (SUCCESS.test(head)) return 'success';
  return null;
}

/**
 * Observations signalled by one tool call's output.
 *
 * @param tool - the tool's name, kept as a topic.
 * @param output - the (already bounded) output text.
 * @param failed - whether the call itself errored; its first line becomes a problem.
 * @param order - the message position, for recency.
 */
export function signalsFromToolOutput(tool: string, output: string, failed: boolean, order: number): Observation[] {
  const signals: Observation[] = [];
  const seen = new Set<string>();
  const push = (type: ObservationType, raw: string): void => {
    // Cut whole characters only: half of a surrogate pair must never reach a prompt or a note.
    const text = capChars(raw.trim(), 200);
    if (text.length === 0 || seen.has(text)) return;
    seen.add(text);
    signals.push({ id: `${type}:${text.toLowerCase()}`, type, text, order, frequency: 1, topics: [tool] });
  };
  if (failed) push('problem', `${tool} failed: ${output.split('\n', 1)[0] ?? ''}`);
  let start = 0;
  while (start < output.length && signals.length < MAX_SIGNALS_PER_OUTPUT) {
    let end = output.indexOf('\n', start);
    if (end === -1) end = output.length;
    const line = capChars(output.slice(start, end), LINE_PREFIX_CHARS);
    const type = classifySignalLine(line);
    if (type !== null) push(type, line);
    start = end + 1;
  }
  return signals;
}
