/**
 * Delivery of writes to maenifold through the durable outbox: a compaction
 * note or a summary thought is written to disk first, then sent; what cannot
 * be sent now is retried with backoff on plugin start and on later hooks.
 * Delivery is at least once, and idempotency keys keep a chain from gaining
 * a duplicate thought even when the process dies in the middle of a call.
 */
import { createHash } from 'node:crypto';
import { normalizeConcept } from '../workers/stages/concepts.js';
import type { ChainState, ChainStore } from './chain-store.js';
import type { CliError, MemoryStore } from './maenifold-client.js';
import type { Logger } from './logger.js';
import type { Outbox, OutboxEntry } from './outbox.js';

/** Retry delays: 30 s, 2 min, 8 min, 32 min, then hourly. */
export function backoffMs(attempts: number): number {
  return Math.min(30_000 * 4 ** Math.max(0, attempts - 1), 3_600_000);
}

/** A stable key for a write. */
export function idempotencyKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);
}

/** Failures after which the call may still have landed. */
const AMBIGUOUS = new Set(['TIMEOUT', 'CRASHED', 'BAD_OUTPUT', 'OUTPUT_TOO_LARGE']);
/** Failures a retry cannot fix. */
const PERMANENT = new Set(['TOOL_ERROR', 'PAYLOAD_TOO_LARGE']);
const LOST_CHAIN = new Set(['SESSION_MISSING', 'SESSION_NOT_FOUND']);
const RECENT_KEYS = 50;

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
  submitNote(project: string, payload: Record<string, unknown>): Promise<void>;
  submitThought(request: ThoughtRequest): Promise<void>;
  /** Sends every entry that is due. */
  flush(): Promise<void>;
}

/** Where maenifold keeps a SequentialThinking session: under its creation date (UTC), read from the id. */
export function sessionUri(sessionId: string): string | null {
  const match = /^session-(\d{10,16})-\d+$/.exec(sessionId);
  if (!match) return null;
  const date = new Date(Number(match[1]));
  if (Number.isNaN(date.getTime())) return null;
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `memory://thinking/sequential/${date.getUTCFullYear()}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${sessionId}`;
}

function describe(error: CliError): string {
  return `${error.code}${error.toolCode ? ` ${error.toolCode}` : ''}: ${error.message}`;
}

/**
 * @param parts - the CLI client, the outbox, the chain store, the logger and the timeout of one call.
 */
export function createDelivery(parts: { cli: MemoryStore; outbox: Outbox; chains: ChainStore; logger: Logger; timeoutMs: number; now?: () => number }): Delivery {
  const { cli, outbox, chains, logger, timeoutMs } = parts;
  const now = parts.now ?? Date.now;
  let queue: Promise<void> = Promise.resolve();
  // Entries that live only in memory because the disk refused them.
  const volatile = new Map<string, OutboxEntry>();

  function serially(work: () => Promise<void>): Promise<void> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }

  async function save(entry: OutboxEntry): Promise<void> {
    if (volatile.has(entry.key)) return;
    try {
      await outbox.update(entry);
    } catch (error) {
      logger.warn(`outbox: could not update ${entry.kind} ${entry.key} (${(error as NodeJS.ErrnoException).code ?? 'error'}); it stays as last written`);
    }
  }

  async function done(entry: OutboxEntry): Promise<void> {
    volatile.delete(entry.key);
    try {
      await outbox.remove(entry);
    } catch {
      // Left behind, it is recognized as delivered by its key next time.
    }
  }

  async function retryLater(entry: OutboxEntry, error: CliError, keepInFlight: boolean): Promise<void> {
    if (PERMANENT.has(error.code)) {
      logger.error(`outbox: ${entry.kind} ${entry.key} can never be delivered (${describe(error)}); kept in ${outbox.dir}/failed`);
      volatile.delete(entry.key);
      try {
        await outbox.park(entry, describe(error));
      } catch {
        // The pending file stays; it will be tried again and parked then.
      }
      return;
    }
    entry.attempts += 1;
    entry.nextAttemptAt = now() + backoffMs(entry.attempts);
    entry.lastError = describe(error);
    if (!keepInFlight) delete entry.inFlight;
    const level = AMBIGUOUS.has(error.code) ? 'error' : 'warn';
    logger.log(level, `outbox: ${entry.kind} not delivered (${describe(error)}); attempt ${entry.attempts}, next in ${Math.round(backoffMs(entry.attempts) / 1000)} s`);
    await save(entry);
  }

  async function deliverNote(entry: OutboxEntry): Promise<void> {
    // Same title, same file: a second delivery of a note overwrites it with itself.
    const written = await cli.callJson('WriteMemory', entry.payload, { timeoutMs });
    if (!written.ok) return retryLater(entry, written.error, false);
    const uri = (written.value as { uri?: unknown } | null)?.uri;
    logger.info(`compaction note written: ${typeof uri === 'string' ? uri : String(entry.payload['folder'])}${entry.attempts > 0 ? ` (after ${entry.attempts} retries)` : ''}`);
    await done(entry);
  }

  async function holdsKey(sessionId: string, key: string): Promise<boolean> {
    const uri = sessionUri(sessionId);
    if (!uri) return false;
    const read = await cli.callJson('ReadMemory', { identifier: uri }, { timeoutMs });
    return read.ok && JSON.stringify(read.value).includes(key);
  }

  /** Where an interrupted thought landed, if it did: the chain it was sent to, or a chain started for it. */
  async function landedAt(entry: OutboxEntry): Promise<{ sessionId: string; thoughtNumber: number } | null> {
    const target = entry.inFlight;
    if (!target) return null;
    if (target.sessionId) return (await holdsKey(target.sessionId, entry.key)) ? { sessionId: target.sessionId, thoughtNumber: target.thoughtNumber } : null;
    // A new chain gets its id from maenifold: look among the sessions started that day since the call.
    const day = sessionUri(`session-${target.at}-0`);
    if (!day) return null;
    const folder = day.slice(0, day.lastIndexOf('/'));
    const listed = await cli.callText('ListMemories', { path: folder }, { timeoutMs });
    if (!listed.ok) return null;
    const candidates = [...new Set(listed.value.match(/session-\d{10,16}-\d+/g) ?? [])].filter((id) => Number(id.split('-')[1]) >= target.at - 60_000);
    for (const sessionId of candidates) {
      if (await holdsKey(sessionId, entry.key)) return { sessionId, thoughtNumber: 0 };
    }
    return null;
  }

  async function record(entry: OutboxEntry, sessionId: string, thoughtNumber: number, known: ChainState | null): Promise<void> {
    const recentKeys = [...(known?.sessionId === sessionId ? (known.recentKeys ?? []) : []), entry.key].slice(-RECENT_KEYS);
    await chains.set(entry.project, { sessionId, thoughtNumber, updatedAt: new Date(now()).toISOString(), recentKeys });
  }

  async function deliverThought(entry: OutboxEntry): Promise<void> {
    const known = await chains.get(entry.project);
    if (known?.recentKeys?.includes(entry.key)) {
      logger.info(`summary: ${entry.key} was already delivered; dropped the duplicate`);
      return done(entry);
    }
    const landed = await landedAt(entry);
    if (landed) {
      logger.info(`summary: thought ${landed.thoughtNumber} of chain ${landed.sessionId} had landed before the interruption; not sent again`);
      await record(entry, landed.sessionId, landed.thoughtNumber, known?.sessionId === landed.sessionId ? known : null);
      return done(entry);
    }
    const project = normalizeConcept(entry.project) || 'project';
    // Each thought closes the chain with a linked conclusion, so maenifold never marks it
    // abandoned; the next summary appends to the same session (maenifold allows that).
    const base = {
      response: entry.payload['response'],
      thoughts: `Delivery ${entry.key} of a [[compaction]] summary.`,
      nextThoughtNeeded: false,
      conclusion: `Latest [[compaction]] summary of [[${project}]] recorded.`,
      analysisType: 'retrospective',
    };
    const send = async (chain: ChainState | null) => {
      entry.inFlight = { sessionId: chain?.sessionId ?? null, thoughtNumber: chain ? chain.thoughtNumber + 1 : 0, at: now() };
      await save(entry);
      const target = entry.inFlight;
      return cli.callJson(
        'SequentialThinking',
        target.sessionId
          ? { ...base, sessionId: target.sessionId, thoughtNumber: target.thoughtNumber, totalThoughts: target.thoughtNumber + 1 }
          : { ...base, thoughtNumber: 0, totalThoughts: 1 },
        { timeoutMs },
      );
    };
    let result = await send(known);
    if (!result.ok && known && result.error.toolCode && LOST_CHAIN.has(result.error.toolCode)) {
      logger.warn(`summary: chain ${known.sessionId} of ${entry.project} is gone (${result.error.toolCode}); starting a new one`);
      await chains.clear(entry.project);
      result = await send(null);
    }
    if (!result.ok) return retryLater(entry, result.error, AMBIGUOUS.has(result.error.code));
    const data = result.value as { sessionId?: unknown; thoughtNumber?: unknown };
    if (typeof data?.sessionId !== 'string' || typeof data.thoughtNumber !== 'number') {
      logger.warn('summary: SequentialThinking answered without a session id; chain not recorded');
      return done(entry);
    }
    await record(entry, data.sessionId, data.thoughtNumber, data.sessionId === known?.sessionId ? known : null);
    logger.info(`summary: thought ${data.thoughtNumber} of chain ${data.sessionId} (${String(entry.payload['response']).length} chars)`);
    await done(entry);
  }

  async function deliver(entry: OutboxEntry): Promise<void> {
    if (!cli.available) return; // Kept for when the CLI is installed.
    try {
      if (entry.kind === 'note') await deliverNote(entry);
      else await deliverThought(entry);
    } catch (error) {
      logger.error(`outbox: delivering ${entry.kind} ${entry.key} failed: ${(error as Error)?.message ?? String(error)}; it stays queued`);
    }
  }

  async function flushDue(): Promise<void> {
    const due = [...(await outbox.list()), ...volatile.values()].filter((entry) => entry.nextAttemptAt <= now());
    for (const entry of due) await deliver(entry);
  }

  async function submit(fields: Omit<OutboxEntry, 'createdAt' | 'attempts' | 'nextAttemptAt'>): Promise<void> {
    return serially(async () => {
      const pending = await outbox.list();
      if (pending.some((entry) => entry.key === fields.key) || volatile.has(fields.key)) return;
      try {
        await outbox.add(fields);
      } catch (error) {
        const at = now();
        volatile.set(fields.key, { ...fields, createdAt: at, attempts: 0, nextAttemptAt: at });
        logger.warn(`outbox: the disk refused the ${fields.kind} (${(error as NodeJS.ErrnoException).code ?? 'error'}); delivering without a durable copy`);
      }
      // The new entry, and whatever earlier one is due again.
      await flushDue();
    });
  }

  return {
    submitNote: (project, payload) =>
      submit({ key: idempotencyKey('note', String(payload['title']), String(payload['content'])), kind: 'note', payload, project }),
    submitThought: (request) =>
      submit({ key: idempotencyKey('thought', request.project, request.source), kind: 'thought', payload: { response: request.response }, project: request.project }),
    flush: () => serially(flushDue),
  };
}
