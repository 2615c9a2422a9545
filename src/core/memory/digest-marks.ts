/**
 * Which notes a digest has folded: the set of their marks, not a time mark.
 * A note can reach the store after newer ones were folded (written by another
 * process, or delivered from the outbox after a restart or a flaky CLI), so
 * "everything older than the newest folded note" would skip it for good; the
 * set folds each note once whatever order the notes arrive in.
 *
 * A note's mark is its slug without the project's prefix
 * (`20261120-100000000-ses1`): its compaction's stamp, then its session. The
 * set is bounded: past {@link MAX_FOLDED_MARKS} the oldest marks leave it and
 * the floor moves up to them, every note at or below the floor counting as
 * folded. A digest of the first format, which recorded only its newest note,
 * reads as a floor at that note and an empty set.
 */

/** A digest's record of the notes it folded. */
export interface FoldedMarks {
  /** Every note whose mark is at or below this one counts as folded; '' for none. */
  floor: string;
  /** The marks above the floor folded, ascending. */
  marks: string[];
}

/**
 * Marks kept above the floor. A project compacting a few times a day keeps months of marks, so only a
 * note that arrives after hundreds of newer ones were folded is taken for folded; each is about 45
 * characters of the digest.
 */
export const MAX_FOLDED_MARKS = 400;

/** A mark as the digest writes it: one word, no markup. */
export const MARK = /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/;

/** The stamp and the session a compaction note's mark holds. */
const STAMPED = /^(\d{8}-\d{9})-(.+)$/;

/**
 * A note's mark: the last segment of its URI, without `compaction-<key>-` when it starts so.
 *
 * @param uri - the note's `memory://` URI.
 * @param key - the project's key.
 */
export function noteMark(uri: string, key: string): string {
  const slug = uri.slice(uri.lastIndexOf('/') + 1);
  const prefix = `compaction-${key}-`;
  return key && slug.startsWith(prefix) ? slug.slice(prefix.length) : slug;
}

/**
 * Whether a note was folded.
 *
 * @param folded - the digest's record.
 * @param mark - the note's mark ({@link noteMark}).
 */
export function isFolded(folded: FoldedMarks, mark: string): boolean {
  return (folded.floor !== '' && mark <= folded.floor) || binaryHas(folded.marks, mark);
}

function binaryHas(sorted: readonly string[], mark: string): boolean {
  let [low, high] = [0, sorted.length - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = sorted[middle] as string;
    if (at === mark) return true;
    if (at < mark) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/**
 * The record with more marks folded, bounded: the oldest marks past {@link MAX_FOLDED_MARKS} raise the floor.
 *
 * @param folded - the record as read.
 * @param added - marks of the notes just folded.
 */
export function withFoldedMarks(folded: FoldedMarks, added: readonly string[]): FoldedMarks {
  const marks = [...new Set([...folded.marks, ...added.filter((mark) => MARK.test(mark) && !isFolded(folded, mark))])].sort();
  const cut = Math.max(0, marks.length - MAX_FOLDED_MARKS);
  const floor = cut > 0 ? (marks[cut - 1] as string) : folded.floor;
  return { floor: floor > folded.floor ? floor : folded.floor, marks: marks.slice(cut) };
}

/**
 * Whether a note is older than one already folded, and whether its own session has a newer note folded:
 * such a note is folded as an older one, whose word does not override what newer notes said.
 *
 * @param folded - the record before the note.
 * @param mark - the note's mark.
 */
export function lateness(folded: FoldedMarks, mark: string): { late: boolean; superseded: boolean } {
  const newest = folded.marks.at(-1) ?? folded.floor;
  const late = newest !== '' && mark < newest;
  const session = STAMPED.exec(mark)?.[2];
  const superseded = late && session !== undefined && folded.marks.some((other) => other > mark && STAMPED.exec(other)?.[2] === session);
  return { late, superseded };
}
