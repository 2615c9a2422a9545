/**
 * A durable local outbox for writes to maenifold: each pending write is one
 * JSON file, written atomically (temporary file, fsync, rename, fsync of the
 * folder), so a crash, a kill or a full disk at any point leaves either the
 * old state or the new one, never half a file.
 *
 * Several processes may share the folder. An entry is claimed before it is
 * delivered by renaming it to `<name>.claim-<pid>-<start>-<time>-<scope>-<nonce>`:
 * the rename succeeds in one process only, so two processes never deliver
 * the same entry at once. A claim whose process died (its pid gone, or now
 * another process's: the start time differs) goes back to pending, where
 * this process can judge its pid (the same boot and PID namespace: see
 * claimer.ts); so does one older than `claimTtlMs` by the time in its name,
 * or seen by this process for that long (a time ahead of this clock), never
 * by the file's mtime, which the rename keeps from when the entry was written.
 * A claim whose name was marked with a call that may be in flight ({@link Outbox.mark}: a call on a chain
 * kept only in the claimer's memory) goes back with that call as the entry's `unrecorded` mark, so the next
 * sender asks maenifold whether it landed; while the disk refuses that write, it stays claimed.
 *
 * A claimed entry whose read fails (a deadline, EIO, EMFILE) is put back as
 * pending with a log line, never removed: only a delivery removes an entry.
 * Every string written besides the payload (redacted when it was built) passes the
 * redaction and sanitizer of log lines: the CLI's error output kept as `lastError` may hold a credential.
 */
import { randomBytes } from 'node:crypto';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirectory, writeFileAtomically } from '../../../io/atomic-file.js';
import { keepAside, readStateText } from '../../shared/state-file.js';
import type { Logger } from '../../shared/logger.js';
import { CLAIMED, fileName, HEX_KEY, isEntry, keyOf, markedClaimName, markOf, PENDING, type InFlightMark, type OutboxEntry } from './outbox-entry.js';
import { forDisk } from './disk-text.js';
import { claimerGone, NO_SCOPE, thisClaimer } from './claimer.js';

export type { InFlightMark, OutboxEntry, OutboxKind } from './outbox-entry.js';

/** An entry this process holds: no other process delivers it until it is released. */
export interface Claim {
  entry: OutboxEntry;
  /** The claim's file; {@link Outbox.mark} renames it. */
  path: string;
}

/** The outbox's files. */
export interface Outbox {
  readonly dir: string;
  /** Writes a new entry durably, unless one with its key is pending or claimed; rejects when the disk refuses. */
  add(entry: Omit<OutboxEntry, 'createdAt' | 'attempts' | 'nextAttemptAt'>): Promise<OutboxEntry | null>;
  /** Every pending entry, oldest first; damaged files are kept aside, stale claims recovered first. */
  list(): Promise<OutboxEntry[]>;
  /** Takes an entry for delivery; `null` when another process took it (or it was delivered) first. */
  claim(entry: OutboxEntry): Promise<Claim | null>;
  /**
   * Records in the claim's name that a call of the entry may be in flight, for a call whose record in
   * flight is kept only in this process's memory: a rename, which a full disk still takes. Rejects when
   * the rename fails; the call must not go out then.
   */
  mark(claim: Claim, mark: InFlightMark): Promise<void>;
  /** Gives a claimed entry back as pending, with its new state. */
  release(claim: Claim): Promise<void>;
  /** Removes a delivered entry. */
  finish(claim: Claim): Promise<void>;
  /** Moves an entry that can never be delivered to `failed/`, for the user to inspect. */
  park(claim: Claim, reason: string): Promise<void>;
}

/** Settings of {@link createOutbox}. */
export interface OutboxSettings {
  /** The clock. @default Date.now */
  now?: () => number;
  logger?: Logger;
  /** Deadline of one read. @default 5000 */
  readDeadlineMs?: number;
  /** A claim older than this goes back to pending even when its process seems alive. @default 600000 */
  claimTtlMs?: number;
}

/** A claim time ahead of this clock counts as at most this far ahead (the longest backoff of a delivery). */
const MAX_AHEAD_MS = 3_600_000;

/** Claims this process holds, across every outbox instance of the process. */
const held = new Set<string>();

/** When this process first saw each claim, by its path: the age of a claim whose time lies ahead of this clock. */
const sightings = new Map<string, number>();

/**
 * @param dir - the outbox folder (under the plugin's state dir).
 * @param settings - the clock (or the clock alone, for tests), the logger and deadlines.
 */
export function createOutbox(dir: string, settings: OutboxSettings | (() => number) = {}): Outbox {
  const options = typeof settings === 'function' ? { now: settings } : settings;
  const now = options.now ?? Date.now;
  const readDeadlineMs = options.readDeadlineMs ?? 5_000;
  const claimTtlMs = options.claimTtlMs ?? 600_000;
  const failedDir = join(dir, 'failed');
  let created: Promise<void> | null = null;
  // A refused mkdir is tried again next time: a full or read-only disk recovers.
  const ready = (): Promise<void> =>
    (created ??= makeDirectory(failedDir, 0o700).then(
      () => undefined,
      (error: unknown) => {
        created = null;
        throw error;
      },
    ));
  // The payload was redacted when it was built (the compaction note, the summary), and a second pass would
  // rewrite the note's own rendering of what was redacted (`api_key=REDACTED:…` becomes a secret again);
  // everything else, the CLI's error output above all, passes the redaction here.
  const write = (path: string, entry: OutboxEntry): Promise<void> =>
    writeFileAtomically(path, `${JSON.stringify({ ...forDisk({ ...entry, payload: {} }), payload: entry.payload })}\n`, 0o600);

  async function names(): Promise<string[]> {
    try {
      return await readdir(dir);
    } catch {
      return [];
    }
  }

  async function read(path: string): Promise<OutboxEntry | null> {
    const text = await readStateText(path, readDeadlineMs, { what: 'outbox entry', logger: options.logger, now });
    if (text === null) return null;
    try {
      const parsed: unknown = JSON.parse(text);
      if (isEntry(parsed)) return parsed;
    } catch {
      // Damaged: kept aside below.
    }
    await keepAside(path, 'outbox entry', options.logger, now);
    return null;
  }

  async function recoverStaleClaims(all: string[]): Promise<void> {
    const pending = new Set(all.filter((name) => PENDING.test(name)));
    const own = await thisClaimer();
    const present = new Set(all.map((name) => join(dir, name)));
    for (const path of sightings.keys()) if (path.startsWith(`${dir}/`) && !present.has(path)) sightings.delete(path);
    for (const name of all) {
      const match = CLAIMED.exec(name);
      const path = join(dir, name);
      if (!match || held.has(path)) continue;
      const [, original = '', pidText = '0', start, claimedAt, scope] = match;
      const pid = Number(pidText);
      // This pid in this scope, and not held here: a process that had this pid before.
      const gone = (pid === process.pid && scope === own.scope && own.scope !== NO_SCOPE) || (await claimerGone({ pid, start, scope }, own.scope));
      if (!gone) {
        // Real time, as in the name; a time ahead of this clock counts as at most the longest backoff ahead,
        // and a claim this process has seen for `claimTtlMs` is that old whatever its time says.
        // A claim of an earlier version carries no time: the file's mtime (its last write) is all there is.
        const at = claimedAt !== undefined ? Number(claimedAt) : await stat(path).then((info) => info.mtimeMs, () => null);
        const firstSeen = sightings.get(path) ?? performance.now();
        sightings.set(path, firstSeen);
        const old = performance.now() - firstSeen > claimTtlMs || (at !== null && Date.now() - Math.min(at, Date.now() + MAX_AHEAD_MS) > claimTtlMs);
        if (!old) continue;
      }
      const mark = markOf(name);
      try {
        // A claim marked with a call that may be in flight goes back with the mark in the entry, or not at
        // all (the disk refuses the write: tried again at the next list), so the call is asked about first.
        if (mark) await giveBackMarked(path, join(dir, original), mark);
        // A newer pending copy wins; otherwise the claim goes back as it was.
        else if (pending.has(original)) await rm(path, { force: true });
        else await rename(path, join(dir, original));
        sightings.delete(path);
        options.logger?.info(`outbox: entry ${keyOf(original)} claimed by process ${pid}, ${gone ? 'which is gone' : `more than ${Math.round(claimTtlMs / 1000)} s ago`}, is pending again`);
      } catch {
        // Another process recovered it first.
      }
    }
  }

  async function giveBackMarked(path: string, pendingPath: string, mark: InFlightMark): Promise<void> {
    const entry = await read(path);
    if (!entry) return; // Damaged (kept aside) or gone.
    // The later of two marks is the call that may still land; an earlier one was refused or had returned before it was sent.
    if (!entry.unrecorded || !(entry.unrecorded.at > mark.at)) entry.unrecorded = mark;
    await write(pendingPath, entry);
    await rm(path, { force: true });
  }

  return {
    dir,
    async add(fields) {
      // The key names the file: only hex may reach the path.
      if (!HEX_KEY.test(fields.key)) throw new TypeError(`outbox key must be 16-64 hex digits, got ${JSON.stringify(fields.key)}`);
      await ready();
      if ((await names()).some((name) => (PENDING.test(name) || CLAIMED.test(name)) && keyOf(name) === fields.key)) return null;
      const at = now();
      const entry: OutboxEntry = { ...fields, createdAt: at, attempts: 0, nextAttemptAt: at };
      await write(join(dir, fileName(entry)), entry);
      return entry;
    },
    async list() {
      const all = await names();
      await recoverStaleClaims(all);
      const entries: OutboxEntry[] = [];
      for (const name of (await names()).filter((candidate) => PENDING.test(candidate)).sort()) {
        try {
          const entry = await read(join(dir, name));
          if (entry) entries.push(entry);
        } catch {
          // Unreadable now (a hung or refusing disk): tried again at the next flush.
        }
      }
      return entries;
    },
    async claim(entry) {
      const source = join(dir, fileName(entry));
      const own = await thisClaimer();
      const path = `${source}.claim-${own.pid}-${own.start}-${Date.now()}-${own.scope}-${randomBytes(6).toString('hex')}`;
      try {
        await rename(source, path);
      } catch {
        return null; // Taken by another process, or already delivered.
      }
      held.add(path);
      let current: OutboxEntry | null;
      try {
        // The file as claimed: another process may have updated it since it was listed.
        current = await read(path);
      } catch (error) {
        // Unreadable now is not gone: the entry goes back as pending (or, if even that fails, stays claimed by this process and is recovered at the next list).
        const code = (error as { code?: unknown })?.code;
        const back = await rename(path, source).then(
          () => 'it is pending again',
          () => 'it stays claimed until recovered',
        );
        held.delete(path);
        options.logger?.warn(`outbox: could not read claimed ${entry.kind} ${entry.key} (${typeof code === 'string' ? code : 'error'}); ${back}`);
        return null;
      }
      if (!current) {
        // Damaged (kept aside by read) or gone: nothing to deliver.
        held.delete(path);
        return null;
      }
      return { entry: current, path };
    },
    async mark(claim, mark) {
      const path = markedClaimName(claim.path, mark);
      if (!path) throw Object.assign(new Error(`outbox: the claim of ${claim.entry.key} cannot name the call ${JSON.stringify(mark)}`), { code: 'EINVAL' });
      held.add(path);
      try {
        await rename(claim.path, path);
      } catch (error) {
        held.delete(path);
        throw error;
      }
      held.delete(claim.path);
      claim.path = path;
    },
    async release(claim) {
      try {
        await ready();
        await write(join(dir, fileName(claim.entry)), claim.entry);
        await rm(claim.path, { force: true });
      } catch (error) {
        // The claim file is as it was claimed: it is recovered with its earlier state.
        options.logger?.warn(`outbox: could not update ${claim.entry.kind} ${claim.entry.key} (${(error as NodeJS.ErrnoException)?.code ?? 'error'}); it stays as last written`);
      } finally {
        held.delete(claim.path);
      }
    },
    async finish(claim) {
      held.delete(claim.path);
      // Left behind, it is recognized as delivered by its key next time.
      await rm(claim.path, { force: true }).catch(() => undefined);
    },
    async park(claim, reason) {
      try {
        await ready();
        await write(join(failedDir, fileName(claim.entry)), { ...claim.entry, lastError: reason });
        await rm(claim.path, { force: true });
      } finally {
        held.delete(claim.path);
      }
    },
  };
}
