/**
 * The kinds of cue and the shape of one language's table of cue words: what
 * says "a change was made", "this is a summary", "this is a problem" and
 * "this comes next" in the prose of a coding session. Cues are literal phrases
 * matched at a word start (CJK cues anywhere); a trailing `*` makes one a
 * prefix (`congel*` finds congela, congelado). Apart from the tables so that
 * each language's file and the matchers share one definition.
 */

/** The kinds of cue. */
export type CueKind =
  | 'change'
  | 'weakChange'
  | 'summaryHeading'
  | 'decisionHeading'
  | 'problemHeading'
  | 'nextHeading'
  | 'planHeading'
  | 'problem'
  | 'next'
  | 'hedge'
  | 'minor'
  | 'instruction'
  | 'purpose'
  | 'goalHeading';

/** One language's cue words, by kind. */
export type CueTable = Record<CueKind, readonly string[]>;
