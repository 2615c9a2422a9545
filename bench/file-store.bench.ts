/**
 * The file store's index over a 10,000-file (~50 MB) memory folder: a cold
 * build (no cache), a refresh after one changed file, and BuildContext for
 * the most common concept from the built index, and one project's memory read
 * back for session start. Budgets: cold build ≤ 10 s, refresh ≤ 100 ms,
 * build-context ≤ 20 ms, project memory ≤ 50 ms with the hook thread held
 * ≤ 10 ms, and a search, RecentActivity, BuildContext or a write of the index's cache holding it ≤ 10 ms. The refresh follows
 * the folder watch's events; the same refresh by a walk of the whole folder
 * (when the watch cannot vouch for its events) is reported beside it.
 */
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Bench } from 'tinybench';
import { createFileStore } from '../src/main/memory/files/file-store.js';
import { createLogger } from '../src/main/shared/logger.js';
import type { TaskRunner } from '../src/main/pool/task-runner.js';
import { memoryFolder } from './memory-folder.js';
import { maxLoopDelay } from './loop-delay.js';
import { readProjectMemory, type ChainLookup, type ProjectMemoryLimits } from '../src/main/graph/project-memory.js';
import { resolveProject, type Project } from '../src/main/shared/project.js';
import { buildCompactionNote } from '../src/main/compaction/compaction-note.js';
import type { Extraction } from '../src/main/compaction/extraction-engine.js';
import type { FileStore } from '../src/main/memory/files/file-store.js';
import { memoryFilePath, sessionUri } from '../src/core/memory/memory-format.js';
import { createDigestUpdater } from '../src/main/memory/digest/digest-updater.js';

/** Session start's limits. */
const PROJECT_MEMORY_LIMITS: ProjectMemoryLimits = { perCallTimeoutMs: 5_000, totalTimeoutMs: 10_000, maxNotes: 8, totalBudget: 2_500, summaryBudget: 1_250, summaryMaxChars: 32_000 };

/**
 * One project's memory in the folder: 40 compaction notes of 10 sessions, the first 36 folded into its
 * digest as the plugin folds them after each compaction, and a summary chain of 10 thoughts, as the
 * plugin writes them.
 */
async function projectNotes(store: FileStore, stateDir: string): Promise<{ project: Project; chains: ChainLookup; remove(): Promise<void> }> {
  const project = resolveProject('', join(tmpdir(), 'bench-shop'));
  const lines = (kind: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${kind} ${i}: the cart service keeps its sessions in SQLite, checked by cart.test.ts line ${i}`);
  for (let i = 0; i < 40; i++) {
    const extraction = {
      concepts: [{ name: 'cart', count: 3 }, { name: 'sqlite', count: 2 }],
      decisions: lines('decision', 15).map((text) => ({ text, category: 'implementation' })),
      observations: lines('problem', 8).map((text) => ({ type: 'problem', text })),
      next: lines('next', 5),
      files: ['src/cart.ts', 'src/session-store.ts'],
    } as unknown as Extraction;
    const note = buildCompactionNote(project, `ses_bench${i % 10}`, extraction, new Date(Date.UTC(2026, 10, 1, 0, i)));
    const written = await store.writeNote(note, { timeoutMs: 10_000 });
    if (!written.ok) throw new Error(written.error.message);
    if (i === 35) {
      const digest = await createDigestUpdater({ memory: store, project, stateDir, logger: createLogger(undefined), timeoutMs: 10_000 }).update();
      if (digest.kind !== 'updated') throw new Error(`the digest was not written: ${JSON.stringify(digest)}`);
    }
  }
  let sessionId: string | undefined;
  for (let n = 0; n < 10; n++) {
    const thought = await store.appendThought(
      {
        response: `Compaction summary of session ses_bench${n} in [[bench-shop]] ([[compaction]]).\n\n## Goal\nShip the [[cart]].\n\n${lines('progress', 40).join('\n')}`,
        nextThoughtNeeded: false,
        conclusion: 'Latest [[compaction]] summary recorded.',
        thoughtNumber: n,
        totalThoughts: n + 1,
        ...(sessionId ? { sessionId } : {}),
      },
      { timeoutMs: 10_000 },
    );
    if (!thought.ok || !thought.value.sessionId) throw new Error(thought.ok ? 'no session id' : thought.error.message);
    sessionId = thought.value.sessionId;
  }
  const chain = { sessionId: sessionId as string, updatedAt: new Date().toISOString() };
  const thoughtUri = sessionUri(chain.sessionId);
  // The folder of 10,000 notes is kept between runs: what this run added goes with it.
  const remove = async (): Promise<void> => {
    await rm(join(store.memoryDir, ...project.noteFolder.split('/')), { recursive: true, force: true });
    if (thoughtUri) await rm(memoryFilePath(store.memoryDir, thoughtUri), { force: true });
  };
  return { project, chains: { get: async () => chain }, remove };
}

/** The store's figures. */
export interface StoreFigures {
  files: number;
  folder_mb: number;
  cold_build_ms: number;
  refresh_one_changed_p50_ms: number;
  /** The same refresh when it walks the folder (no watch). */
  refresh_one_changed_walk_p50_ms: number;
  build_context_p50_ms: number;
  search_p50_ms: number;
  /** Reading one project's memory back for session start (its digest, the 4 of 40 notes it has not folded and its summary chain), fitted in the pool. */
  project_memory_p50_ms: number;
  /** The longest the hook thread was held during those reads. */
  project_memory_stall_max_ms: number;
  /** The longest the hook thread was held during searches (session start searches by the project's name). */
  search_stall_max_ms: number;
  /** The longest the hook thread was held while the index's cache was written after a change (each write of a note changes it). */
  index_save_stall_max_ms: number;
  /** The longest the hook thread was held by RecentActivity (session start lists the month's newest files). */
  recent_stall_max_ms: number;
  /** The longest the hook thread was held by BuildContext of the most common concept (a task that names a concept asks for it). */
  build_context_stall_max_ms: number;
}

/** The budgets the runner checks. */
export const STORE_BUDGETS = { cold_build_ms: 10_000, refresh_one_changed_p50_ms: 100, build_context_p50_ms: 20, project_memory_p50_ms: 50, project_memory_stall_max_ms: 10, search_stall_max_ms: 10, index_save_stall_max_ms: 10, recent_stall_max_ms: 10, build_context_stall_max_ms: 10 } as const;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/**
 * @param runner - the worker pool.
 * @param quick - fewer iterations.
 */
export async function benchFileStore(runner: TaskRunner, quick: boolean): Promise<{ figures: StoreFigures; rows: Record<string, unknown>[] }> {
  const count = 10_000;
  const { root, bytes, commonConcept } = await memoryFolder(count);
  const logger = createLogger(undefined);
  const colds: number[] = [];
  const stateDirs: string[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  let store = null as ReturnType<typeof createFileStore> | null;
  try {
    for (let run = 0; run < (quick ? 1 : 3); run++) {
      const stateDir = await mkdtemp(join(tmpdir(), 'maenifold-bench-store-'));
      stateDirs.push(stateDir);
      store?.index.close();
      // The cold build is measured whole: a read would otherwise answer from a partial index after 2 s.
      store = createFileStore({ root, stateDir, runner, logger, index: { freshForMs: 60_000, persistDelayMs: 0, answerWithinMs: 600_000 } });
      const start = performance.now();
      const snapshot = await store.index.refresh({ force: true });
      colds.push(performance.now() - start);
      if (snapshot.entries.size !== count) throw new Error(`indexed ${snapshot.entries.size} of ${count} files`);
    }
    const ready = store as NonNullable<typeof store>;
    const notes = await projectNotes(ready, stateDirs[0] as string);
    cleanups.push(notes.remove);
    const { project, chains } = notes;
    const readMemory = async (): Promise<void> => {
      const read = await readProjectMemory(ready, runner, project, chains, PROJECT_MEMORY_LIMITS);
      if (!read.memory?.summary || read.memory.decisions === 0) throw new Error(`the project memory came back incomplete: ${JSON.stringify(read.memory)} ${read.problems.join(', ')}`);
    };
    await readMemory();
    const walkStateDir = await mkdtemp(join(tmpdir(), 'maenifold-bench-store-'));
    stateDirs.push(walkStateDir);
    const walking = createFileStore({ root, stateDir: walkStateDir, runner, logger, index: { freshForMs: 60_000, persistDelayMs: 0, watch: false, answerWithinMs: 600_000 } });
    await walking.index.refresh({ force: true });
    const changed = join(root, 'memory', 'notes', '00', 'note-0.md');
    const touch = async (): Promise<void> => appendFile(changed, `\nTouched [[${commonConcept}]] again.\n`);
    // A refresh that missed the change would be fast and wrong: each one must have re-read the file.
    const refreshOne = (subject: typeof ready) => async (): Promise<void> => {
      await subject.index.refresh({ force: true });
      const report = subject.index.lastReport();
      if (!report || report.indexed < 1) throw new Error(`the refresh did not see the changed file: ${JSON.stringify(report)}`);
    };
    const search = async (): Promise<void> => {
      const result = await ready.search({ query: 'gateway sessions', pageSize: 5 }, { timeoutMs: 5_000 });
      if (!result.ok) throw new Error(result.error.message);
    };
    const buildContext = async (): Promise<void> => {
      const result = await ready.related({ concept: commonConcept, depth: 1, maxEntities: 5 }, { timeoutMs: 5_000 });
      if (!result.ok || result.value.length === 0) throw new Error(result.ok ? 'no related concepts' : result.error.message);
    };
    const recent = async (): Promise<void> => {
      const result = await ready.recent({ limit: 12, withinMs: 30 * 86_400_000, includeContent: true }, { timeoutMs: 5_000 });
      if (!result.ok || result.value.length === 0) throw new Error(result.ok ? 'no recent files' : result.error.message);
    };
    // The watched store walks twice before it trusts events (its watches must be in place first).
    await ready.index.refresh({ force: true });
    const bench = new Bench({ iterations: quick ? 5 : 20, time: 0 });
    bench
      .add('refresh after one changed file', refreshOne(ready), { beforeEach: touch })
      .add('refresh after one changed file, by a walk', refreshOne(walking), { beforeEach: touch })
      .add('build-context, most common concept', buildContext)
      .add('project memory', readMemory)
      .add('search, two terms', search);
    await bench.run();
    // A save writes only after a change: each one follows a changed file and the refresh that read it.
    const saveStall = async (runs: number): Promise<number> => {
      let worst = 0;
      for (let run = 0; run < runs; run++) {
        await touch();
        await refreshOne(ready)();
        worst = Math.max(worst, await maxLoopDelay(() => ready.index.persist()));
      }
      return worst;
    };
    const p50 = (name: string): number => {
      const result = bench.getTask(name)?.result;
      if (!result || result.state !== 'completed') {
        const cause = result && 'error' in result ? `: ${String(result.error)}` : '';
        throw new Error(`benchmark ${name} did not complete: ${result?.state}${cause}`);
      }
      return result.latency.p50 ?? Number.NaN;
    };
    const figures: StoreFigures = {
      files: count,
      folder_mb: Math.round((bytes / 1024 ** 2) * 10) / 10,
      cold_build_ms: Math.round(median(colds)),
      refresh_one_changed_p50_ms: Math.round(p50('refresh after one changed file') * 10) / 10,
      refresh_one_changed_walk_p50_ms: Math.round(p50('refresh after one changed file, by a walk') * 10) / 10,
      build_context_p50_ms: Math.round(p50('build-context, most common concept') * 100) / 100,
      search_p50_ms: Math.round(p50('search, two terms') * 10) / 10,
      project_memory_p50_ms: Math.round(p50('project memory') * 10) / 10,
      project_memory_stall_max_ms: Math.round((await maxLoopDelay(readMemory, quick ? 5 : 20)) * 10) / 10,
      search_stall_max_ms: Math.round((await maxLoopDelay(search, quick ? 5 : 20)) * 10) / 10,
      index_save_stall_max_ms: Math.round((await saveStall(quick ? 2 : 5)) * 10) / 10,
      recent_stall_max_ms: Math.round((await maxLoopDelay(recent, quick ? 5 : 20)) * 10) / 10,
      build_context_stall_max_ms: Math.round((await maxLoopDelay(buildContext, quick ? 5 : 20)) * 10) / 10,
    };
    walking.index.close();
    ready.index.close();
    return { figures, rows: bench.table() as Record<string, unknown>[] };
  } finally {
    for (const cleanup of cleanups) await cleanup();
    for (const dir of stateDirs) await rm(dir, { recursive: true, force: true });
  }
}
