/**
 * One summary thought into the project's SequentialThinking chain, safe
 * across processes and crashes.
 *
 * The whole step — read the chain, send the thought, record it — runs under
 * a per-project lock shared by every process of the state folder, so two
 * processes never give two thoughts the same number. Before the call, the
 * thought is recorded as in flight in the chain state; a process that finds
 * such a record left by a sender that died waits until that call can no
 * longer land, then asks maenifold whether it did (the thought carries its
 * idempotency key) and records it, so it is neither lost nor sent twice.
 * An answer that does not settle the question (a timeout, garbage, an
 * error, a note without the chain's thoughts) is "unknown", never "absent":
 * the record stays and the question is asked again later.
 *
 * A process stopped while it held the lock may be resumed after another
 * took the lock over: the lock is checked right before the call and before
 * every write of the chain state, so a stale holder sends and writes nothing.
 * A state folder the disk refuses (a file where the folder should be,
 * read-only) cannot hold a lock or a chain: the thought is then delivered
 * once, on a chain kept in this process's memory.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { projectConcept, sessionUri } from '../../../core/memory/memory-format.js';
import type { ChainInFlight, ChainRecord, ChainState, ChainStore } from './chain-store.js';
import { assertHeld, withFileLock, type LockTiming } from '../../shared/file-lock.js';
import type { MemoryError, MemoryPort, MemoryResult, ThoughtInput, ThoughtReceipt } from '../memory-port.js';
import type { Logger } from '../../shared/logger.js';
import type { OutboxEntry } from './outbox.js';

/** What became of one attempt. */
export type ThoughtOutcome =
  | { kind: 'delivered' }
  | { kind: 'postponed'; until: number }
  | { kind: 'failed'; error: MemoryError }
  /** Whether an earlier call landed could not be learned: asked again later, never sent blindly. */
  | { kind: 'unknown'; error: MemoryError };

/** Errors of the state folder that no wait cures: the thought goes out on a chain kept in memory. */
const REFUSED = new Set(['ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'EEXIST', 'ELOOP']);

/** The thoughts line every summary thought carries: a chain note that shows none was not read whole. */
const THOUGHTS_LINE = /Delivery [0-9a-f]{16,64} of/;

/**
 * Whether maenifold answered that the note or folder does not exist: a definite answer. ListMemories
 * prints plain text, where this is only `ERROR: Directory not found: …`.
 */
function isNotFound(error: MemoryError): boolean {
  return error.code === 'TOOL_ERROR' && (error.toolCode === 'NOT_FOUND' || /^(?:\w+ failed: )?(?:ERROR|NOT_FOUND): (?:Directory|Memory file) not found\b/.test(error.message));
}

/** What asking maenifold about a thought in flight gave. */
type Landing = { kind: 'landed'; sessionId: string; thoughtNumber: number } | { kind: 'absent' } | { kind: 'unknown'; error: MemoryError };

/** Failures after which the call may still have landed. */
export const AMBIGUOUS = new Set(['TIMEOUT', 'CRASHED', 'BAD_OUTPUT', 'OUTPUT_TOO_LARGE']);
const RECENT_KEYS = 50;

/** The holder's lock check, and whether a call went out under it. */
interface Guard {
  sent: boolean;
  check: () => Promise<void>;
}

/** Whether maenifold refused a chain for a reason about its session id: the chain is started again. */
export function isLostChain(error: MemoryError): boolean {
  return error.code === 'TOOL_ERROR' && /SESSION/.test(error.toolCode ?? '');
}

/** Settings of {@link createThoughtDelivery}. */
export interface ThoughtDeliverySettings {
  memory: MemoryPort;
  chains: ChainStore;
  logger: Logger;
  /** Deadline of one CLI call. */
  timeoutMs: number;
  now: () => number;
  /** Folder of the per-project locks. */
  lockDir: string;
  /** How long a call left by a dead sender may still land. @default 2 × timeoutMs */
  settleMs?: number;
  lockTiming?: LockTiming;
}

/**
 * @param settings - see {@link ThoughtDeliverySettings}.
 * @returns a function delivering one outbox entry of kind `thought`.
 */
export function createThoughtDelivery(settings: ThoughtDeliverySettings): (entry: OutboxEntry) => Promise<ThoughtOutcome> {
  const { memory, chains, logger, timeoutMs, now } = settings;
  const settleMs = settings.settleMs ?? 2 * timeoutMs;
  const lockTiming: LockTiming = { waitMs: timeoutMs + 15_000, holdMs: 8 * timeoutMs + 20_000, staleMs: 10_000, ...settings.lockTiming };

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
    // A new chain gets its id from maenifold: look among the sessions started that day since the call.
    const day = sessionUri(`session-${flight.at}-0`);
    if (!day) return { kind: 'absent' };
    const listed = await memory.listNotes(day.slice(0, day.lastIndexOf('/')), { timeoutMs });
    if (!listed.ok) return isNotFound(listed.error) ? { kind: 'absent' } : { kind: 'unknown', error: listed.error };
    const candidates = [...new Set(listed.value.join('\n').match(/session-\d{10,16}-\d+/g) ?? [])].filter((id) => Number(id.split('-')[1]) >= flight.at - 60_000);
    let unknown: MemoryError | null = null;
    for (const sessionId of candidates) {
      const held = await holdsKey(sessionId, flight.key, false);
      if (held === true) return { kind: 'landed', sessionId, thoughtNumber: 0 };
      if (held !== false) unknown ??= held;
    }
    return unknown ? { kind: 'unknown', error: unknown } : { kind: 'absent' };
  }

  const recorded = (record: ChainRecord | null, sessionId: string, thoughtNumber: number, key: string): ChainState => ({
    sessionId,
    thoughtNumber,
    updatedAt: new Date(now()).toISOString(),
    recentKeys: [...(record?.sessionId === sessionId ? (record.recentKeys ?? []) : []), key].slice(-RECENT_KEYS),
  });

  /** The thought as maenifold gets it, continuing `chain` or starting one. */
  function thoughtOf(entry: OutboxEntry, response: string, sessionId: string | null, thoughtNumber: number): ThoughtInput {
    const project = projectConcept(entry.project);
    // Each thought closes the chain with a linked conclusion, so maenifold never marks it
    // abandoned; the next summary appends to the same session (maenifold allows that).
    const base = {
      response,
      thoughts: `Delivery ${entry.key} of a [[compaction]] summary.`,
      nextThoughtNeeded: false,
      conclusion: `Latest [[compaction]] summary of [[${project}]] recorded.`,
      analysisType: 'retrospective',
    };
    return sessionId ? { ...base, sessionId, thoughtNumber, totalThoughts: thoughtNumber + 1 } : { ...base, thoughtNumber: 0, totalThoughts: 1 };
  }

  async function send(entry: OutboxEntry, response: string, chain: ChainState | null, guard: Guard): Promise<MemoryResult<ThoughtReceipt>> {
    const flight: ChainInFlight = { key: entry.key, sessionId: chain?.sessionId ?? null, thoughtNumber: chain ? chain.thoughtNumber + 1 : 0, at: now() };
    await chains.update(entry.project, (record) => ({ record: { ...(record ?? {}), inFlight: flight } as ChainRecord, result: undefined }), guard.check);
    // The last moment a lost lock can stop the call.
    await guard.check();
    guard.sent = true;
    const result = await memory.appendThought(thoughtOf(entry, response, flight.sessionId, flight.thoughtNumber), { timeoutMs });
    if (!result.ok) {
      // Refused: it did not land. Ambiguous: it may have, but the call is over (stopped at its deadline).
      const ambiguous = AMBIGUOUS.has(result.error.code);
      await chains.update(entry.project, (record) => {
        if (!record) return { record: null, result: undefined };
        const { inFlight: _dropped, ...rest } = record;
        if (ambiguous) return { record: { ...record, inFlight: { ...flight, ended: true } }, result: undefined };
        return { record: rest.sessionId === undefined ? null : (rest as ChainRecord), result: undefined };
      }, guard.check);
    }
    return result;
  }

  async function deliverLocked(entry: OutboxEntry, response: string, guard: Guard): Promise<ThoughtOutcome> {
    let record = await chains.record(entry.project);
    if (record?.inFlight) {
      const flight = record.inFlight;
      if (!flight.ended) {
        if (flight.at > now()) {
          // Written by a clock that ran ahead: the call began no later than now, so it settles within settleMs from now.
          const at = now();
          await chains.update(entry.project, (current) => ({ record: current?.inFlight?.key === flight.key ? ({ ...current, inFlight: { ...current.inFlight, at } } as ChainRecord) : current, result: undefined }), guard.check);
          logger.info(`summary: a thought of ${entry.project} in flight was dated ahead of this clock; waiting ${settleMs} ms for it to settle`);
          return { kind: 'postponed', until: at + settleMs };
        }
        if (now() < flight.at + settleMs) {
          logger.info(`summary: a thought of ${entry.project} sent by a stopped process may still land; waiting until it settles`);
          return { kind: 'postponed', until: flight.at + settleMs };
        }
      }
      const landed = await landedAt(flight);
      if (landed.kind === 'unknown') {
        logger.warn(`summary: could not learn whether thought ${flight.key} of ${entry.project} landed (${landed.error.code}: ${landed.error.message}); asking again later, not sending it again`);
        return { kind: 'unknown', error: landed.error };
      }
      if (landed.kind === 'landed') logger.info(`summary: thought ${landed.thoughtNumber} of chain ${landed.sessionId} had landed before the interruption; recorded, not sent again`);
      record = await chains.update(
        entry.project,
        (current) => {
          let next: ChainRecord | null;
          if (landed.kind === 'landed') next = recorded(current, landed.sessionId, landed.thoughtNumber, flight.key);
          else if (current?.sessionId === undefined) next = null;
          else {
            const { inFlight: _settled, ...rest } = current;
            next = rest as ChainRecord;
          }
          return { record: next, result: next };
        },
        guard.check,
      );
    }
    if (record?.recentKeys?.includes(entry.key)) {
      logger.info(`summary: ${entry.key} was already delivered; dropped the duplicate`);
      return { kind: 'delivered' };
    }
    const known = record && typeof record.sessionId === 'string' ? (record as ChainState) : null;
    let result = await send(entry, response, known, guard);
    if (!result.ok && known && isLostChain(result.error)) {
      logger.warn(`summary: chain ${known.sessionId} of ${entry.project} is gone (${result.error.toolCode}); starting a new one`);
      await chains.update(entry.project, () => ({ record: null, result: undefined }), guard.check);
      result = await send(entry, response, null, guard);
    }
    if (!result.ok) return { kind: 'failed', error: result.error };
    const { sessionId, thoughtNumber } = result.value;
    if (sessionId === null || thoughtNumber === null) {
      logger.warn('summary: SequentialThinking answered without a session id; chain not recorded');
      await chains.update(entry.project, () => ({ record: null, result: undefined }), guard.check);
      return { kind: 'delivered' };
    }
    await chains.update(entry.project, (current) => ({ record: recorded(current, sessionId, thoughtNumber, entry.key), result: undefined }), guard.check);
    logger.info(`summary: thought ${thoughtNumber} of chain ${sessionId} (${response.length} chars)`);
    return { kind: 'delivered' };
  }

  // Chains of projects whose state folder refuses the chain state, for as long as this process runs.
  const unsaved = new Map<string, ChainState>();

  async function deliverUnsaved(entry: OutboxEntry, response: string, cause: string): Promise<ThoughtOutcome> {
    const chain = unsaved.get(entry.project) ?? null;
    if (chain?.recentKeys?.includes(entry.key)) return { kind: 'delivered' };
    logger.warn(`summary: the state folder refuses the chain state (${cause}); delivering on a chain kept in memory, not durable`);
    const result = await memory.appendThought(thoughtOf(entry, response, chain?.sessionId ?? null, chain ? chain.thoughtNumber + 1 : 0), { timeoutMs });
    if (!result.ok) {
      if (chain && isLostChain(result.error)) unsaved.delete(entry.project);
      return { kind: 'failed', error: result.error };
    }
    const { sessionId, thoughtNumber } = result.value;
    if (sessionId !== null && thoughtNumber !== null) unsaved.set(entry.project, recorded(chain, sessionId, thoughtNumber, entry.key));
    logger.info(`summary: thought ${thoughtNumber ?? '?'} of chain ${sessionId ?? '?'} (${response.length} chars), chain not recorded`);
    return { kind: 'delivered' };
  }

  return async (entry) => {
    const response = entry.payload['response'];
    // Entries are plain JSON on disk: one without a text response can never be delivered.
    if (typeof response !== 'string') return { kind: 'failed', error: { code: 'TOOL_ERROR', toolCode: 'INVALID_ARGUMENT', message: 'SequentialThinking failed: INVALID_ARGUMENT: the stored thought has no response of text' } };
    const name = createHash('sha256').update(entry.project).digest('hex').slice(0, 24);
    const guard: Guard = { sent: false, check: async () => undefined };
    try {
      return await withFileLock(
        join(settings.lockDir, `chain-${name}.lock`),
        (signal) => {
          guard.check = () => assertHeld(signal);
          return deliverLocked(entry, response, guard);
        },
        lockTiming,
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException)?.code ?? '';
      // Only before anything was sent: after, the record in flight settles it on a later attempt.
      if (guard.sent || !REFUSED.has(code)) throw error;
      return deliverUnsaved(entry, response, code);
    }
  };
}
