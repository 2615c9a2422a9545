/**
 * The summary chain's record as delivery keeps it in the chain state: its bounds, what of it outlives a
 * chain, and the record after a thought landed. Pure: thought-delivery.ts reads and writes it under the
 * project's lock.
 */
import { MAX_ARGUMENT_BYTES } from '../../../core/memory/summary-thought.js';
import type { ChainRecord, ChainState } from './chain-store.js';

/**
 * Keys of the latest thoughts kept in the chain state. An entry given back after a failure that came after
 * its thought landed (a holder stopped past its lock's take-over, then resumed) comes round again after its
 * backoff, up to an hour later, and is known as delivered only while its key is kept: 50 keys were passed by
 * 69 thoughts in 33 s of the soak. 500 cover more than a project compacts in that time, in 20 KB of state.
 */
export const RECENT_KEYS = 500;
/** Earlier sessions of a chain the chain state names (50 sessions of up to 512 KiB: far more than session start reads). */
export const MAX_EARLIER_SESSIONS = 50;
/** Thoughts set aside at most; past it the oldest is forgotten (its entry, should it come again, is sent: at most one duplicate). */
export const MAX_UNSETTLED = 20;

/**
 * How large a session's note may grow before the next thought starts a new session. maenifold answers
 * ReadMemory with the note as JSON, and the client stops reading at 4 MiB (cli-invoke.ts): even with every
 * character escaped six-fold (`\u003C`), 512 KiB stays under it.
 */
export const CHAIN_ROLLOVER_BYTES = 512 * 1024;
/** What a session's note holds besides its thoughts (frontmatter, title), from above. */
export const SESSION_OVERHEAD_BYTES = 1_024;
/** What a thought's note section holds besides its texts (heading, agent, stamp), from above. */
export const THOUGHT_OVERHEAD_BYTES = 256;

/** How large a recorded session's note is; a chain of an earlier version that was not measured counts as full thoughts. */
export function sessionBytes(state: ChainState): number {
  return state.bytes ?? (state.thoughtNumber + 1) * MAX_ARGUMENT_BYTES;
}

/** A record's parts that outlive its chain: the thoughts set aside, and the keys delivered. */
export function residue(record: ChainRecord | null): ChainRecord | null {
  if (!record?.unsettled?.length) return null;
  return { unsettled: record.unsettled, ...(record.recentKeys ? { recentKeys: record.recentKeys } : {}) };
}

/** The record without the thought set aside under `key`. */
export function withoutUnsettled(record: ChainRecord | null, key: string): ChainRecord | null {
  if (!record) return null;
  const unsettled = (record.unsettled ?? []).filter((flight) => flight.key !== key);
  const { unsettled: _old, ...rest } = record;
  const next = (unsettled.length > 0 ? { ...rest, unsettled } : rest) as ChainRecord;
  return next.sessionId !== undefined || next.inFlight ? next : residue(next);
}

/**
 * The chain after a thought landed at `sessionId`/`thoughtNumber`. The keys delivered carry over to a new
 * session, so a rollover never forgets what the chain holds; so do the thoughts set aside.
 *
 * @param now - the time it is recorded at (ms since the epoch).
 */
export function recordedChain(now: number, record: ChainRecord | null, sessionId: string, thoughtNumber: number, key: string, bytes: number | undefined, continues?: string, measuredBytes?: number): ChainState {
  const same = record?.sessionId === sessionId ? (record as ChainState) : null;
  const previous = same ? same.previousSessionId : continues;
  const kept = record?.sessionId !== undefined ? ((record as ChainState).earlierSessionIds ?? []) : [];
  const earlier = same || !continues ? kept : [...kept.filter((id) => id !== continues), continues].slice(-MAX_EARLIER_SESSIONS);
  return {
    sessionId,
    thoughtNumber,
    updatedAt: new Date(now).toISOString(),
    recentKeys: [...(record?.recentKeys ?? []), key].slice(-RECENT_KEYS),
    // A thought of unknown size (recorded by an earlier version) counts as the largest one.
    bytes: (same ? (measuredBytes !== undefined && Number.isFinite(measuredBytes) ? measuredBytes : sessionBytes(same)) : SESSION_OVERHEAD_BYTES) + (bytes ?? MAX_ARGUMENT_BYTES),
    ...(previous ? { previousSessionId: previous } : {}),
    ...(earlier.length > 0 ? { earlierSessionIds: earlier } : {}),
    ...(record?.unsettled?.length ? { unsettled: record.unsettled } : {}),
  };
}
