/**
 * How much a commit changed, as `git commit` reports it: "20 files changed,
 * 1105 insertions(+), 104 deletions(-)" and a "create mode" line per new file.
 * A session that commits after each step records its one feature commit and
 * its many one-line fixes at the same worth; the size tells them apart.
 */

/** Characters of a commit's output read: the summary comes in its first lines. */
const MAX_OUTPUT_CHARS = 4_000;
const SUMMARY = /(\d{1,6}) files? changed(?:, (\d{1,7}) insertions?\(\+\))?(?:, (\d{1,7}) deletions?\(-\))?/;
/** From this many files, or with a new file, a commit introduces work rather than fixes a line. */
const FEATURE_FILES = 5;
const FEATURE_LINES = 200;
/** Up to this many changed lines in one file, a commit is a small fix. */
const SMALL_LINES = 10;
/** How far size moves a commit's worth, either way: enough to order commits, not to pass prose decisions. */
export const COMMIT_SIZE_WEIGHT = 1;

/**
 * How a commit's size adjusts its worth: up for one that introduces work (many files, many lines, a new
 * file), down for a one-file change of a few lines, nothing when the output reports no summary.
 *
 * @param output - the output of the command that committed.
 */
export function commitSizeWeight(output: string): number {
  const head = output.slice(0, MAX_OUTPUT_CHARS);
  const summary = SUMMARY.exec(head);
  if (!summary) return 0;
  const files = Number(summary[1]);
  const lines = Number(summary[2] ?? 0) + Number(summary[3] ?? 0);
  if (files >= FEATURE_FILES || lines >= FEATURE_LINES || /\bcreate mode \d{6} /.test(head)) return COMMIT_SIZE_WEIGHT;
  if (files === 1 && lines <= SMALL_LINES) return -COMMIT_SIZE_WEIGHT;
  return 0;
}
