/**
 * Delivery of writes to maenifold through the durable outbox: a compaction
 * note or a summary thought is written to disk first — at once, whatever
 * earlier deliveries are doing — then sent; what cannot be sent now is
 * retried with backoff on plugin start and on later hooks.
 *
 * Several processes may share the outbox: each entry is claimed (renamed)
 * before it is sent, so only one process sends it at a time. Delivery is at
 * least once; idempotency keys keep a chain from gaining a duplicate thought
 * even when a process dies in the middle of a call (thought-delivery.ts).
 *
 * An entry the disk refused is held in memory and delivered from there; it
 * is written to the outbox at the next flush the disk takes it, and at
 * shutdown it is written there one last time or else spilled elsewhere
 * (spill.ts), so a clean exit never loses it.
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { ChainStore } from './chain-store.js';
import { withDeadline } from '../../shared/deadline.js';
import type { LockTiming } from '../../shared/file-lock.js';
import type { MemoryError, MemoryPort, NoteInput } from '../memory-port.js';
import { errorText, type Logger } from '../../shared/logger.js';
import type { Claim, InFlightMark, Outbox, OutboxEntry } from './outbox.js';
import { createSpill, defaultSpillDir } from './spill.js';
import { AMBIGUOUS, createThoughtDelivery, type ThoughtOutcome } from './thought-delivery.js';
import pLimit from 'p-limit';

/** The longest retry delay: no wait, and no time read from disk or another process, lies further ahead. */
export const MAX_BACKOFF_MS = 3_600_000;

/** Retry delays: 30 s, 2 min, 8 min, 32 min, then hourly. */
export function backoffMs(attempts: number): number {
  return Math.min(30_000 * 4 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
}

/** How long each last write at shutdown may take: a healthy disk takes milliseconds, and shutdown is bounded. */
const LAST_WRITE_MS = 1_000;

/** A stable key for a write. */
export function idempotencyKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);
}

/** maenifold's answers that a retry cannot change: the entry is parked. Everything else is retried. */
const VALIDATION = new Set([
  'VALIDATION_ERROR',
  'WIKILINK_REQUIRED',
  'FILTERED_WIKILINKS',
  'PATH_VALIDATION_ERROR',
  'PATH_TOO_LONG',
  'CONCLUSION_REQUIRED',
  'CONCLUSION_WIKILINK_REQUIRED',
  'INVALID_PAYLOAD',
  'INVALID_ARGUMENT',
  'UNKNOWN_TOOL',
]);

/** Whether a failure can never be fixed by sending again. */
export function isPermanent(error: MemoryError): boolean {
  return error.code === 'PAYLOAD_TOO_LARGE' || (error.code === 'TOOL_ERROR' && VALIDATION.has(error.toolCode ?? ''));
}

/** A summary thought before it has a place in a chain. */
export interface ThoughtRequest {
  project: string;
  /** The thought's text (already sanitized and capped). */
  response: string;
  /** What makes this thought unique: the compacted session and its summary. */
  source: string;
}

/** Delivers notes and thoughts. */
export interface Delivery {
  /** Resolves once the note is on disk (or held in memory when the disk refuses) and a delivery attempt ended. */
  submitNote(project: string, note: NoteInput): Promise<void>;
  submitThought(request: ThoughtRequest): Promise<void>;
  /** Sends every entry that is due. */
  flush(): Promise<void>;
  /** Resolves once every submission made so far is on disk (or held in memory when the disk refused it). */
  stored(): Promise<void>;
  /**
   * At shutdown: writes what is held only in memory to the outbox, or, where the disk still refuses, to
   * the spill folder; each write bounded by `storeDeadlineMs`. Never rejects.
   */
  close(): Promise<void>;
}

/** What {@link createDelivery} is built from. */
export interface DeliveryParts {
  memory: MemoryPort;
  outbox: Outbox;
  chains: ChainStore;
  logger: Logger;
  /** Deadline of one CLI call. */
  timeoutMs: number;
  now?: () => number;
  /** How long a thought left by a dead sender may still land. @default 2 × timeoutMs */
  settleMs?: number;
  /** Folder of the per-project chain locks. @default `locks/` beside the chain state */
  lockDir?: string;
  /** How long writing a new entry may take before it is held in memory instead. @default 5000 */
  storeDeadlineMs?: number;
  lockTiming?: LockTiming;
  /** How large a session of the summary chain may grow before it goes on in a new one. @default 512 KiB (thought-delivery.ts) */
  rolloverBytes?: number;
  /** Where entries held only in memory go at shutdown when the outbox refuses them. @default under the system's temporary folder (spill.ts) */
  spillDir?: string;
}

function describe(error: MemoryError): string {
  return `${error.code}${error.toolCode ? ` ${error.toolCode}` : ''}: ${error.message}`;
}

/**
 * The note an outbox entry holds, as it was submitted (entries are plain
 * JSON on disk): one whose fields are not of their types can never be
 * written, and is refused as maenifold would refuse it.
 *
 * @param payload - the entry's payload.
 */
export function noteOf(payload: Record<string, unknown>): { ok: true; value: NoteInput } | { ok: false; error: MemoryError } {
  const { title, content, folder, tags } = payload;
  if (typeof title !== 'string' || typeof content !== 'string' || (folder !== undefined && typeof folder !== 'string') || (tags !== undefined && !Array.isArray(tags))) {
    return { ok: false, error: { code: 'TOOL_ERROR', toolCode: 'INVALID_ARGUMENT', message: 'WriteMemory failed: INVALID_ARGUMENT: the stored note has no title and content of text' } };
  }
  return { ok: true, value: { title, content, ...(folder !== undefined ? { folder } : {}), ...(tags !== undefined ? { tags: tags.map(String) } : {}) } };
}

/**
 * @param parts - see {@link DeliveryParts}.
 */
export function createDelivery(parts: DeliveryParts): Delivery {
  const { memory, outbox, logger, timeoutMs } = parts;
  const now = parts.now ?? Date.now;
  const deliverThought = createThoughtDelivery({
    memory,
    chains: parts.chains,
    logger,
    timeoutMs,
    now,
    lockDir: parts.lockDir ?? join(dirname(parts.chains.file), 'locks'),
    ...(parts.settleMs !== undefined ? { settleMs: parts.settleMs } : {}),
    ...(parts.lockTiming ? { lockTiming: parts.lockTiming } : {}),
    ...(parts.rolloverBytes !== undefined ? { rolloverBytes: parts.rolloverBytes } : {}),
  });
  const storeDeadlineMs = parts.storeDeadlineMs ?? 5_000;
  const spill = createSpill(parts.spillDir ?? defaultSpillDir(outbox.dir));
  // A flush past this lets the next one start; claims keep the two from sending an entry twice.
  const flushDeadlineMs = 4 * timeoutMs + 10_000;
  // One delivery round at a time in this process.
  const oneRound = pLimit(1);
  let adding: Promise<unknown> = Promise.resolve();
  // Entries that live only in memory because the disk refused them.
  const volatile = new Map<string, OutboxEntry>();

  function serially(work: () => Promise<void>): Promise<void> {
    const bounded = async (): Promise<void> => {
      const ran = await withDeadline(work(), flushDeadlineMs);
      if (!ran.done && ran.reason === 'timeout') logger.warn(`outbox: a delivery round passed ${flushDeadlineMs} ms (a slow disk or CLI); later rounds go on beside it`);
      else if (!ran.done) throw ran.error;
    };
    return oneRound(bounded);
  }

  /** Gives back or drops an entry after an attempt; `claim` is null for an entry held in memory. */
  async function settleEntry(entry: OutboxEntry, claim: Claim | null, outcome: ThoughtOutcome): Promise<void> {
    if (outcome.kind === 'delivered') {
      volatile.delete(entry.key);
      if (claim) await outbox.finish(claim);
      return;
    }
    if (outcome.kind === 'postponed') {
      entry.nextAttemptAt = Math.min(outcome.until, now() + MAX_BACKOFF_MS);
    } else if (outcome.kind === 'unknown') {
      // Never parked: whether it landed is asked again, however long maenifold stays unreadable.
      entry.attempts += 1;
      entry.nextAttemptAt = now() + backoffMs(entry.attempts);
      entry.lastError = describe(outcome.error);
    } else if (isPermanent(outcome.error)) {
      logger.error(`outbox: ${entry.kind} ${entry.key} can never be delivered (${describe(outcome.error)}); kept in ${outbox.dir}/failed`);
      volatile.delete(entry.key);
      // When even that fails, the claim is recovered and parked next time.
      if (claim) await outbox.park(claim, describe(outcome.error)).catch(() => undefined);
      return;
    } else {
      entry.attempts += 1;
      entry.nextAttemptAt = now() + backoffMs(entry.attempts);
      entry.lastError = describe(outcome.error);
      const level = AMBIGUOUS.has(outcome.error.code) ? 'error' : 'warn';
      logger.log(level, `outbox: ${entry.kind} not delivered (${describe(outcome.error)}); attempt ${entry.attempts}, next in ${Math.round(backoffMs(entry.attempts) / 1000)} s`);
    }
    if (claim) await outbox.release(claim);
  }

  async function deliverNote(entry: OutboxEntry): Promise<ThoughtOutcome> {
    const note = noteOf(entry.payload);
    if (!note.ok) return { kind: 'failed', error: note.error };
    // Same title, same file: a second delivery of a note overwrites it with itself.
    const written = await memory.writeNote(note.value, { timeoutMs });
    if (!written.ok) return { kind: 'failed', error: written.error };
    logger.info(`compaction note written: ${written.value.uri ?? String(note.value.folder)}${entry.attempts > 0 ? ` (after ${entry.attempts} retries)` : ''}`);
    return { kind: 'delivered' };
  }

  async function attempt(entry: OutboxEntry, claim: Claim | null): Promise<void> {
    let outcome: ThoughtOutcome;
    let marked: InFlightMark | null = null;
    const mark = claim
      ? async (call: InFlightMark): Promise<void> => {
          await outbox.mark(claim, call);
          marked = call;
        }
      : undefined;
    try {
      // An entry claimed from the outbox leaves its mark there before a call on a chain kept in memory goes out.
      outcome = entry.kind === 'note' ? await deliverNote(entry) : await deliverThought(entry, mark);
    } catch (error) {
      // A state file that could not be read or written in time, a lock held elsewhere: nothing was sent.
      const code = (error as { code?: unknown })?.code;
      outcome = { kind: 'failed', error: { code: 'IO_ERROR', message: `${typeof code === 'string' ? `${code}: ` : ''}${errorText(error)}` } };
    }
    // A call on a chain kept in memory that may have landed: whoever takes the entry next asks first, as this process would.
    const mayHaveLanded = outcome.kind === 'unknown' || (outcome.kind === 'failed' && AMBIGUOUS.has(outcome.error.code));
    if (marked && mayHaveLanded && !entry.unrecorded) entry.unrecorded = marked;
    await settleEntry(entry, claim, outcome);
  }

  /** Writes an entry held in memory to the outbox within the store deadline; whether it is there now. */
  async function persist(entry: OutboxEntry, deadlineMs = storeDeadlineMs): Promise<boolean> {
    const added = await withDeadline(outbox.add({ key: entry.key, kind: entry.kind, payload: entry.payload, project: entry.project, ...(entry.unrecorded ? { unrecorded: entry.unrecorded } : {}) }), deadlineMs);
    if (!added.done) return false; // Still refused, or not answering: delivered from memory.
    volatile.delete(entry.key);
    return true;
  }

  async function flushDue(): Promise<void> {
    // What the disk refused earlier is written now if it takes it, so a restart keeps it.
    for (const entry of [...volatile.values()]) if (!(await persist(entry))) break;
    // What an earlier process spilled at its shutdown, once this disk takes it.
    const adopted = await withDeadline(spill.adopt(outbox, storeDeadlineMs), storeDeadlineMs);
    if (adopted.done && adopted.value > 0) logger.info(`outbox: took ${adopted.value} entries spilled at an earlier shutdown from ${spill.dir}`);
    if (!memory.available) return; // Kept for when the CLI is installed.
    for (const listed of await outbox.list()) {
      const latest = now() + MAX_BACKOFF_MS;
      if (listed.nextAttemptAt > now() && listed.nextAttemptAt <= latest) continue;
      const claim = await outbox.claim(listed);
      if (!claim) continue; // Another process is delivering it, or has.
      if (claim.entry.nextAttemptAt > latest) {
        // Dated by a clock that ran ahead: due within the longest backoff, not when that clock said.
        logger.warn(`outbox: ${claim.entry.kind} ${claim.entry.key} was due ${Math.round((claim.entry.nextAttemptAt - now()) / 60_000)} min ahead of this clock; due within the hour instead`);
        claim.entry.nextAttemptAt = latest;
      }
      if (claim.entry.nextAttemptAt > now()) {
        await outbox.release(claim);
        continue;
      }
      await attempt(claim.entry, claim);
    }
    for (const entry of [...volatile.values()]) if (entry.nextAttemptAt <= now()) await attempt(entry, null);
  }

  /** Writes the entry durably; never waits for a delivery. */
  function store(fields: Omit<OutboxEntry, 'createdAt' | 'attempts' | 'nextAttemptAt'>): Promise<unknown> {
    const write = async (): Promise<void> => {
      if (volatile.has(fields.key)) return;
      try {
        // A disk that does not answer counts as one that refused: the entry is kept in memory.
        const added = await withDeadline(outbox.add(fields), storeDeadlineMs);
        if (!added.done) throw added.reason === 'timeout' ? Object.assign(new Error('outbox write timed out'), { code: 'TIMEOUT' }) : added.error;
      } catch (error) {
        const at = now();
        volatile.set(fields.key, { ...fields, createdAt: at, attempts: 0, nextAttemptAt: at });
        logger.warn(`outbox: the disk refused the ${fields.kind} (${(error as NodeJS.ErrnoException).code ?? 'error'}); delivering without a durable copy`);
      }
    };
    // One add at a time, so the same key submitted twice at once is one entry.
    const next = adding.then(write, write);
    adding = next.catch(() => undefined);
    return next;
  }

  async function submit(fields: Omit<OutboxEntry, 'createdAt' | 'attempts' | 'nextAttemptAt'>): Promise<void> {
    await store(fields);
    // The new entry, and whatever earlier one is due again.
    await serially(flushDue);
  }

  return {
    submitNote: (project, note) => submit({ key: idempotencyKey('note', note.title, note.content), kind: 'note', payload: { ...note }, project }),
    submitThought: (request) =>
      submit({ key: idempotencyKey('thought', request.project, request.source), kind: 'thought', payload: { response: request.response }, project: request.project }),
    flush: () => serially(flushDue),
    stored: () => adding.then(() => undefined),
    async close() {
      try {
        await withDeadline(adding, LAST_WRITE_MS);
        // Once the outbox refused one, the rest go straight to the spill: shutdown is bounded.
        let outboxTakes = true;
        for (const entry of [...volatile.values()]) {
          if (outboxTakes && (await persist(entry, LAST_WRITE_MS))) {
            logger.info(`shutdown: the ${entry.kind} ${entry.key} held in memory is in the outbox`);
            continue;
          }
          outboxTakes = false;
          const spilled = await withDeadline(spill.write(entry), LAST_WRITE_MS);
          if (spilled.done) {
            volatile.delete(entry.key);
            logger.warn(`shutdown: the outbox refuses the ${entry.kind} ${entry.key} held in memory; spilled to ${spill.dir}, taken back at the next start`);
          } else logger.error(`shutdown: the ${entry.kind} ${entry.key} held in memory could not be written anywhere (${spilled.reason === 'timeout' ? 'timed out' : errorText(spilled.error)}); it is lost`);
        }
      } catch (error) {
        logger.error(`shutdown: entries held in memory: ${errorText(error)}`);
      }
    },
  };
}
