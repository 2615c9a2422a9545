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

/** Whether a value read from disk is an entry. */
export function isEntry(value: unknown): value is OutboxEntry {
  return v.is(ENTRY, value);
}

