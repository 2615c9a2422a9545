/**
 * The unit the output readers find, group and merge: kept apart from the reading itself so the
 * readers and the grouping can name it without importing the reader that calls them.
 */

/** One problem or warning found in an output. */
export interface MachineProblem {
  type: 'problem' | 'warning';
  /** One line: message and where. */
  text: string;
  /** Identity for merging repeats: the test or the message, numbers folded. */
  key: string;
}
