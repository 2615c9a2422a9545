/**
 * One pass over a project's digest as data in, data out: the digest as
 * stored, the notes it has not folded, and an item to forget give the text
 * to write back. Pure, so the pool runs it off the hook thread (task
 * `digestPass`) and a command without a pool runs it as it is.
 */
import { foldDigest, foldNoteOf, forgetDigestItem, formatDigest, parseDigest, type DigestItem } from './digest.js';
import type { ProjectNoteText } from './session-note.js';

/** What one pass folds: the digest as the store holds it and the notes read for it. */
export interface DigestPassInput {
  /** The digest note's content; `''` when the project has none yet. */
  digest: string;
  /** The project's concept and key, which a new digest records. */
  concept: string;
  key: string;
  /** Notes the digest has not folded, oldest first. */
  notes: ProjectNoteText[];
  /** The time the fold dates confirmations and ages by (ms since the epoch). */
  now: number;
  /** An item's id or text to record as forgotten after the fold. */
  forget?: string;
}

/** What a pass made of it. */
export interface DigestPassOutput {
  /** The digest to write; `null` when nothing was folded or forgotten, so the stored one stays as it is. */
  text: string | null;
  /** Items the digest holds after the pass. */
  items: number;
  /** Items past the bounds, least confirmed first. */
  dropped: DigestItem[];
  /** Items the forget matched. */
  forgotten: DigestItem[];
  /** Why a forget matched nothing; `''` otherwise. */
  unknown: string;
}

/**
 * Folds the notes into the digest, then forgets the item asked for.
 *
 * @param input - see {@link DigestPassInput}.
 */
export function runDigestPass(input: DigestPassInput): DigestPassOutput {
  const stored = parseDigest(input.digest, input.concept, input.key);
  const { digest: folded, dropped } = foldDigest(stored, input.notes.map(foldNoteOf), input.now);
  const forgot = input.forget === undefined ? null : forgetDigestItem(folded, input.forget);
  const next = forgot?.ok ? forgot.digest : folded;
  // Written only when the pass changed something: a note folded or an item forgotten.
  const changed = input.notes.length > 0 || forgot?.ok === true;
  return {
    text: changed ? formatDigest(next) : null,
    items: next.items.length,
    dropped,
    forgotten: forgot?.ok ? forgot.forgotten : [],
    unknown: forgot && !forgot.ok ? forgot.reason : '',
  };
}
