/**
 * The kinds of cue and the shape of one language's table of cue words: what
 * says "a change was made", "this is a summary", "this is a problem" and
 * "this comes next" in the prose of a coding session. Cues are literal phrases
 * matched at a word start (CJK cues anywhere); a trailing `*` makes one a
 * prefix (`congel*` finds congela, congelado). Apart from the tables so that
 * each language's file and the matchers share one definition; with them, the
 * one way a table is written down ({@link cueTable}).
 */
import { withInflections, type Inflect } from './cue-inflections.js';

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
  | 'goalHeading'
  | 'verified';

/** One language's cue words, by kind. */
export type CueTable = Record<CueKind, readonly string[]>;

/**
 * One language's cue words as a table file writes them: every kind but `instruction` as in
 * {@link CueTable}, and each verb an instruction starts with listed once, in the group of what the
 * same verb says in prose that reports work ("replace X with Y", "voy a corregir …").
 */
export type CueWords = Omit<CueTable, 'instruction'> & {
  instruction: {
    /** Verbs that also mark a change. */
    change?: readonly string[];
    /** Verbs that also mark a weak change. */
    weakChange?: readonly string[];
    /** Verbs that only start an instruction. */
    only?: readonly string[];
  };
};

/**
 * A language's cue table: its instruction verbs are the `instruction` cues, and each group is added
 * to the change kind it also marks, so a verb is never kept in step in two lists by hand. The change
 * words and summary headings get their inflected forms (see `cue-inflections.ts`): a table lists one
 * form of each.
 *
 * @param words - the language's cues, see {@link CueWords}.
 * @param inflect - how the language inflects a participle, if it does.
 */
export function cueTable(words: CueWords, inflect?: Inflect): CueTable {
  const { change = [], weakChange = [], only = [] } = words.instruction;
  return {
    ...words,
    instruction: [...change, ...weakChange, ...only],
    change: withInflections([...words.change, ...change], inflect),
    weakChange: withInflections([...words.weakChange, ...weakChange], inflect),
    summaryHeading: withInflections(words.summaryHeading, inflect),
  };
}
