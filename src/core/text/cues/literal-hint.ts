/**
 * A cheap first look before an expensive expression: whether a text holds
 * one of the literals any match of that expression must contain. Case-
 * insensitive Unicode expressions with look-behinds try every alternative at
 * every position, which JavaScriptCore (OpenCode's Bun) does several times
 * slower than V8; most texts hold none of the literals and are passed over.
 */

/**
 * A text's letters as the hint compares them: lowercase, with the long s read as `s` (the one letter
 * outside ASCII that a case-insensitive expression takes for an ASCII one and lowercasing does not; the
 * Kelvin sign lowercases to `k`).
 */
function folded(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes('\u017f') ? lower.replaceAll('\u017f', 's') : lower;
}

/** A test that never says no where the expression it guards could say yes. */
export interface LiteralHint {
  /** Whether the text holds one of the literals, in any case. */
  mayMatch(text: string): boolean;
}

/**
 * @param literals - lowercase literals, one of which is in every match of the guarded expression.
 */
export function literalHint(literals: readonly string[]): LiteralHint {
  return {
    mayMatch(text) {
      const lower = folded(text);
      return literals.some((literal) => lower.includes(literal));
    },
  };
}
