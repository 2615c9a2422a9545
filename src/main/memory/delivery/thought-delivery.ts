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
 * every write of the chain state, so a stale holder writes nothing, and sends
 * nothing once it has learned. A call that went out before it learned (the
 * process stopped after the last check) may land after the other process
 * settled the thought in flight as absent: the sender marks the entry
 * (`unrecorded`) as it gives it back, and whoever takes it next asks
 * maenifold whether that call landed before sending it again.
 * A state folder the disk refuses (full, read-only, a file where the folder
 * should be: disk-refusals.ts) cannot hold a lock or a chain: the thought is
 * then delivered once, on a chain kept in this process's memory, by the same
 * steps on a store kept in memory: its thought in flight is recorded there,
 * and an ambiguous call is settled by asking maenifold before anything is
 * sent again, on that chain or, once the disk takes writes again, the
 * durable one. Before such a call goes out for an entry claimed from the
 * outbox, the claim is renamed to say the call may be in flight (a rename
 * needs no free space); should the process die, the entry comes back with
 * the `unrecorded` mark. Where the rename fails, nothing is sent.
 *
 * The chain lives as long as the project: a session's note is read whole
 * (by the lookup and by session start), and maenifold's answers are capped,
 * so a thought that would take the note past `rolloverBytes` starts a new
 * session instead, linked to the one before it. A thought whose landing
 * cannot be learned holds back only its own entry: the next entry sets it
 * aside (`unsettled`, asked about again when its own entry comes round) and
 * goes on a new session, whose numbers it cannot collide with.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { projectConcept, sessionUri } from '../../../core/memory/memory-format.js';
import type { ChainInFlight, ChainRecord, ChainState, ChainStore } from './chain-store.js';
import { errorCode, isDiskRefusal } from '../../shared/disk-refusals.js';
import { assertHeld, withFileLock, type LockTiming } from '../../shared/file-lock.js';
import type { MemoryError, MemoryPort, MemoryResult, ThoughtInput, ThoughtReceipt } from '../memory-port.js';
import type { Logger } from '../../shared/logger.js';
import type { InFlightMark, OutboxEntry } from './outbox.js';
import { createMemoryChainStore } from './memory-chain-store.js';
import { isUnrecorded } from './outbox-entry.js';
import { CHAIN_ROLLOVER_BYTES, MAX_UNSETTLED, RECENT_KEYS, recordedChain, residue, SESSION_OVERHEAD_BYTES, sessionBytes, THOUGHT_OVERHEAD_BYTES, withoutUnsettled } from './chain-record.js';
import { createLandingLookup, isNotFound } from './thought-landing.js';

/** What became of one attempt. */
export type ThoughtOutcome =
  | { kind: 'delivered' }
  | { kind: 'postponed'; until: number }
  | { kind: 'failed'; error: MemoryError }
  /** Whether an earlier call landed could not be learned: asked again later, never sent blindly. */
  | { kind: 'unknown'; error: MemoryError };

/** Failures after which the call may still have landed. */
export const AMBIGUOUS = new Set(['TIMEOUT', 'CRASHED', 'BAD_OUTPUT', 'OUTPUT_TOO_LARGE']);

export { CHAIN_ROLLOVER_BYTES } from './chain-record.js';

/** The holder's lock check, and whether a call went out under it. */
interface Guard {
  sent: boolean;
  check: () => Promise<void>;
  /** The call that went out, and whether it had returned. */
  flight?: ChainInFlight;
  returned?: boolean;
  /** Leaves a durable mark that the call may be in flight, before a call on a chain kept in memory; rejects when it cannot (nothing is sent then). */
  mark?: MarkInFlight;
}

/** See {@link Guard.mark}: the outbox's claim of the entry, renamed (outbox.ts). */
export type MarkInFlight = (call: InFlightMark) => Promise<void>;

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
  /** How large a session's note may grow before the chain goes on in a new session. @default {@link CHAIN_ROLLOVER_BYTES} */
  rolloverBytes?: number;
  /** `chains` lives in this process's memory: no lock is taken, steps of one project run one at a time. @default false */
  chainsInMemory?: boolean;
}

/**
 * @param settings - see {@link ThoughtDeliverySettings}.
 * @returns a function delivering one outbox entry of kind `thought`; `mark`, given for an entry claimed from
 * the outbox, records on disk that a call on a chain kept in memory may be in flight (see the module's comment).
 */
export function createThoughtDelivery(settings: ThoughtDeliverySettings): (entry: OutboxEntry, mark?: MarkInFlight) => Promise<ThoughtOutcome> {
  const { memory, chains, logger, timeoutMs, now } = settings;
  const settleMs = settings.settleMs ?? 2 * timeoutMs;
  const rolloverBytes = settings.rolloverBytes ?? CHAIN_ROLLOVER_BYTES;
  const lockTiming: LockTiming = { waitMs: timeoutMs + 15_000, holdMs: 8 * timeoutMs + 20_000, staleMs: 10_000, ...settings.lockTiming };
  const { landedAt } = createLandingLookup(memory, timeoutMs, settleMs);

  function thoughtOf(entry: OutboxEntry, response: string, sessionId: string | null, thoughtNumber: number, continues?: string): ThoughtInput {
    const project = projectConcept(entry.project);
    const earlier = continues ? sessionUri(continues) : null;
    // Each thought closes the chain with a linked conclusion, so maenifold never marks it
    // abandoned; the next summary appends to the same session (maenifold allows that).
    const base = {
      response,
      thoughts: `Delivery ${entry.key} of a [[compaction]] summary.${earlier ? ` The chain continues [[${continues}]] (${earlier}).` : ''}`,
      nextThoughtNeeded: false,
      conclusion: `Latest [[compaction]] summary of [[${project}]] recorded.`,
      analysisType: 'retrospective',
    };
    return sessionId ? { ...base, sessionId, thoughtNumber, totalThoughts: thoughtNumber + 1 } : { ...base, thoughtNumber: 0, totalThoughts: 1 };
  }

  /**
   * The chain with its note's size: chains of earlier versions did not count it, and their note is read
   * once to learn it. A note that cannot be read whole (too large for an answer, among others) counts as
   * full; one that is gone counts as empty (the call that follows learns it is gone).
   */
  async function measured(chain: ChainState): Promise<ChainState> {
    if (chain.bytes !== undefined) return chain;
    const uri = sessionUri(chain.sessionId);
    if (!uri) return { ...chain, bytes: 0 };
    const read = await memory.readNote(uri, { timeoutMs });
    if (read.ok) return { ...chain, bytes: SESSION_OVERHEAD_BYTES + Buffer.byteLength(read.value.content, 'utf8') };
    return { ...chain, bytes: isNotFound(read.error) ? 0 : Number.POSITIVE_INFINITY };
  }

  /** How much a thought adds to its session's note, from above. */
  function thoughtBytes(thought: ThoughtInput): number {
    return THOUGHT_OVERHEAD_BYTES + [thought.response, thought.thoughts, thought.conclusion].reduce((sum, text) => sum + Buffer.byteLength(text ?? '', 'utf8'), 0);
  }

  async function send(entry: OutboxEntry, response: string, chain: ChainState | null, guard: Guard, continues?: string): Promise<MemoryResult<ThoughtReceipt>> {
    const sessionId = chain?.sessionId ?? null;
    const thoughtNumber = chain ? chain.thoughtNumber + 1 : 0;
    const thought = thoughtOf(entry, response, sessionId, thoughtNumber, continues);
    const flight: ChainInFlight = { key: entry.key, sessionId, thoughtNumber, at: now(), bytes: thoughtBytes(thought), ...(continues ? { continues } : {}) };
    // The record in flight of a chain kept in memory dies with this process: the claim's name says the call
    // may be in flight, so whoever gets the entry back asks maenifold before sending it again.
    await guard.mark?.({ sessionId, at: flight.at, settledBy: flight.at + settleMs });
    await chains.update(entry.project, (record) => ({ record: { ...(record ?? {}), inFlight: flight } as ChainRecord, result: undefined }), guard.check);
    // The last moment a lost lock can stop the call.
    await guard.check();
    guard.sent = true;
    guard.flight = flight;
    const result = await memory.appendThought(thought, { timeoutMs });
    guard.returned = true;
    if (!result.ok) {
      // Refused: it did not land. Ambiguous: it may have, but the call is over (stopped at its deadline).
      const ambiguous = AMBIGUOUS.has(result.error.code);
      await chains.update(entry.project, (record) => {
        if (!record) return { record: null, result: undefined };
        const { inFlight: _dropped, ...rest } = record;
        if (ambiguous) return { record: { ...record, inFlight: { ...flight, ended: true } }, result: undefined };
        return { record: rest.sessionId === undefined ? residue(rest as ChainRecord) : (rest as ChainRecord), result: undefined };
      }, guard.check);
    }
    return result;
  }

  /** The entry's own thought, set aside earlier: recorded once it is known to have landed, sent once it is known absent. */
  async function settleAside(entry: OutboxEntry, flight: ChainInFlight, guard: Guard): Promise<{ done: ThoughtOutcome } | { record: ChainRecord | null }> {
    const landed = await landedAt(flight);
    if (landed.kind === 'unknown') {
      logger.warn(`summary: still cannot learn whether thought ${flight.key} of ${entry.project} landed (${landed.error.code}: ${landed.error.message}); asking again later, not sending it again`);
      return { done: { kind: 'unknown', error: landed.error } };
    }
    const record = await chains.update(
      entry.project,
      (current) => {
        const next = withoutUnsettled(current, flight.key);
        if (landed.kind === 'landed' && next) next.recentKeys = [...(next.recentKeys ?? []), flight.key].slice(-RECENT_KEYS);
        return { record: next, result: next };
      },
      guard.check,
    );
    if (landed.kind === 'absent') return { record };
    logger.info(`summary: thought ${landed.thoughtNumber} of chain ${landed.sessionId}, set aside earlier, had landed; recorded, not sent again`);
    return { done: { kind: 'delivered' } };
  }

  /**
   * Whether the call an entry is marked with (see the module's comment) landed: the outcome when that
   * settles the entry (landed: delivered; not yet settled, or not learned: later), `null` when it did
   * not land and the thought is to be sent.
   */
  async function settleUnrecorded(entry: OutboxEntry, unrecorded: NonNullable<OutboxEntry['unrecorded']>, guard: Guard): Promise<ThoughtOutcome | null> {
    // A call not over when its sender gave the entry back may land until settledBy; a time further ahead
    // than one settle time comes from a clock ahead of this one, and is brought back to one.
    if (unrecorded.settledBy > now() + settleMs) entry.unrecorded = { ...unrecorded, settledBy: now() + settleMs };
    const until = entry.unrecorded?.settledBy ?? now();
    if (now() < until) return { kind: 'postponed', until };
    const landed = await landedAt({ key: entry.key, sessionId: unrecorded.sessionId, thoughtNumber: 0, at: unrecorded.at });
    if (landed.kind === 'unknown') {
      logger.warn(`summary: could not learn whether thought ${entry.key} of ${entry.project}, sent by a sender that lost its lock, landed (${landed.error.code}: ${landed.error.message}); asking again later, not sending it again`);
      return { kind: 'unknown', error: landed.error };
    }
    delete entry.unrecorded;
    if (landed.kind === 'absent') return null;
    logger.info(`summary: thought ${entry.key} of ${entry.project} had landed on chain ${landed.sessionId} after its sender lost its lock; not sent again`);
    // Only the key is kept, the numbering stays the chain's own: the chain has moved on since, or the session
    // the call landed in is one whose sender may have gone on numbering it (a chain kept in its memory).
    await chains.update(
      entry.project,
      (current) => ({ record: { ...(current ?? {}), recentKeys: [...(current?.recentKeys ?? []), entry.key].slice(-RECENT_KEYS) } as ChainRecord, result: undefined }),
      guard.check,
    );
    return { kind: 'delivered' };
  }

  async function deliverLocked(entry: OutboxEntry, response: string, guard: Guard): Promise<ThoughtOutcome> {
    let record = await chains.record(entry.project);
    const aside = record?.unsettled?.find((flight) => flight.key === entry.key);
    if (aside) {
      const settled = await settleAside(entry, aside, guard);
      if ('done' in settled) return settled.done;
      record = settled.record;
    }
    // Set when a thought whose landing cannot be learned was set aside: its number may be taken.
    let rollOver = false;
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
      if (landed.kind === 'unknown' && flight.key === entry.key) {
        logger.warn(`summary: could not learn whether thought ${flight.key} of ${entry.project} landed (${landed.error.code}: ${landed.error.message}); asking again later, not sending it again`);
        return { kind: 'unknown', error: landed.error };
      }
      if (landed.kind === 'unknown') {
        // Another entry's thought, and its call can no longer land: it is set aside for its own entry to
        // settle, and this entry goes on, in a new session (the number it may have taken is never reused).
        logger.warn(`summary: could not learn whether thought ${flight.key} of ${entry.project} landed (${landed.error.code}: ${landed.error.message}); set aside until its own entry asks again, the chain goes on in a new session`);
        rollOver = true;
      } else if (landed.kind === 'landed') logger.info(`summary: thought ${landed.thoughtNumber} of chain ${landed.sessionId} had landed before the interruption; recorded, not sent again`);
      record = await chains.update(
        entry.project,
        (current) => {
          let next: ChainRecord | null;
          if (landed.kind === 'landed') next = recordedChain(now(), current, landed.sessionId, landed.thoughtNumber, flight.key, flight.bytes, flight.continues);
          else if (!current) next = null;
          else {
            const { inFlight: _settled, ...rest } = current;
            const unsettled = landed.kind === 'unknown' && current.inFlight?.key === flight.key ? [...(current.unsettled ?? []), flight] : (current.unsettled ?? []);
            if (unsettled.length > MAX_UNSETTLED) logger.warn(`summary: more than ${MAX_UNSETTLED} thoughts of ${entry.project} set aside; forgot ${unsettled[0]?.key}`);
            const kept = { ...rest, ...(unsettled.length > 0 ? { unsettled: unsettled.slice(-MAX_UNSETTLED) } : {}) } as ChainRecord;
            next = kept.sessionId === undefined ? residue(kept) : kept;
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
    if (entry.unrecorded !== undefined && !isUnrecorded(entry.unrecorded)) {
      logger.warn(`summary: the mark of an earlier call of ${entry.key} is damaged; dropped`);
      delete entry.unrecorded;
    }
    if (entry.unrecorded) {
      const settled = await settleUnrecorded(entry, entry.unrecorded, guard);
      if (settled) return settled;
    }
    const known = record && typeof record.sessionId === 'string' ? await measured(record as ChainState) : null;
    // A session whose note this thought would take past the bound is left closed: the chain goes on in a new one.
    const next = known ? thoughtOf(entry, response, known.sessionId, known.thoughtNumber + 1) : null;
    if (known && next && sessionBytes(known) + thoughtBytes(next) > rolloverBytes) rollOver = true;
    if (known && rollOver) logger.info(`summary: chain ${known.sessionId} of ${entry.project} goes on in a new session (about ${sessionBytes(known)} bytes, thought ${known.thoughtNumber})`);
    let result = known && rollOver ? await send(entry, response, null, guard, known.sessionId) : await send(entry, response, known, guard);
    if (!result.ok && known && !rollOver && isLostChain(result.error)) {
      logger.warn(`summary: chain ${known.sessionId} of ${entry.project} is gone (${result.error.toolCode}); starting a new one`);
      await chains.update(entry.project, (current) => ({ record: residue(current), result: undefined }), guard.check);
      result = await send(entry, response, null, guard);
    }
    if (!result.ok) return { kind: 'failed', error: result.error };
    const { sessionId, thoughtNumber } = result.value;
    if (sessionId === null || thoughtNumber === null) {
      logger.warn('summary: SequentialThinking answered without a session id; chain not recorded');
      await chains.update(entry.project, (current) => ({ record: residue(current), result: undefined }), guard.check);
      return { kind: 'delivered' };
    }
    await chains.update(
      entry.project,
      (current) => ({
        record: recordedChain(now(), current, sessionId, thoughtNumber, entry.key, current?.inFlight?.key === entry.key ? current.inFlight.bytes : undefined, current?.inFlight?.continues, known?.sessionId === sessionId ? known.bytes : undefined),
        result: undefined,
      }),
      guard.check,
    );
    logger.info(`summary: thought ${thoughtNumber} of chain ${sessionId} (${response.length} chars)`);
    return { kind: 'delivered' };
  }

  // Chains of projects whose state folder refuses the chain state, for as long as this process runs.
  const memoryChains = settings.chainsInMemory ? chains : createMemoryChainStore();
  const deliverInMemory = settings.chainsInMemory ? null : createThoughtDelivery({ ...settings, chains: memoryChains, chainsInMemory: true });
  const steps = new Map<string, Promise<unknown>>();

  /** One step of a chain kept in memory at a time per project: what the lock does on disk. */
  function inOrder(project: string, step: () => Promise<ThoughtOutcome>): Promise<ThoughtOutcome> {
    const next = (steps.get(project) ?? Promise.resolve()).then(step, step);
    const settled = next.catch(() => undefined);
    steps.set(project, settled);
    void settled.then(() => steps.get(project) === settled && steps.delete(project));
    return next;
  }

  return async (entry, mark) => {
    const response = entry.payload['response'];
    // Entries are plain JSON on disk: one without a text response can never be delivered.
    if (typeof response !== 'string') return { kind: 'failed', error: { code: 'TOOL_ERROR', toolCode: 'INVALID_ARGUMENT', message: 'SequentialThinking failed: INVALID_ARGUMENT: the stored thought has no response of text' } };
    if (!deliverInMemory) return inOrder(entry.project, () => deliverLocked(entry, response, { sent: false, check: async () => undefined, ...(mark ? { mark } : {}) }));
    // A call on the chain kept in memory that may have landed is settled there first, even once the disk is back.
    const inMemory = await memoryChains.record(entry.project);
    if (inMemory?.inFlight || inMemory?.unsettled?.length) return deliverInMemory(entry, mark);
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
      // The call went out and its outcome is not recorded: the entry, given back, says so (module comment).
      if (guard.sent && guard.flight) entry.unrecorded = { sessionId: guard.flight.sessionId, at: guard.flight.at, settledBy: guard.returned ? guard.flight.at : now() + settleMs };
      // Only before anything was sent: after, the record in flight and the mark settle it on a later attempt.
      if (guard.sent || !isDiskRefusal(error)) throw error;
      logger.warn(`summary: the state folder refuses the chain state (${errorCode(error) ?? 'error'}); delivering on a chain kept in memory, not durable`);
      return deliverInMemory(entry, mark);
    }
  };
}
