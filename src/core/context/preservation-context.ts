/**
 * Renders the observations that survived the budget as the preservation
 * context pushed into the compaction prompt, fitted to an exact token budget.
 *
 * Groups come in order of value — what was decided, what is still broken,
 * what was in progress, the files that matter — so when the budget cuts, it
 * cuts what a continuation misses least. Empty groups are not printed, and no
 * entry appears twice.
 */
import type { Observation, ObservationType } from '../extraction/observations.js';
import { fitLines } from '../text/fit-lines.js';
import { truncateToTokens } from '../text/tokens/token-truncation.js';
import { cutAtBoundary } from '../text/boundary-cut.js';
import { countTokens, isWithinTokens, type TokenEncoding } from '../text/tokens/tokens.js';

/** Groups in order of value; the budget cuts from the end. */
export const CONTEXT_GROUPS: ReadonlyArray<{ type: ObservationType; heading: string }> = [
  { type: 'decision', heading: 'Decisions' },
  { type: 'problem', heading: 'Open problems' },
  { type: 'next', heading: 'In progress / next' },
  { type: 'warning', heading: 'Warnings' },
  // "Working set": the heading that marks paths as a list of files, not prose about them.
  { type: 'file', heading: 'Working set' },
  { type: 'success', heading: 'Verified' },
  { type: 'concept', heading: 'Concepts (keep the double brackets)' },
  { type: 'note', heading: 'Also' },
];

/** The heading of the block; kept free of double brackets so it never becomes a graph node. */
export const PRESERVATION_HEADING = '## Session knowledge to preserve';

/** The heading of the line that stands for what the aggressive strategy dropped. */
export const DROPPED_HEADING = '### Dropped to fit';

/** Tokens one entry may take: a pasted log line must not eat the budget of ten decisions. */
export const MAX_ENTRY_TOKENS = 60;
/**
 * Tokens a problem, warning or next step may take: it says what and where in its first clause, and the rest
 * of an error line (advice, URLs, the full path twice) buys less than one more problem would.
 */
export const MAX_SHORT_ENTRY_TOKENS = 40;
const SHORT_TYPES: ReadonlySet<ObservationType> = new Set(['problem', 'warning', 'next']);

const ELLIPSIS = '…';

/**
 * The identity of an entry for "no entry twice": NFKC, lower case, spaces collapsed, trailing
 * punctuation dropped.
 *
 * @param text - an observation's text.
 */
export function entryKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.,;:!]+$/u, '')
    .trim();
}

/**
 * One observation as a line of the context, cut to {@link MAX_ENTRY_TOKENS} ({@link MAX_SHORT_ENTRY_TOKENS} for a
 * problem, warning or next step).
 *
 * @param observation - the observation to render.
 * @param encoding - the tokenizer that counts the cut. @default 'o200k_base'
 */
export function renderObservationLine(observation: Observation, encoding: TokenEncoding = 'o200k_base'): string {
  const text = observation.text.trim();
  const max = SHORT_TYPES.has(observation.type) ? MAX_SHORT_ENTRY_TOKENS : MAX_ENTRY_TOKENS;
  if (isWithinTokens(text, max, encoding)) return `- ${text}`;
  return `- ${cutAtBoundary(text, truncateToTokens(text, max - 1, encoding).trimEnd().length + ELLIPSIS.length)}`;
}

/** The grouped lines: a heading per non-empty group, each entry once, in the order given within a group. */
function groupedLines(observations: readonly Observation[], encoding: TokenEncoding): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const group of CONTEXT_GROUPS) {
    const entries: string[] = [];
    for (const observation of observations) {
      if (observation.type !== group.type) continue;
      const key = entryKey(observation.text);
      if (key.length === 0 || seen.has(key)) continue;
      seen.add(key);
      entries.push(renderObservationLine(observation, encoding));
    }
    if (entries.length > 0) lines.push(`### ${group.heading}`, ...entries);
  }
  return lines;
}

/**
 * Tokens the headings of the block take for these observations (the block heading, one per non-empty group,
 * and the dropped-to-fit heading when `withSummary`): what the entries cannot use.
 *
 * @param observations - the candidates.
 * @param withSummary - whether a summary of dropped entries may be added.
 * @param encoding - the tokenizer.
 */
export function contextOverheadTokens(observations: readonly Observation[], withSummary: boolean, encoding: TokenEncoding): number {
  const present = new Set(observations.map((observation) => observation.type));
  const headings = [PRESERVATION_HEADING, ...CONTEXT_GROUPS.filter((group) => present.has(group.type)).map((group) => `### ${group.heading}`)];
  if (withSummary) headings.push(DROPPED_HEADING);
  return countTokens(headings.join('\n'), encoding);
}

/** Keeps the first `count` lines, without a group heading left dangling at the end. */
function withoutDanglingHeading(lines: readonly string[], count: number): string[] {
  const kept = lines.slice(0, count);
  while (kept.length > 0 && kept[kept.length - 1]?.startsWith('### ')) kept.pop();
  return kept;
}

/**
 * Renders grouped observations under {@link PRESERVATION_HEADING}, fitted to `budget` tokens exactly.
 *
 * @param observations - what to preserve, most important first within each type.
 * @param budget - the exact token budget of the whole block, heading included.
 * @param encoding - the tokenizer of the model that reads the block.
 * @param summary - a line standing for what the budget dropped (aggressive strategy): it is kept, under
 *   {@link DROPPED_HEADING} at the end, as long as it fits the budget on its own.
 * @returns the block and its exact token count; empty text when nothing fits or nothing is given.
 */
export function renderPreservationContext(
  observations: readonly Observation[],
  budget: number,
  encoding: TokenEncoding,
  summary: string | null = null,
): { text: string; tokens: number } {
  const nothing = { text: '', tokens: 0 };
  if (!(budget > 0)) return nothing;
  const lines = groupedLines(observations, encoding);
  let tail = summary ? `${DROPPED_HEADING}\n${renderObservationLine({ id: 'dropped', type: 'note', text: summary, order: 0, frequency: 1 }, encoding)}` : '';
  if (tail && !isWithinTokens(`${PRESERVATION_HEADING}\n${tail}`, budget, encoding)) tail = '';
  if (lines.length === 0 && !tail) return nothing;
  const room = budget - (tail ? countTokens(`\n${tail}`, encoding) : 0);
  let kept = fitLines(lines, room, { header: PRESERVATION_HEADING, encoding }).kept;
  // A join can merge tokens either way: recount the whole and give back lines from the end until it fits.
  for (;;) {
    const body = withoutDanglingHeading(lines, kept);
    if (body.length === 0 && !tail) return nothing;
    const text = [PRESERVATION_HEADING, ...body, ...(tail ? [tail] : [])].join('\n');
    const tokens = countTokens(text, encoding);
    if (tokens <= budget) return { text, tokens };
    if (body.length === 0) return nothing;
    kept = body.length - 1;
  }
}
