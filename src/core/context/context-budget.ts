/**
 * Fits per-concept context entries into exact token budgets: each entry to
 * its own share, then as many whole entries as the total allows, in rank
 * order, under a heading.
 *
 * Every block the plugin injects is fitted here, so this is also where its
 * entries are redacted: whatever a store, a frame file or a tool path holds,
 * no secret reaches a prompt.
 */
import { redactSecrets } from '../text/secrets.js';
import { fitLines } from '../text/fit-lines.js';
import { truncateToTokens } from '../text/tokens/token-truncation.js';
import type { TokenEncoding } from '../text/tokens/tokens.js';

/** Input of {@link fitContextEntries}. */
export interface ContextFitInput {
  /** Put before the entries; counted in the budget. */
  heading: string;
  /** Entries, most important first. */
  entries: string[];
  /** Most tokens of one entry. */
  entryBudget: number;
  /** Most tokens of the whole text, heading included. */
  totalBudget: number;
  encoding: TokenEncoding;
  /** What joins the heading and the entries. @default '\n\n' */
  separator?: string;
}

/** The fitted text. */
export interface ContextFit {
  /** Empty when no entry fits. */
  text: string;
  /** Exact count of `text`. */
  tokens: number;
  /** How many entries made it, from the front. */
  included: number;
  /** How many of those were cut to their share. */
  truncated: number;
  /** Secrets replaced in the entries. */
  redactions: number;
}

/**
 * @param input - see {@link ContextFitInput}.
 */
export function fitContextEntries(input: ContextFitInput): ContextFit {
  let redactions = 0;
  const entries = input.entries.map((entry) => {
    const redacted = redactSecrets(entry.trim());
    redactions += redacted.redactions;
    return redacted.text;
  });
  const shares = entries.map((entry) => truncateToTokens(entry, input.entryBudget, input.encoding));
  const fitted = fitLines(shares, input.totalBudget, { header: input.heading, separator: input.separator ?? '\n\n', encoding: input.encoding });
  if (fitted.kept === 0) return { text: '', tokens: 0, included: 0, truncated: 0, redactions };
  const truncated = shares.slice(0, fitted.kept).filter((share, index) => share.length < (entries[index] ?? '').length).length;
  return { text: fitted.text, tokens: fitted.tokens, included: fitted.kept, truncated, redactions };
}
