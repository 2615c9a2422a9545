/**
 * How the scorer compares: text after NFKC and lower case, `a|b` keyword
 * alternatives, and the preservation context without the paths it lists. The
 * rules of the real-sessions corpus README, apart from the counting so that a
 * baseline or a test can ask what a text matches without scoring a session.
 */

/** Text as compared: NFKC, lower case. */
export function normalizeForMatch(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * Whether one keyword group occurs in `text`.
 *
 * @param group - alternatives separated by `|`; empty alternatives never match.
 * @param text - already normalized with {@link normalizeForMatch}.
 */
export function groupMatches(group: string, text: string): boolean {
  return group.split('|').some((alternative) => alternative.length > 0 && text.includes(normalizeForMatch(alternative)));
}

/** Whether every group occurs in `text` (normalized). */
export function allGroupsMatch(groups: readonly string[], text: string): boolean {
  return groups.every((group) => groupMatches(group, text));
}

const SECTION_HEADING = /^#{2,4} /;
const FILES_HEADING = /working set|files/i;

/**
 * The preservation context without its working-set / files sections, normalized: paths listed
 * there would otherwise match keywords the context never says anything about.
 *
 * @param text - the context as injected.
 */
export function contextWithoutFiles(text: string): string {
  const kept: string[] = [];
  let skipping = false;
  for (const line of text.split('\n')) {
    if (SECTION_HEADING.test(line)) skipping = FILES_HEADING.test(line);
    if (!skipping) kept.push(line);
  }
  return normalizeForMatch(kept.join('\n'));
}

/**
 * A path as compared: normalized, with `/` for every separator.
 *
 * @param path - a path as extracted or as written in the truth.
 */
export function pathForMatch(path: string): string {
  return normalizeForMatch(path).replaceAll('\\', '/');
}
