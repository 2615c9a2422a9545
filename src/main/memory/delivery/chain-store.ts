/**
 * The per-project summary chain: which SequentialThinking session
 * holds a project's summaries and the number of its last thought, kept on
 * disk so a restart continues the chain.
 *
 * Two OpenCode processes of one project share the file: every change is a
 * read-modify-write under a lock shared across processes, written atomically.
 * A missing file means "no chain yet"; a damaged one, or a folder in its
 * place, is kept aside (`summary-chains.json.corrupt-<time>`, one log line)
 * and the chain starts again. Every step has a deadline.
 *
 * A chain is a series of linked sessions: once a session's note would grow
 * past a bound, the next thought starts a new session that links to it
 * (thought-delivery.ts), so no read of the chain is ever larger than that.
 */
import { join } from 'node:path';
import * as v from 'valibot';
import { writeFileAtomically } from '../../../io/atomic-file.js';
import { assertHeld, withFileLock, type LockTiming } from '../../shared/file-lock.js';
import { forDisk } from './disk-text.js';
import { keepAside, readStateText } from '../../shared/state-file.js';
import type { Logger } from '../../shared/logger.js';

/** A thought sent and not yet recorded: if its sender died, it may still land. */
export interface ChainInFlight {
  /** The delivery's idempotency key. */
  key: string;
  /** The chain it was sent to; `null` when it started a new chain. */
  sessionId: string | null;
  thoughtNumber: number;
  /** When it was sent (the delivery's clock). */
  at: number;
  /** Whether the call ended in the sending process (answered, or killed by its deadline): it cannot land any more. */
  ended?: boolean;
  /** How much the thought adds to its session's note, in bytes (an estimate from above). */
  bytes?: number;
  /** The session a thought that starts a new one continues. */
  continues?: string;
}

/** One project's chain. */
export interface ChainState {
  sessionId: string;
  thoughtNumber: number;
  updatedAt: string;
  /** Idempotency keys of the latest thoughts delivered, newest last. */
  recentKeys?: string[];
  /** The thought being sent now, or left by a sender that died mid-call. */
  inFlight?: ChainInFlight;
  /** How large the session's note is, in bytes, estimated from above; absent on chains of earlier versions. */
  bytes?: number;
  /** The session this one continues: the chain's previous session. */
  previousSessionId?: string;
  /** The chain's earlier sessions, oldest first, the latest 50: what of the store belongs to the project. */
  earlierSessionIds?: string[];
  /**
   * Thoughts sent earlier whose landing could not be learned, set aside so they do not hold the chain:
   * each is asked about again when its own entry comes round, and sent only once it is known absent.
   */
  unsettled?: ChainInFlight[];
}

/** What a project's entry may be: a chain, or, before the first thought answered, a thought in flight or the unsettled ones. */
export type ChainRecord = ChainState | { sessionId?: undefined; inFlight?: ChainInFlight; recentKeys?: string[]; unsettled?: ChainInFlight[] };

/** Reads and writes chain states. */
export interface ChainStore {
  get(project: string): Promise<ChainState | null>;
  set(project: string, state: ChainState): Promise<void>;
  clear(project: string): Promise<void>;
  /**
   * Reads the project's record, applies `change` and writes what it returns (`null` removes it), under the lock.
   * `guard` runs right before the write (the caller's own lock still held); throwing stops it.
   */
  update<T>(project: string, change: (record: ChainRecord | null) => { record: ChainRecord | null; result: T }, guard?: () => Promise<void>): Promise<T>;
  /** The record as it is on disk, a thought in flight included. */
  record(project: string): Promise<ChainRecord | null>;
  /** Every project's record, by key: which thinking sessions are which project's. */
  records(): Promise<Record<string, ChainRecord>>;
  readonly file: string;
}

/** Settings of {@link createChainStore}. */
export interface ChainStoreSettings {
  logger?: Logger;
  /** Lock and step deadlines. */
  timing?: LockTiming;
  now?: () => number;
}

/** A thought recorded as being sent. */
const IN_FLIGHT = v.looseObject({
  key: v.string(),
  sessionId: v.nullable(v.string()),
  thoughtNumber: v.pipe(v.number(), v.integer()),
  at: v.pipe(v.number(), v.finite()),
});
const RECENT_KEYS = v.optional(v.array(v.string()));
const UNSETTLED = v.optional(v.array(IN_FLIGHT));

/** A project's record: a chain (a thought may be in flight), or, before the first thought answered, a thought in flight or unsettled ones. */
const RECORD = v.union([
  v.looseObject({
    sessionId: v.string(),
    thoughtNumber: v.pipe(v.number(), v.integer(), v.minValue(0)),
    inFlight: v.optional(IN_FLIGHT),
    recentKeys: RECENT_KEYS,
    bytes: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0))),
    previousSessionId: v.optional(v.string()),
    earlierSessionIds: v.optional(v.array(v.string())),
    unsettled: UNSETTLED,
  }),
  v.pipe(
    v.looseObject({ sessionId: v.optional(v.undefined()), inFlight: v.optional(IN_FLIGHT), recentKeys: RECENT_KEYS, unsettled: UNSETTLED }),
    v.check((record) => record.inFlight !== undefined || (record.unsettled?.length ?? 0) > 0),
  ),
]);

function isRecord(value: unknown): value is ChainRecord {
  return v.is(RECORD, value);
}

const asState = (record: ChainRecord | null | undefined): ChainState | null => (record && typeof record.sessionId === 'string' ? (record as ChainState) : null);

/**
 * @param stateDir - the plugin's state folder.
 * @param settings - see {@link ChainStoreSettings}.
 */
export function createChainStore(stateDir: string, settings: ChainStoreSettings = {}): ChainStore {
  const file = join(stateDir, 'summary-chains.json');
  const lock = join(stateDir, 'locks', 'summary-chains.lock');
  const timing = { waitMs: 10_000, holdMs: 5_000, staleMs: 10_000, ...settings.timing };
  const { logger } = settings;
  const warned = new Set<string>();
  const warnOnce = (line: string): void => {
    if (warned.has(line)) return;
    warned.add(line);
    logger?.warn(line);
  };

  async function load(): Promise<Record<string, ChainRecord>> {
    // No prototype: a project named "__proto__" or "constructor" is just a name.
    const chains = Object.create(null) as Record<string, ChainRecord>;
    const text = await readStateText(file, timing.holdMs, { what: 'summary chain state', logger, now: settings.now });
    if (text === null) return chains;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      if (!(await keepAside(file, 'summary chain state', logger, settings.now))) throw new Error(`damaged ${file} could not be kept aside`);
      return chains;
    }
    for (const [project, state] of Object.entries(parsed)) {
      if (isRecord(state)) chains[project] = state;
      else warnOnce(`state: chain record of ${JSON.stringify(project.slice(0, 80))} in ${file} is malformed; ignored (dropped at the next write)`);
    }
    return chains;
  }

  const locked = <T>(step: (signal: AbortSignal) => Promise<T>): Promise<T> => withFileLock(lock, step, timing);

  const store: ChainStore = {
    file,
    record: (project) => locked(async () => (await load())[project] ?? null),
    records: () => locked(load),
    get: async (project) => asState(await store.record(project)),
    update: (project, change, guard) =>
      locked(async (signal) => {
        const chains = await load();
        const { record, result } = change(chains[project] ?? null);
        if (record) chains[project] = record;
        else delete chains[project];
        await writeFileAtomically(file, `${JSON.stringify(forDisk(chains), null, 2)}\n`, 0o600, async () => {
          await assertHeld(signal);
          await guard?.();
        });
        return result;
      }),
    set: (project, state) => store.update(project, () => ({ record: state, result: undefined })),
    clear: (project) => store.update(project, () => ({ record: null, result: undefined })),
  };
  return store;
}
