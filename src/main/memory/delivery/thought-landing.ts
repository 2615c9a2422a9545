/**
 * Whether a summary thought whose call may have gone out landed in maenifold: the note of the session it
 * was sent to holds its idempotency key, or, for a call that started a chain, the note of a session
 * maenifold started for it in the day folders the call could have landed in. An answer that does not
 * settle the question is "unknown", never "absent" (thought-delivery.ts).
 */
import { sessionUri } from '../../../core/memory/memory-format.js';
import type { ChainInFlight } from './chain-store.js';
import type { MemoryError, MemoryPort } from '../memory-port.js';

/** The thoughts line every summary thought carries: a chain note that shows none was not read whole. */
const THOUGHTS_LINE = /Delivery [0-9a-f]{16,64} of/;

/**
 * Whether maenifold answered that the note or folder does not exist: a definite answer. ListMemories
 * prints plain text, where this is only `ERROR: Directory not found: …`.
 */
export function isNotFound(error: MemoryError): boolean {
  return error.code === 'TOOL_ERROR' && (error.toolCode === 'NOT_FOUND' || /^(?:\w+ failed: )?(?:ERROR|NOT_FOUND): (?:Directory|Memory file) not found\b/.test(error.message));
}

/** What asking maenifold about a thought in flight gave. */
export type Landing = { kind: 'landed'; sessionId: string; thoughtNumber: number } | { kind: 'absent' } | { kind: 'unknown'; error: MemoryError };

/**
 * The UTC day folders where a session started between `from` and `to` (ms) is kept: maenifold names a new
 * session by its own clock when the call runs, which may be past midnight of the day it was sent.
 */
function dayFolders(from: number, to: number): string[] {
  const folders: string[] = [];
  for (let at = from; at <= to; at = (Math.floor(at / 86_400_000) + 1) * 86_400_000) {
    const uri = sessionUri(`session-${at}-0`);
    if (!uri) break;
    folders.push(uri.slice(0, uri.lastIndexOf('/')));
  }
  return folders;
}

/** Asks maenifold where thoughts in flight landed. */
export interface LandingLookup {
  /** Where a thought in flight landed: the chain it was sent to, or a chain started for it; or that it did not, or that this could not be told. */
  landedAt(flight: ChainInFlight): Promise<Landing>;
}

/**
 * @param memory - the store asked.
 * @param timeoutMs - deadline of one call.
 * @param settleMs - how long after it was sent a call may still land.
 */
export function createLandingLookup(memory: MemoryPort, timeoutMs: number, settleMs: number): LandingLookup {
  /** Whether the session's note holds the key: `true`, `false` (read, and it does not), or why it could not be told. */
  async function holdsKey(sessionId: string, key: string, ownChain: boolean): Promise<boolean | MemoryError> {
    const uri = sessionUri(sessionId);
    // An id that names no session was refused by maenifold: nothing landed under it.
    if (!uri) return false;
    const read = await memory.readNote(uri, { timeoutMs });
    if (!read.ok) return isNotFound(read.error) ? false : read.error;
    if (read.value.content.includes(key)) return true;
    // The project's own chain holds earlier summary thoughts: an answer without their line is not the chain.
    if (ownChain && !THOUGHTS_LINE.test(read.value.content)) return { code: 'BAD_OUTPUT', message: `ReadMemory of ${uri} answered without the chain's thoughts` };
    return false;
  }

  /** Where a thought in flight landed: the chain it was sent to, or a chain started for it; or that it did not, or that this could not be told. */
  async function landedAt(flight: ChainInFlight): Promise<Landing> {
    if (flight.sessionId) {
      const held = await holdsKey(flight.sessionId, flight.key, true);
      if (typeof held !== 'boolean') return { kind: 'unknown', error: held };
      return held ? { kind: 'landed', sessionId: flight.sessionId, thoughtNumber: flight.thoughtNumber } : { kind: 'absent' };
    }
    // A new chain gets its id from maenifold: look among the sessions started since the call, in every day
    // folder the call could have landed in until it could no longer land.
    const from = flight.at - 60_000;
    const ids = new Set<string>();
    for (const folder of dayFolders(from, flight.at + settleMs)) {
      const listed = await memory.listNotes(folder, { timeoutMs });
      if (!listed.ok) {
        if (isNotFound(listed.error)) continue;
        return { kind: 'unknown', error: listed.error };
      }
      for (const id of listed.value.join('\n').match(/session-\d{10,16}-\d+/g) ?? []) ids.add(id);
    }
    const candidates = [...ids].filter((id) => Number(id.split('-')[1]) >= from);
    let unknown: MemoryError | null = null;
    for (const sessionId of candidates) {
      const held = await holdsKey(sessionId, flight.key, false);
      if (held === true) return { kind: 'landed', sessionId, thoughtNumber: 0 };
      if (held !== false) unknown ??= held;
    }
    return unknown ? { kind: 'unknown', error: unknown } : { kind: 'absent' };
  }

  return { landedAt };
}
