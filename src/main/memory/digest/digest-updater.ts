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
 * The fold runs on the calling thread: the notes are the plugin's own (a
 * few kilobytes each, read at most 64 KB) and a pass reads a bounded number,
 * so a pass is a few milliseconds of work, off any hook's path.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { foldDigest, foldNoteOf, forgetDigestItem, formatDigest, isFolded, noteMark, parseDigest, type Digest, type DigestItem, type FoldedMarks } from '../../../core/memory/digest.js';
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
}

/** The digest as the store holds it, the notes it has not folded, and whether more wait. */
type Reading = { ok: true; digest: Digest; exists: boolean; notes: ProjectNoteText[]; more: boolean } | { ok: false; reason: string };

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
      if (listed.error.code === 'TOOL_ERROR' || /not found/i.test(listed.error.message)) return { ok: true, digest: parseDigest('', project.concept, project.key), exists: false, notes: [], more: false };
      return { ok: false, reason: `ListMemories ${listed.error.code}` };
    }
    let digest = parseDigest('', project.concept, project.key);
    const exists = listed.value.includes(note.uri);
    if (exists) {
      if (closed()) return { ok: false, reason: 'shutting down' };
      const read = await memory.readNote(note.uri, call);
      // A digest that cannot be read now is not written over: its items would be lost.
      if (!read.ok) return { ok: false, reason: `ReadMemory of the digest ${read.error.code}` };
      digest = parseDigest(read.value.content, project.concept, project.key);
    }
    const pending = unfoldedNotes(listed.value, project, digest.foldedMarks).reverse();
    const notes: ProjectNoteText[] = [];
    for (const uri of pending.slice(0, MAX_NOTES_PER_PASS)) {
      if (closed()) return { ok: false, reason: 'shutting down' };
      const read = await memory.readNote(uri, call);
      // Oldest first, and none skipped: a note that cannot be read now ends the pass before it.
      if (!read.ok) break;
      notes.push({ uri, content: read.value.content });
    }
    return { ok: true, digest, exists, notes, more: notes.length < pending.length };
  }

  async function write(digest: Digest, signal: AbortSignal): Promise<string | null> {
    await assertHeld(signal);
    if (closed()) return 'shutting down';
    const written = await memory.writeNote({ title: note.title, content: formatDigest(digest), folder: note.folder, tags: ['memory-digest', project.concept, project.key] }, call);
    return written.ok ? null : `WriteMemory ${written.error.code}${written.error.toolCode ? ` ${written.error.toolCode}` : ''}`;
  }

  function describe(items: readonly DigestItem[]): string {
    return items
      .slice(0, 3)
      .map((item) => `${item.id} "${item.text.slice(0, 60)}"`)
      .join(', ');
  }

  /** One pass under the lock; `then` changes the folded digest before it is written. */
  async function pass<R>(then: (folded: Digest) => { digest: Digest | null; result: R }): Promise<{ ok: true; folded: number; dropped: DigestItem[]; more: boolean; items: number; result: R } | { ok: false; reason: string }> {
    return withFileLock(
      lock,
      async (signal) => {
        const read = await reading();
        if (!read.ok) return read;
        const { digest: folded, dropped } = foldDigest(read.digest, read.notes.map(foldNoteOf), now());
        const changed = then(folded);
        // Nothing new and nothing changed: the digest stays as it is, unwritten.
        if (changed.digest === null && read.notes.length === 0) return { ok: true as const, folded: 0, dropped: [], more: false, items: folded.items.length, result: changed.result };
        const next = changed.digest ?? folded;
        const refused = await write(next, signal);
        if (refused) return { ok: false as const, reason: refused };
        if (dropped.length > 0) logger.info(`memory digest: ${dropped.length} items past the bounds dropped, least confirmed first: ${describe(dropped)}${dropped.length > 3 ? ', …' : ''} (project ${project.key})`);
        return { ok: true as const, folded: read.notes.length, dropped, more: read.more, items: next.items.length, result: changed.result };
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
          const done = await pass(() => ({ digest: null, result: null }));
          if (!done.ok) return { kind: 'failed', reason: done.reason };
          if (done.folded === 0) break;
          const dropped: DigestItem[] = outcome.kind === 'updated' ? [...outcome.dropped, ...done.dropped] : done.dropped;
          outcome = { kind: 'updated', folded: (outcome.kind === 'updated' ? outcome.folded : 0) + done.folded, items: done.items, dropped, more: done.more };
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
        let unknown = '';
        const done = await pass<DigestItem[]>((folded) => {
          const forgot = forgetDigestItem(folded, idOrText);
          if (forgot.ok) return { digest: forgot.digest, result: forgot.forgotten };
          unknown = forgot.reason;
          return { digest: null, result: [] };
        });
        if (!done.ok) return { kind: 'failed', reason: done.reason };
        if (done.result.length === 0) return { kind: 'unknown', reason: unknown || 'no such item' };
        logger.info(`memory digest: forgot ${describe(done.result)} (project ${project.key})`);
        return { kind: 'forgotten', items: done.result };
      } catch (error) {
        return { kind: 'failed', reason: errorText(error) };
      }
    },
  };
}
