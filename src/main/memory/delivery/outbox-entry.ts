/**
 * One outbox entry: its shape, the check of a file read back from disk, and
 * the file names that carry its time and idempotency key (pending, or
 * claimed by a process).
 */
import * as v from 'valibot';

/** What a pending write does. */
export type OutboxKind = 'note' | 'thought';

/** One pending write. */
export interface OutboxEntry {
  /** Idempotency key: the same write is never delivered as two. */
  key: string;
  kind: OutboxKind;
  /** The tool payload (a note) or what a thought is built from. */
  payload: Record<string, unknown>;
  project: string;
  createdAt: number;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
  /**
   * A call of this thought that went out and whose outcome its sender could not record in the chain
   * state (it lost the chain's lock meanwhile, as a process stopped mid-call does): the chain it went to
   * (`null`: it started one), when it was sent, and by when it can no longer land (`at` itself for a call
   * that had returned). Whether it landed is asked before the thought is sent again.
   */
  unrecorded?: { sessionId: string | null; at: number; settledBy: number };
}

/** An idempotency key: only hex may reach a file name. */
export const HEX_KEY = /^[0-9a-f]{16,64}$/;
/** A pending entry's file. */
export const PENDING = /^\d{15}-[0-9a-f]{16,64}\.json$/;
/**
 * A claimed entry's file: `<pending name>.claim-<pid>-<process start>-<claim time>-<scope>-<nonce>`. The
 * claim time is in the name because the claiming rename keeps the file's mtime; the process start (the
 * kernel's start time of the pid, 0 where it cannot be read) tells a reused pid; the scope (claimer.ts: the
 * boot and PID namespace, 0 where unknown) tells whether this process can judge the pid at all. Claims of
 * earlier versions, `<pending name>.claim-<pid>-<process start>-<claim time>-<nonce>` and
 * `<pending name>.claim-<pid>-<nonce>`, lack the scope, or all three.
 */
export const CLAIMED = /^(\d{15}-[0-9a-f]{16,64}\.json)\.claim-(\d+)-(?:(\d+)-(\d+)-(?:([0-9a-f]{12}|0)-)?)?[0-9a-f]+$/;

/**
 * A claim's last part (its nonce, 12 hex digits) followed by the mark of a call that may be in flight:
 * `a<sent at>b<settled by>` and, for a call on a known chain, `c<session time>` and `d<session number>`,
 * all in decimal. Only hex digits, so a claim of an earlier version reads the name as a claim like any
 * other (and gives the entry back without the mark); the nonce alone was 12 digits, so no earlier claim
 * reads as marked.
 */
const MARK = /^([0-9a-f]{12})a(\d{1,16})b(\d{1,16})(?:c(\d{1,16})(?:d(\d{1,16}))?)?$/;

/** A call that may be in flight: what {@link OutboxEntry.unrecorded} holds. */
export type InFlightMark = NonNullable<OutboxEntry['unrecorded']>;

/**
 * The claim's name with `mark` in place of any earlier one; `null` when the mark cannot be written in a
 * name (a session id maenifold would not name, a time that is not a whole number of ms).
 *
 * @param claimName - the claim's file name (or path).
 * @param mark - the call that may be in flight.
 */
export function markedClaimName(claimName: string, mark: InFlightMark): string | null {
  const nonce = /-([0-9a-f]{12})(?:a[0-9a-f]*)?$/.exec(claimName);
  const session = mark.sessionId === null ? null : /^session-(\d{1,16})(?:-(\d{1,16}))?$/.exec(mark.sessionId);
  const whole = (value: number): boolean => Number.isSafeInteger(value) && value >= 0;
  if (!nonce?.[1] || (mark.sessionId !== null && !session) || !whole(mark.at) || !whole(mark.settledBy)) return null;
  const chain = session ? `c${session[1]}${session[2] !== undefined ? `d${session[2]}` : ''}` : '';
  return `${claimName.slice(0, nonce.index + 1)}${nonce[1]}a${mark.at}b${mark.settledBy}${chain}`;
}

/** The mark of a call in flight that a claim's name carries, or `null`. */
export function markOf(claimName: string): InFlightMark | null {
  const match = MARK.exec(claimName.slice(claimName.lastIndexOf('-') + 1));
  if (!match) return null;
  const [, , at = '', settledBy = '', time, number] = match;
  const sessionId = time === undefined ? null : `session-${time}${number !== undefined ? `-${number}` : ''}`;
  return { sessionId, at: Number(at), settledBy: Number(settledBy) };
}

/** The file of an entry. */
export function fileName(entry: Pick<OutboxEntry, 'createdAt' | 'key'>): string {
  // The key is hex: it cannot steer the path.
  return `${String(entry.createdAt).padStart(15, '0')}-${entry.key}.json`;
}

/** The key in a file name. */
export function keyOf(name: string): string {
  return name.slice(16, name.indexOf('.json'));
}

/** An entry as its file must hold it. */
const ENTRY = v.looseObject({
  key: v.pipe(v.string(), v.regex(HEX_KEY)),
  kind: v.picklist(['note', 'thought']),
  payload: v.looseObject({}),
  project: v.string(),
  createdAt: v.pipe(v.number(), v.finite()),
  attempts: v.pipe(v.number(), v.finite()),
  nextAttemptAt: v.pipe(v.number(), v.finite()),
});

/** A mark of an unrecorded call as it must be (see {@link OutboxEntry.unrecorded}); an entry is never kept aside for one that is not. */
const UNRECORDED = v.looseObject({ sessionId: v.nullable(v.string()), at: v.pipe(v.number(), v.finite()), settledBy: v.pipe(v.number(), v.finite()) });

/** Whether an entry's mark of an unrecorded call has its shape. */
export function isUnrecorded(value: unknown): value is NonNullable<OutboxEntry['unrecorded']> {
  return v.is(UNRECORDED, value);
}

/** Whether a value read from disk is an entry. */
export function isEntry(value: unknown): value is OutboxEntry {
  return v.is(ENTRY, value);
}

