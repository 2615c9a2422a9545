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
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { projectConcept, sessionUri } from '../../../core/memory/memory-format.js';
import type { ChainInFlight, ChainRecord, ChainState, ChainStore } from './chain-store.js';
import { withFileLock, type LockTiming } from '../../shared/file-lock.js';
import type { MemoryError, MemoryPort, MemoryResult, ThoughtInput, ThoughtReceipt } from '../memory-port.js';
import type { Logger } from '../../shared/logger.js';
import type { OutboxEntry } from './outbox.js';

/** What became of one attempt. */
export type ThoughtOutcome = { kind: 'delivered' } | { kind: 'postponed'; until: number } | { kind: 'failed'; error: MemoryError };

/** Failures after which the call may still have landed. */
export const AMBIGUOUS = new Set(['TIMEOUT', 'CRASHED', 'BAD_OUTPUT', 'OUTPUT_TOO_LARGE']);
const RECENT_KEYS = 50;

/** Whether maenifold refused a chain for a reason about its session id: the chain is started again. */
export function isLostChain(error: MemoryError): boolean {
  return error.code === 'TOOL_ERROR' && /SESSION/.test(error.toolCode ?? '');
}

/** Settings of {@link createThoughtDelivery}. */
export interface ThoughtDeliverySettings {
  cli: MemoryPort;
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
  const { cli, chains, logger, timeoutMs, now } = settings;
  const settleMs = settings.settleMs ?? 2 * timeoutMs;
  const lockTiming: LockTiming = { waitMs: timeoutMs + 15_000, holdMs: 8 * timeoutMs + 20_000, staleMs: 10_000, ...settings.lockTiming };

  async function holdsKey(sessionId: string, key: string): Promise<boolean> {
    const uri = sessionUri(sessionId);
    if (!uri) return false;
    const read = await cli.readNote(uri, { timeoutMs });
    return read.ok && read.value.content.includes(key);
  }

  /** Where a thought in flight landed, if it did: the chain it was sent to, or a chain started for it. */
  async function landedAt(flight: ChainInFlight): Promise<{ sessionId: string; thoughtNumber: number } | null> {
    if (flight.sessionId) return (await holdsKey(flight.sessionId, flight.key)) ? { sessionId: flight.sessionId, thoughtNumber: flight.thoughtNumber } : null;
    // A new chain gets its id from maenifold: look among the sessions started that day since the call.
    const day = sessionUri(`session-${flight.at}-0`);
    if (!day) return null;
    const listed = await cli.listNotes(day.slice(0, day.lastIndexOf('/')), { timeoutMs });
    if (!listed.ok) return null;
    const candidates = [...new Set(listed.value.join('\n').match(/session-\d{10,16}-\d+/g) ?? [])].filter((id) => Number(id.split('-')[1]) >= flight.at - 60_000);
    for (const sessionId of candidates) if (await holdsKey(sessionId, flight.key)) return { sessionId, thoughtNumber: 0 };
    return null;
  }

  const recorded = (record: ChainRecord | null, sessionId: string, thoughtNumber: number, key: string): ChainState => ({
    sessionId,
    thoughtNumber,
    updatedAt: new Date(now()).toISOString(),
    recentKeys: [...(record?.sessionId === sessionId ? (record.recentKeys ?? []) : []), key].slice(-RECENT_KEYS),
  });

  async function send(entry: OutboxEntry, response: string, chain: ChainState | null): Promise<MemoryResult<ThoughtReceipt>> {
    const project = projectConcept(entry.project);
    const flight: ChainInFlight = { key: entry.key, sessionId: chain?.sessionId ?? null, thoughtNumber: chain ? chain.thoughtNumber + 1 : 0, at: now() };
    await chains.update(entry.project, (record) => ({ record: { ...(record ?? {}), inFlight: flight } as ChainRecord, result: undefined }));
    // Each thought closes the chain with a linked conclusion, so maenifold never marks it
    // abandoned; the next summary appends to the same session (maenifold allows that).
    const base = {
      response,
      thoughts: `Delivery ${entry.key} of a [[compaction]] summary.`,
      nextThoughtNeeded: false,
      conclusion: `Latest [[compaction]] summary of [[${project}]] recorded.`,
      analysisType: 'retrospective',
    };
    const thought: ThoughtInput = flight.sessionId
      ? { ...base, sessionId: flight.sessionId, thoughtNumber: flight.thoughtNumber, totalThoughts: flight.thoughtNumber + 1 }
      : { ...base, thoughtNumber: 0, totalThoughts: 1 };
    const result = await cli.appendThought(thought, { timeoutMs });
    if (!result.ok) {
      // Refused: it did not land. Ambiguous: it may have, but the call is over (stopped at its deadline).
      const ambiguous = AMBIGUOUS.has(result.error.code);
      await chains.update(entry.project, (record) => {
        if (!record) return { record: null, result: undefined };
        const { inFlight: _dropped, ...rest } = record;
        if (ambiguous) return { record: { ...record, inFlight: { ...flight, ended: true } }, result: undefined };
        return { record: rest.sessionId === undefined ? null : (rest as ChainRecord), result: undefined };
      });
    }
    return result;
  }

  async function deliverLocked(entry: OutboxEntry): Promise<ThoughtOutcome> {
    const response = entry.payload['response'];
    // Entries are plain JSON on disk: one without a text response can never be delivered.
    if (typeof response !== 'string') return { kind: 'failed', error: { code: 'TOOL_ERROR', toolCode: 'INVALID_ARGUMENT', message: 'SequentialThinking failed: INVALID_ARGUMENT: the stored thought has no response of text' } };
    let record = await chains.record(entry.project);
    if (record?.inFlight) {
      const flight = record.inFlight;
      if (!flight.ended && now() < flight.at + settleMs) {
        logger.info(`summary: a thought of ${entry.project} sent by a stopped process may still land; waiting until it settles`);
        return { kind: 'postponed', until: flight.at + settleMs };
      }
      const landed = await landedAt(flight);
      if (landed) logger.info(`summary: thought ${landed.thoughtNumber} of chain ${landed.sessionId} had landed before the interruption; recorded, not sent again`);
      record = await chains.update(entry.project, (current) => {
        let next: ChainRecord | null;
        if (landed) next = recorded(current, landed.sessionId, landed.thoughtNumber, flight.key);
        else if (current?.sessionId === undefined) next = null;
        else {
          const { inFlight: _settled, ...rest } = current;
          next = rest as ChainRecord;
        }
        return { record: next, result: next };
      });
    }
    if (record?.recentKeys?.includes(entry.key)) {
      logger.info(`summary: ${entry.key} was already delivered; dropped the duplicate`);
      return { kind: 'delivered' };
    }
    const known = record && typeof record.sessionId === 'string' ? (record as ChainState) : null;
    let result = await send(entry, response, known);
    if (!result.ok && known && isLostChain(result.error)) {
      logger.warn(`summary: chain ${known.sessionId} of ${entry.project} is gone (${result.error.toolCode}); starting a new one`);
      await chains.clear(entry.project);
      result = await send(entry, response, null);
    }
    if (!result.ok) return { kind: 'failed', error: result.error };
    const { sessionId, thoughtNumber } = result.value;
    if (sessionId === null || thoughtNumber === null) {
      logger.warn('summary: SequentialThinking answered without a session id; chain not recorded');
      await chains.update(entry.project, () => ({ record: null, result: undefined }));
      return { kind: 'delivered' };
    }
    await chains.update(entry.project, (current) => ({ record: recorded(current, sessionId, thoughtNumber, entry.key), result: undefined }));
    logger.info(`summary: thought ${thoughtNumber} of chain ${sessionId} (${response.length} chars)`);
    return { kind: 'delivered' };
  }

  return (entry) => {
    const name = createHash('sha256').update(entry.project).digest('hex').slice(0, 24);
    return withFileLock(join(settings.lockDir, `chain-${name}.lock`), () => deliverLocked(entry), lockTiming);
  };
}
