/**
 * Renders the observations that survived the budget as the preservation
 * context pushed into the compaction prompt, fitted to an exact token budget.
 */
import type { Observation, ObservationType } from './observations.js';
import { fitLines, type TokenEncoding } from './tokens.js';

/** Groups in the order the model should weigh them; the budget cuts from the end. */
const GROUPS: ReadonlyArray<{ type: ObservationType; heading: string }> = [
  { type: 'decision', heading: 'Decisions' },
  { type: 'problem', heading: 'Open problems' },
  { type: 'next', heading: 'In progress and next' },
  { type: 'warning', heading: 'Warnings' },
  { type: 'concept', heading: 'Concepts (keep the double brackets)' },
  { type: 'file', heading: 'Working set' },
  { type: 'success', heading: 'Verified' },
  { type: 'note', heading: 'Also' },
];

/** The heading of the block; kept free of double brackets so it never becomes a graph node. */
export const PRESERVATION_HEADING = '## Session knowledge to preserve';

/**
 * One observation as a line of the context.
 *
 * @param observation - the observation to render.
 */
export function renderObservationLine(observation: Observation): string {
  return `- ${observation.text}`;
}

/**
 * Renders grouped observations under {@link PRESERVATION_HEADING}, fitted to `budget` tokens exactly.
 *
 * @param observations - what to preserve, most important first within each type.
 * @param budget - the exact token budget of the whole block, heading included.
 * @param encoding - the tokenizer of the model that reads the block.
 * @returns the block and its exact token count; empty text when nothing fits or nothing is given.
 */
export function renderPreservationContext(
  observations: readonly Observation[],
  budget: number,
  encoding: TokenEncoding,
): { text: string; tokens: number } {
  if (observations.length === 0 || budget <= 0) return { text: '', tokens: 0 };
  const lines: string[] = [];
  for (const group of GROUPS) {
    const members = observations.filter((observation) => observation.type === group.type);
    if (members.length === 0) continue;
    lines.push(`### ${group.heading}`, ...members.map(renderObservationLine));
  }
  const fitted = fitLines(lines, budget, { header: PRESERVATION_HEADING, encoding });
  // A group heading left dangling at the end carries nothing.
  if (fitted.kept > 0 && lines[fitted.kept - 1]?.startsWith('### ')) {
    return fitLines(lines.slice(0, fitted.kept - 1), budget, { header: PRESERVATION_HEADING, encoding });
  }
  return fitted.kept === 0 ? { text: '', tokens: 0 } : { text: fitted.text, tokens: fitted.tokens };
}
