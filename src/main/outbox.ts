/**
 * A durable local outbox for writes to maenifold: each pending write is one
 * JSON file, written atomically (temporary file, fsync, rename, fsync of the
 * folder), so a crash, a kill or a full disk at any point leaves either the
 * old state or the new one, never half a file.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomically } from './atomic-file.js';

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
  /** Set just before a thought is sent: where it was going, so a crash mid-call can be checked. */
  inFlight?: { sessionId: string | null; thoughtNumber: number; at: number };
}

/** The outbox's files. */
export interface Outbox {
  readonly dir: string;
  /** Writes a new entry durably; rejects when the disk refuses. */
  add(entry: Omit<OutboxEntry, 'createdAt' | 'attempts' | 'nextAttemptAt'>): Promise<OutboxEntry>;
  /** Replaces an entry durably. */
  update(entry: OutboxEntry): Promise<void>;
  remove(entry: OutboxEntry): Promise<void>;
  /** Moves an entry that can never be delivered to `failed/`, for the user to inspect. */
  park(entry: OutboxEntry, reason: string): Promise<void>;
  /** Every pending entry, oldest first; unreadable files are skipped. */
  list(): Promise<OutboxEntry[]>;
}

function fileName(entry: Pick<OutboxEntry, 'createdAt' | 'key'>): string {
  // The key is hex: it cannot steer the path.
  return `${String(entry.createdAt).padStart(15, '0')}-${entry.key}.json`;
}


function isEntry(value: unknown): value is OutboxEntry {
  const entry = value as OutboxEntry;
  return (
    typeof entry?.key === 'string' &&
    /^[0-9a-f]{16,64}$/.test(entry.key) &&
    (entry.kind === 'note' || entry.kind === 'thought') &&
    typeof entry.payload === 'object' &&
    entry.payload !== null &&
    typeof entry.project === 'string' &&
    Number.isFinite(entry.createdAt) &&
    Number.isFinite(entry.attempts) &&
    Number.isFinite(entry.nextAttemptAt)
  );
}

/**
 * @param dir - the outbox folder (under the plugin's state dir).
 * @param now - the clock, for tests.
 */
export function createOutbox(dir: string, now: () => number = Date.now): Outbox {
  const failedDir = join(dir, 'failed');
  let created: Promise<void> | null = null;
  const ready = (): Promise<void> => (created ??= mkdir(failedDir, { recursive: true, mode: 0o700 }).then(() => undefined));
  return {
    dir,
    async add(fields) {
      // The key names the file: only hex may reach the path.
      if (!/^[0-9a-f]{16,64}$/.test(fields.key)) throw new TypeError(`outbox key must be 16-64 hex digits, got ${JSON.stringify(fields.key)}`);
      await ready();
      const at = now();
      const entry: OutboxEntry = { ...fields, createdAt: at, attempts: 0, nextAttemptAt: at };
      await writeFileAtomically(join(dir, fileName(entry)), `${JSON.stringify(entry)}\n`, 0o600);
      return entry;
    },
    async update(entry) {
      await ready();
      await writeFileAtomically(join(dir, fileName(entry)), `${JSON.stringify(entry)}\n`, 0o600);
    },
    async remove(entry) {
      await rm(join(dir, fileName(entry)), { force: true });
    },
    async park(entry, reason) {
      await ready();
      await writeFileAtomically(join(failedDir, fileName(entry)), `${JSON.stringify({ ...entry, lastError: reason })}\n`, 0o600);
      await rm(join(dir, fileName(entry)), { force: true });
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return [];
      }
      const entries: OutboxEntry[] = [];
      for (const name of names.filter((candidate) => /^\d{15}-[0-9a-f]+\.json$/.test(candidate)).sort()) {
        try {
          const parsed: unknown = JSON.parse(await readFile(join(dir, name), 'utf8'));
          if (isEntry(parsed)) entries.push(parsed);
        } catch {
          // A file another process is replacing, or damaged: skipped, never deleted.
        }
      }
      return entries;
    },
  };
}
