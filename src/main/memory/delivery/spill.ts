/**
 * The last resort of a clean exit while the state folder refuses: what the
 * outbox could not take (held only in memory) is written to a folder
 * elsewhere, on another file system where there is one (the system's
 * temporary folder), and taken into the outbox by the next process that can
 * write it. An entry is spilled only at shutdown, once the outbox refused it
 * one last time, so it is never in the spill and in a live process's memory
 * at once.
 *
 * What it costs: a process that dies without shutting down (a kill, a
 * crash, a power cut) while the disk refuses loses what it held in memory
 * and had not delivered; and a temporary folder emptied at boot loses what
 * was spilled before the next start.
 *
 * An entry is taken by renaming it to a name that says who took it (pid,
 * start time, PID namespace, as an outbox claim does); one left so by an
 * adopter killed before it moved the entry is given back once that process
 * is gone.
 */
import { createHash } from 'node:crypto';
import { readdir, rename, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomically } from '../../../io/atomic-file.js';
import { forDisk } from './disk-text.js';
import { claimerGone, thisClaimer } from './claimer.js';
import { fileName, isEntry, PENDING, type OutboxEntry } from './outbox-entry.js';
import type { Outbox } from './outbox.js';
import { readStateText } from '../../shared/state-file.js';

/** An entry being taken into the outbox: its spilled name, then its adopter's pid, start time and scope. */
const ADOPTING = /^(\d{15}-[0-9a-f]{16,64}\.json)\.adopting-(\d+)-(\d+)-([0-9a-f]{12}|0)-\d+$/;

/** The spill folder. */
export interface Spill {
  readonly dir: string;
  /** Writes an entry; rejects when this disk refuses too. */
  write(entry: OutboxEntry): Promise<void>;
  /** Moves every spilled entry into the outbox (one the outbox already holds is only removed); the number moved. */
  adopt(outbox: Outbox, readDeadlineMs: number): Promise<number>;
}

/**
 * Where an outbox spills by default: under the system's temporary folder, one folder per user and outbox.
 *
 * @param outboxDir - the outbox's folder.
 */
export function defaultSpillDir(outboxDir: string): string {
  let user: string;
  try {
    user = String(process.getuid?.() ?? userInfo().username);
  } catch {
    user = 'user';
  }
  return join(tmpdir(), `opencode-maenifold-${user}`, `spill-${createHash('sha256').update(outboxDir).digest('hex').slice(0, 16)}`);
}

/**
 * @param dir - the spill folder (see {@link defaultSpillDir}).
 */
export function createSpill(dir: string): Spill {
  return {
    dir,
    write: (entry) => writeFileAtomically(join(dir, fileName(entry)), `${JSON.stringify({ ...forDisk({ ...entry, payload: {} }), payload: entry.payload })}\n`, 0o600),
    async adopt(outbox, readDeadlineMs) {
      let all: string[];
      try {
        all = await readdir(dir);
      } catch {
        return 0; // Nothing was ever spilled.
      }
      const own = await thisClaimer();
      for (const name of all) {
        const match = ADOPTING.exec(name);
        if (!match) continue;
        const [, original = '', pid = '0', start, scope] = match;
        // Its adopter died between taking it and moving it: without this, no later start would see it.
        if (await claimerGone({ pid: Number(pid), start, scope }, own.scope)) await rename(join(dir, name), join(dir, original)).catch(() => undefined);
      }
      const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => PENDING.test(name));
      let moved = 0;
      for (const name of names) {
        // Taken by renaming first: two processes never both move one entry.
        const taken = join(dir, `${name}.adopting-${own.pid}-${own.start}-${own.scope}-${Date.now()}`);
        try {
          await rename(join(dir, name), taken);
        } catch {
          continue;
        }
        try {
          const parsed: unknown = JSON.parse((await readStateText(taken, readDeadlineMs)) ?? 'null');
          if (!isEntry(parsed)) {
            await rename(taken, `${join(dir, name)}.unreadable`).catch(() => undefined);
            continue;
          }
          await outbox.add({ key: parsed.key, kind: parsed.kind, payload: parsed.payload, project: parsed.project });
          await rm(taken, { force: true });
          moved += 1;
        } catch {
          // The outbox refuses still: the entry waits here for the next try.
          await rename(taken, join(dir, name)).catch(() => undefined);
        }
      }
      return moved;
    },
  };
}
