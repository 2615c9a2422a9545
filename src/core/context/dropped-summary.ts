/**
 * The line that stands for dropped observations in `aggressive` mode:
 * `[n] older observations summarized: topic, topic`, naming the topics the
 * dropped ones share most. Topic counts move as observations are kept and
 * dropped, so the line is always current without recounting.
 */

/** How many dropped observations name each topic. */
export type TopicCounts = Map<string, number>;

/**
 * Adds (`1`) or takes away (`-1`) one observation's topics; a topic no dropped observation names is removed.
 *
 * @param counts - the counts to change.
 * @param topics - the observation's topics.
 * @param delta - `1` when it is dropped, `-1` when it is kept again.
 */
export function moveTopics(counts: TopicCounts, topics: readonly string[], delta: 1 | -1): void {
  for (const topic of topics) {
    const count = (counts.get(topic) ?? 0) + delta;
    if (count > 0) counts.set(topic, count);
    else counts.delete(topic);
  }
}

/** The `limit` most frequent topics, ties alphabetical; a bounded selection, not a full sort. */
function topTopics(counts: TopicCounts, limit: number): string[] {
  const best: Array<[string, number]> = [];
  const ranksBefore = (a: [string, number], b: [string, number]): boolean => a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]);
  if (limit <= 0) return [];
  for (const entry of counts) {
    const worst = best[best.length - 1];
    if (best.length === limit && worst !== undefined && !ranksBefore(entry, worst)) continue;
    let at = best.length;
    while (at > 0 && ranksBefore(entry, best[at - 1]!)) at--;
    best.splice(at, 0, entry);
    if (best.length > limit) best.pop();
  }
  return best.map(([topic]) => topic);
}

/**
 * The summary line.
 *
 * @param removed - how many observations were dropped.
 * @param counts - the topics of the dropped ones.
 * @param maxTopics - the most topics named, the most frequent first (ties alphabetical).
 */
export function formatSummary(removed: number, counts: TopicCounts, maxTopics: number): string {
  const topics = topTopics(counts, maxTopics);
  const head = `[${removed}] older observations summarized`;
  return topics.length === 0 ? head : `${head}: ${topics.join(', ')}`;
}
