/**
 * Reads a project's memory back for session start: its digest (every
 * decision not reversed and problem not settled, however old:
 * memory/digest/), the compaction notes the digest has not folded yet (the
 * newest few; ListMemories on the project's folder, then ReadMemory, a few at
 * a time) and the latest thought of its summary chain, each call under its
 * own deadline and all under one; folding those notes into the digest,
 * merging and the exact token fit run in the pool
 * (core/memory/project-memory.ts). Both stores answer the same calls, so the
 * block is the same whichever holds the memory.
 */
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import { sessionUri } from '../../core/memory/memory-format.js';
import { digestNote } from '../memory/digest/digest-note.js';
import { unfoldedNotes } from '../memory/digest/digest-updater.js';
import { digestFoldedMarks } from '../../core/memory/digest-format.js';
import { isFolded, noteMark } from '../../core/memory/digest-marks.js';
import { splitLines } from '../../core/text/line-breaks.js';
import type { ProjectMemory, ProjectMemoryInput, ProjectNoteText } from '../../core/memory/project-memory.js';
import type { MemoryPort } from '../memory/memory-port.js';
import type { TaskRunner } from '../pool/task-runner.js';
import type { Project } from '../shared/project.js';
import { withDeadline } from '../shared/deadline.js';

/** Where a project's summary chain is recorded (the delivery's chain store). */
export interface ChainLookup {
  get(key: string): Promise<{ sessionId: string; updatedAt?: string; earlierSessionIds?: string[] } | null>;
}

/** Limits of {@link readProjectMemory}. */
export interface ProjectMemoryLimits {
  /** One store call. */
  perCallTimeoutMs: number;
  /** Every call together. */
  totalTimeoutMs: number;
  /** Newest notes read of those the digest has not folded. */
  maxNotes: number;
  /** Tokens of the block. */
  totalBudget: number;
  /** Tokens of the summary's share. */
  summaryBudget: number;
  /** Characters of the summary passed on. */
  summaryMaxChars: number;
}

/** Newest notes read beside the digest, before it says which it has not folded. */
const EARLY_NOTES = 2;

/** Notes of the project read back at most, of those the digest has not folded. */
export const MAX_UNFOLDED_NOTES = 8;

/**
 * The limits session start reads the project memory with, from the plugin's options: the `memory`
 * command reads with the same.
 *
 * @param options - the options session start reads.
 */
export function sessionMemoryLimits(options: { sessionStartTokens: number; sessionStartMemoryTokens: number; contextTimeoutMs: number; contextTotalTimeoutMs: number; summaryMaxChars: number }): ProjectMemoryLimits {
  const budget = Math.min(options.sessionStartMemoryTokens, options.sessionStartTokens);
  return {
    perCallTimeoutMs: options.contextTimeoutMs,
    totalTimeoutMs: options.contextTotalTimeoutMs,
    maxNotes: MAX_UNFOLDED_NOTES,
    totalBudget: budget,
    summaryBudget: Math.floor(budget / 2),
    summaryMaxChars: options.summaryMaxChars,
  };
}

/** The block, or why there is none, and whether time ran out somewhere. */
export interface ProjectMemoryRead {
  memory: ProjectMemory | null;
  timedOut: boolean;
  /** Problems met on the way, for the log. */
  problems: string[];
  /** What was read and fitted: the digest (`null`: none yet) and the notes it had not folded. */
  read?: { digest: ProjectNoteText | null; notes: ProjectNoteText[] };
}

/** Where a section the store appends to a chain's file starts: a thought, or the chain's conclusion. */
const CHAIN_SECTION = /\n## (?:Thought \d+\/\d+ \[[^\]\n]*\]|Conclusion)[ \t]*(?=\n)/g;

/**
 * The newest thought of a chain's file, without the header line the plugin puts before each summary
 * and the stamp the store puts after it. The summary's own headings stay in it.
 */
export function latestThought(content: string): string {
  const starts = [...content.matchAll(CHAIN_SECTION)];
  const last = starts.findLastIndex((match) => match[0].startsWith('\n## Thought '));
  if (last < 0) return '';
  const from = (starts[last]?.index ?? 0) + (starts[last]?.[0].length ?? 0);
  const to = starts[last + 1]?.index ?? content.length;
  const lines = splitLines(content.slice(from, to));
  while (lines.length > 0 && (lines.at(-1)?.trim() === '' || /^\*[^*]+\*$/.test(lines.at(-1)?.trim() ?? ''))) lines.pop();
  while (lines.length > 0 && lines[0]?.trim() === '') lines.shift();
  if (/^Compaction summary of session /.test(lines[0] ?? '')) lines.shift();
  return lines.join('\n').trim();
}

/**
 * @param store - the memory store.
 * @param runner - the pool.
 * @param project - whose memory.
 * @param chains - where its summary chain is recorded.
 * @param limits - see {@link ProjectMemoryLimits}.
 * @param onRead - told what was read, before the pool fits it: the fit's input without its clock, or `null`
 *   when there is nothing to fit. Not told when a read failed or ran out of time.
 */
export async function readProjectMemory(store: MemoryPort, runner: TaskRunner, project: Project, chains: ChainLookup, limits: ProjectMemoryLimits, onRead?: (read: Omit<ProjectMemoryInput, 'now'> | null) => void): Promise<ProjectMemoryRead> {
  const started = performance.now();
  const problems: string[] = [];
  let timedOut = false;
  const left = (): number => Math.max(0, limits.totalTimeoutMs - (performance.now() - started));
  const callMs = (): number => Math.min(limits.perCallTimeoutMs, left());

  /** The digest and the notes it has not folded, newest first. */
  async function notes(): Promise<{ digest: ProjectNoteText | null; notes: ProjectNoteText[] }> {
    const none = { digest: null, notes: [] };
    const listed = await store.listNotes(project.noteFolder, { timeoutMs: callMs() });
    if (!listed.ok) {
      // No folder yet: the project never compacted.
      if (listed.error.code === 'TOOL_ERROR' || /not found/i.test(listed.error.message)) return none;
      timedOut ||= listed.error.code === 'TIMEOUT';
      problems.push(`ListMemories ${listed.error.code}`);
      return none;
    }
    const limit = pLimit(4);
    const readOne = (uri: string): Promise<ProjectNoteText | null> =>
      limit(async () => {
        if (left() <= 0) {
          timedOut = true;
          return null;
        }
        const note = await store.readNote(uri, { timeoutMs: callMs() });
        if (note.ok) return { uri, content: note.value.content };
        timedOut ||= note.error.code === 'TIMEOUT';
        problems.push(`ReadMemory ${uri === digestUri ? 'of the digest ' : ''}${note.error.code}`);
        return null;
      });
    const digestUri = digestNote(project).uri;
    const newestFirst = unfoldedNotes(listed.value, project, null);
    // The digest is usually at most a note or two behind: those are read beside it, in one round.
    const early = new Map(newestFirst.slice(0, EARLY_NOTES).map((uri) => [uri, readOne(uri)]));
    // Without the digest the newest notes still say the most recent part.
    const digest = listed.value.includes(digestUri) ? await readOne(digestUri) : null;
    const folded = digest ? digestFoldedMarks(digest.content, project.key) : null;
    // Already the project's notes, newest first: only what the digest has not folded is left to drop.
    const newest = newestFirst.filter((uri) => folded === null || !isFolded(folded, noteMark(uri, project.key))).slice(0, limits.maxNotes);
    const read = await Promise.all(newest.map((uri) => early.get(uri) ?? readOne(uri)));
    return { digest, notes: read.filter((note): note is ProjectNoteText => note !== null) };
  }

  async function summary(): Promise<{ text: string; at: string } | null> {
    const chain = await withDeadline(chains.get(project.key), callMs());
    if (!chain.done) {
      timedOut ||= chain.reason === 'timeout';
      problems.push(`summary chain ${chain.reason}`);
      return null;
    }
    const uri = chain.value ? sessionUri(chain.value.sessionId) : null;
    if (!uri) return null;
    const file = await store.readNote(uri, { timeoutMs: callMs() });
    if (!file.ok) {
      timedOut ||= file.error.code === 'TIMEOUT';
      problems.push(`ReadMemory of the summary chain ${file.error.code}`);
      return null;
    }
    const text = latestThought(file.value.content).slice(0, limits.summaryMaxChars);
    return text ? { text, at: chain.value?.updatedAt ?? '' } : null;
  }

  const [stored, latest] = await Promise.all([notes(), summary()]);
  const complete = !timedOut && problems.length === 0;
  if (stored.notes.length === 0 && stored.digest === null && latest === null) {
    if (complete) onRead?.(null);
    return { memory: null, timedOut, problems, read: stored };
  }
  const input = {
    project: project.name,
    notes: stored.notes,
    digest: stored.digest,
    summary: latest,
    totalBudget: limits.totalBudget,
    summaryBudget: limits.summaryBudget,
    encoding: 'o200k_base',
  } as const;
  if (complete) onRead?.(input);
  const fitted = await runner.run('projectMemory', { ...input, now: Date.now() });
  if (!fitted.ok) {
    problems.push(`fitting failed (${fitted.error.code})`);
    return { memory: null, timedOut: true, problems, read: stored };
  }
  return { memory: fitted.value.text ? fitted.value : null, timedOut, problems, read: stored };
}
