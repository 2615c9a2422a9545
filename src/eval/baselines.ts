/**
 * What the engine is compared against in `npm run eval`, scored in the same run:
 *
 * - `seed`: the naive handler the plugin started from (its "seed"), as
 *   written — concepts linked in the first and last H2 sections, decisions
 *   from the five pattern families, a fixed block of the first 10 concepts
 *   and 5 decisions — with a naive working-context block: paths named in tool
 *   inputs, sorted, the first 20;
 * - `tail`: the last tokens of the conversation's text as the whole
 *   preservation context, as if a plain truncation were kept.
 */
import { messageViewsOf } from '../main/session/session-export.js';
import { selectBoundarySections } from '../core/text/sections.js';
import { truncateToTokens } from '../core/text/tokens/token-truncation.js';
import { countTokens, type TokenEncoding } from '../core/text/tokens/tokens.js';
import { filesFromToolInput } from '../core/extraction/working-set/working-set.js';
import { seedConcepts, seedDecisions, transcriptOf } from './seed-reading.js';
import type { ScoredOutput } from './score.js';

/** The context budget both baselines get, as the engine does. */
export const BASELINE_BUDGET = 500;

/** The naive working-context block lists at most this many paths. */
export const SEED_WORKING_SET_PATHS = 20;

/** Paths named in the inputs of the session's tool calls, deduped. */
function toolInputPaths(session: unknown, projectRoot: string | null): string[] {
  const paths = new Set<string>();
  for (const message of messageViewsOf(session)) {
    for (const { tool, input } of message.tools) {
      if (typeof input !== 'object' || input === null) continue;
      for (const path of filesFromToolInput(tool, input as Record<string, unknown>, projectRoot)) paths.add(path);
    }
  }
  return [...paths];
}

/**
 * The seed's extraction of a session.
 *
 * @param session - a session export or message list.
 * @param projectRoot - the session's directory, to make paths relative; `null` keeps them as written.
 * @param encoding - the tokenizer counting the context.
 */
export function seedBaseline(session: unknown, projectRoot: string | null, encoding: TokenEncoding = 'o200k_base'): ScoredOutput {
  const transcript = transcriptOf(session);
  const concepts = seedConcepts(selectBoundarySections(transcript).sections.join('\n'));
  const decisions = seedDecisions(transcript);
  let text = '';
  if (concepts.length > 0 || decisions.length > 0) {
    text = [
      '## Knowledge Graph Preservation',
      '',
      `**Preserved Concepts** (${concepts.length}): ${concepts.slice(0, 10).map((concept) => `[[${concept}]]`).join(', ')}`,
      '',
      `**Key Decisions** (${decisions.length}):`,
      ...decisions.slice(0, 5).map((decision) => `- ${decision.text}`),
      '',
      'When summarizing this session, preserve these [[WikiLink]] concept references to maintain knowledge graph connectivity.',
    ].join('\n');
    text = truncateToTokens(text, BASELINE_BUDGET, encoding);
  }
  return {
    decisions,
    files: toolInputPaths(session, projectRoot).sort().slice(0, SEED_WORKING_SET_PATHS),
    observations: [],
    concepts,
    context: { text, tokens: countTokens(text, encoding), budget: BASELINE_BUDGET },
  };
}

/**
 * The longest suffix of `text` within `budget` tokens.
 *
 * @param text - any text.
 * @param budget - the most tokens kept.
 * @param encoding - the tokenizer.
 */
export function lastTokens(text: string, budget: number, encoding: TokenEncoding = 'o200k_base'): string {
  // A token is rarely longer than 32 characters: a window of that many per token is enough to fill the budget.
  const window = text.slice(Math.max(0, text.length - budget * 32));
  if (countTokens(window, encoding) <= budget && window.length === text.length) return window;
  let fits = 0;
  let overflows = window.length + 1;
  while (overflows - fits > 1) {
    const middle = (fits + overflows) >>> 1;
    if (countTokens(window.slice(window.length - middle), encoding) <= budget) fits = middle;
    else overflows = middle;
  }
  let start = window.length - fits;
  // Never start inside a surrogate pair.
  const code = window.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  return window.slice(start);
}

/**
 * The plain-truncation baseline: the last {@link BASELINE_BUDGET} tokens of the conversation's text.
 *
 * @param session - a session export or message list.
 * @param encoding - the tokenizer.
 */
export function tailBaseline(session: unknown, encoding: TokenEncoding = 'o200k_base'): ScoredOutput {
  const text = lastTokens(transcriptOf(session), BASELINE_BUDGET, encoding);
  return { decisions: [], files: [], observations: [], concepts: [], context: { text, tokens: countTokens(text, encoding), budget: BASELINE_BUDGET } };
}
