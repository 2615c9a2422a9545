/**
 * Keeps a project's digest (core/memory/digest.ts) up to date in the store:
 * under a lock per project in the state folder, it reads the digest, lists
 * the project's folder, reads the notes the digest has no mark of (oldest
 * first, a bounded number per pass; a note that arrived after newer ones
 * were folded among them), folds them in and writes
 * the digest back with WriteMemory (same title, same note). The fold is
 * driven by what the store lists, not by what this process wrote: a note
 * still in the outbox, or written by another process, is folded on a later
 * pass, so a killed process loses nothing. Two processes sharing the state
 * folder take turns on the lock, so neither writes over an item the other
 * folded.
 *
 * Every store call has its deadline and the whole step the lock's; nothing
 * throws. A digest that cannot be read is never written over, and a write
 * the store refuses leaves the digest as it was.
 *
 * The fold (parse the digest, read each note, merge, rank, format) runs in
 * the pool when the plugin gives one: a few milliseconds once warm, but ten
 * and more on its first run, and the pass runs on the host's thread between
 * its hooks. A command without a pool folds on its own thread.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { digestFoldedMarks, isFolded, noteMark, type DigestItem, type FoldedMarks } from '../../../core/memory/digest.js';
import { runDigestPass, type DigestPassInput, type DigestPassOutput } from '../../../core/memory/digest-pass.js';
import type { TaskResult } from '../../../core/task-error.js';
import type { TaskRunner } from '../../pool/task-runner.js';
import type { ProjectNoteText } from '../../../core/memory/project-memory.js';
import { assertHeld, withFileLock, type LockTiming } from '../../shared/file-lock.js';
import { errorText, type Logger } from '../../shared/logger.js';
import type { Project } from '../../shared/project.js';
import type { MemoryPort } from '../memory-port.js';
import { digestNote } from './digest-note.js';

/** Notes folded in one pass at most; more wait for the next pass. */
export const MAX_NOTES_PER_PASS = 20;

/** What an update did. */
export type DigestUpdate =
  | { kind: 'updated'; folded: number; items: number; dropped: DigestItem[]; more: boolean }
  | { kind: 'unchanged' }
  | { kind: 'failed'; reason: string };

/** What a forget did. */
export type DigestForget = { kind: 'forgotten'; items: DigestItem[] } | { kind: 'unknown'; reason: string } | { kind: 'failed'; reason: string };

/** A project's digest, kept up to date. */
export interface DigestUpdater {
  /** Folds the notes the digest has not folded yet. */
  update(): Promise<DigestUpdate>;
  /** Folds as {@link update} does, then records the item (an id, or its text) as forgotten. */
  forget(idOrText: string): Promise<DigestForget>;
  /**
   * At shutdown: stops the store call in flight and every later one, so a pass ends at once (the digest
   * stays as it was; the next start folds what this one did not) and no process starts after it.
   */
  close(): void;
}

/** What {@link createDigestUpdater} is built from. */
export interface DigestUpdaterParts {
  memory: MemoryPort;
  project: Project;
  /** The state folder: its `locks/` holds the digest's lock. */
  stateDir: string;
  logger: Logger;
  /** One store call. */
  timeoutMs: number;
  lockTiming?: LockTiming;
  now?: () => number;
  /** Where the fold runs (task `digestPass`); without one, on the calling thread. */
  runner?: TaskRunner;
}

/** The digest as the store holds it, the notes it has not folded, and whether more wait. */
type Reading = { ok: true; digest: string; notes: ProjectNoteText[]; more: boolean } | { ok: false; reason: string };

/**
 * The notes of a project a digest has not folded, newest first: what the listing holds of the project's
 * notes the digest has no mark of, older ones that arrived late among them.
 *
 * @param listed - the URIs of the project's folder.
 * @param project - the project.
 * @param folded - the digest's record of folded notes, `null` for none.
 */
export function unfoldedNotes(listed: readonly string[], project: Project, folded: FoldedMarks | null): string[] {
  // Each slug holds its compaction's time after the project's key: the greatest are the newest.
  return listed
    .filter((uri) => uri.slice(uri.lastIndexOf('/') + 1).startsWith(project.noteSlugPrefix) && (folded === null || !isFolded(folded, noteMark(uri, project.key))))
    .sort()
    .reverse();
}

/**
 * @param parts - see {@link DigestUpdaterParts}.
 */
export function createDigestUpdater(parts: DigestUpdaterParts): DigestUpdater {
  const { memory, project, logger, timeoutMs } = parts;
  const now = parts.now ?? Date.now;
  const note = digestNote(project);
  const name = createHash('sha256').update(project.key).digest('hex').slice(0, 24);
  const lock = join(parts.stateDir, 'locks', `digest-${name}.lock`);
  const stopped = new AbortController();
  const call = { timeoutMs, signal: stopped.signal };
  const closed = (): boolean => stopped.signal.aborted;

  async function reading(): Promise<Reading> {
    if (closed()) return { ok: false, reason: 'shutting down' };
    const listed = await memory.listNotes(project.noteFolder, call);
    if (!listed.ok) {
      // No folder yet: the project never compacted.
      if (listed.error.code === 'TOOL_ERROR' || /not found/i.test(listed.error.message)) return { ok: true, digest: '', notes: [], more: false };
      return { ok: false, reason: `ListMemories ${listed.error.code}` };
    }
    let digest = '';
    if (listed.value.includes(note.uri)) {
      if (closed()) return { ok: false, reason: 'shutting down' };
      const read = await memory.readNote(note.uri, call);
      // A digest that cannot be read now is not written over: its items would be lost.
      if (!read.ok) return { ok: false, reason: `ReadMemory of the digest ${read.error.code}` };
      digest = read.value.content;
    }
    const pending = unfoldedNotes(listed.value, project, digest ? digestFoldedMarks(digest, project.key) : null).reverse();
    const notes: ProjectNoteText[] = [];
    for (const uri of pending.slice(0, MAX_NOTES_PER_PASS)) {
      if (closed()) return { ok: false, reason: 'shutting down' };
      const read = await memory.readNote(uri, call);
      // Oldest first, and none skipped: a note that cannot be read now ends the pass before it.
      if (!read.ok) break;
      notes.push({ uri, content: read.value.content });
    }
    return { ok: true, digest, notes, more: notes.length < pending.length };
  }

  async function write(content: string, signal: AbortSignal): Promise<string | null> {
    await assertHeld(signal);
    if (closed()) return 'shutting down';
    const written = await memory.writeNote({ title: note.title, content, folder: note.folder, tags: ['memory-digest', project.concept, project.key] }, call);
    return written.ok ? null : `WriteMemory ${written.error.code}${written.error.toolCode ? ` ${written.error.toolCode}` : ''}`;
  }

  function describe(items: readonly DigestItem[]): string {
    return items
      .slice(0, 3)
      .map((item) => `${item.id} "${item.text.slice(0, 60)}"`)
      .join(', ');
  }

  function fold(input: DigestPassInput): Promise<TaskResult<DigestPassOutput>> {
    if (parts.runner) return parts.runner.run('digestPass', input, { signal: stopped.signal });
    try {
      return Promise.resolve({ ok: true, value: runDigestPass(input) });
    } catch (error) {
      return Promise.resolve({ ok: false, error: { code: 'TASK_FAILED', message: errorText(error) } });
    }
  }

  /** One pass under the lock: the notes not yet folded, then the item to `forget`, if any. */
  async function pass(forget?: string): Promise<{ ok: true; folded: number; more: boolean; output: DigestPassOutput } | { ok: false; reason: string }> {
    return withFileLock(
      lock,
      async (signal) => {
        const read = await reading();
        if (!read.ok) return read;
        if (closed()) return { ok: false as const, reason: 'shutting down' };
        const folded = await fold({ digest: read.digest, concept: project.concept, key: project.key, notes: read.notes, now: now(), ...(forget !== undefined ? { forget } : {}) });
        if (!folded.ok) return { ok: false as const, reason: `fold ${folded.error.code}: ${folded.error.message}` };
        const output = folded.value;
        // Nothing new and nothing changed: the digest stays as it is, unwritten.
        if (output.text === null) return { ok: true as const, folded: 0, more: false, output };
        const refused = await write(output.text, signal);
        if (refused) return { ok: false as const, reason: refused };
        if (output.dropped.length > 0) logger.info(`memory digest: ${output.dropped.length} items past the bounds dropped, least confirmed first: ${describe(output.dropped)}${output.dropped.length > 3 ? ', …' : ''} (project ${project.key})`);
        return { ok: true as const, folded: read.notes.length, more: read.more, output };
      },
      parts.lockTiming,
    );
  }

  return {
    close: () => stopped.abort(),
    async update() {
      if (closed()) return { kind: 'failed', reason: 'shutting down' };
      try {
        let outcome: DigestUpdate = { kind: 'unchanged' };
        // A project with a backlog (an upgrade, a long outage) catches up a few passes at a time.
        for (let round = 0; round < 5; round += 1) {
          const done = await pass();
          if (!done.ok) return { kind: 'failed', reason: done.reason };
          if (done.folded === 0) break;
          const dropped: DigestItem[] = outcome.kind === 'updated' ? [...outcome.dropped, ...done.output.dropped] : done.output.dropped;
          outcome = { kind: 'updated', folded: (outcome.kind === 'updated' ? outcome.folded : 0) + done.folded, items: done.output.items, dropped, more: done.more };
          if (!done.more) break;
        }
        if (outcome.kind === 'updated') logger.debug(`memory digest: ${outcome.folded} notes folded, ${outcome.items} items (project ${project.key})`);
        return outcome;
      } catch (error) {
        return { kind: 'failed', reason: errorText(error) };
      }
    },
    async forget(idOrText) {
      try {
        const done = await pass(idOrText);
        if (!done.ok) return { kind: 'failed', reason: done.reason };
        if (done.output.forgotten.length === 0) return { kind: 'unknown', reason: done.output.unknown || 'no such item' };
        logger.info(`memory digest: forgot ${describe(done.output.forgotten)} (project ${project.key})`);
        return { kind: 'forgotten', items: done.output.forgotten };
      } catch (error) {
        return { kind: 'failed', reason: errorText(error) };
      }
    },
  };
}
