/**
 * The pool's worker: each named export is one task. Tasks return results as
 * values, so the hook thread never has to interpret a thrown error.
 */
import type { AnalyzeInput, AnalyzeOutput, ContextFit, ContextFitInput, FinalizeInput, FinalizeOutput, TaskResult } from './protocol.js';
import { fitContextEntries } from '../core/context/context-budget.js';
import { analyzeUnits as runAnalyzeUnits } from '../core/extraction/pipeline/analyze-unit.js';
import { finalizeExtraction as runFinalizeExtraction } from '../core/extraction/pipeline/finalize.js';
import { toTaskError } from '../core/task-error.js';
import { buildSummaryThought, cleanSummaryText } from '../core/memory/summary-thought.js';
import { buildProjectMemory, type ProjectMemory, type ProjectMemoryInput } from '../core/memory/project-memory.js';
import { parseSummaryLists } from '../core/memory/summary-lists.js';
import { parseSessionNote } from '../core/memory/session-note.js';
import { runDigestPass, type DigestPassInput, type DigestPassOutput } from '../core/memory/digest-pass.js';
import { inputProblem, TASK_INPUTS, type TaskInputSchema } from './task-inputs.js';
import * as memoryFolder from './tasks/memory-folder.js';
import { runWarmUp } from './tasks/warm-up.js';
import { workerData } from 'node:worker_threads';
import { lowerThreadPriority } from './thread-priority.js';
import type { SummaryListsInput, SummaryListsOutput, CleanSummaryInput, WarmUpInput, WarmUpOutput, IndexFilesInput, LoadIndexInput, ScanInput, SearchIndexInput, SummaryThoughtInput, TaskName, TaskSignatures } from './protocol.js';

/**
 * A task that first checks its input against its schema: a wrong shape is refused as data, naming the
 * field, and whatever the work throws becomes TASK_FAILED.
 */
function guarded<I, O>(schema: TaskInputSchema, work: (input: I) => O): (input: unknown) => TaskResult<O> {
  return (input) => {
    const problem = inputProblem(schema, input);
    if (problem !== null) return { ok: false, error: { code: 'INVALID_INPUT', message: `task input has the wrong shape: ${problem}` } };
    try {
      // The schema checked the shape the work relies on; the stages read every field defensively.
      return { ok: true, value: work(input as I) };
    } catch (error) {
      return { ok: false, error: toTaskError(error, 'TASK_FAILED') };
    }
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Task `analyzeUnits`: the per-message pass over one batch. */
export const analyzeUnits = guarded<AnalyzeInput, AnalyzeOutput>(TASK_INPUTS.analyzeUnits, runAnalyzeUnits);

/** Task `finalizeExtraction`: concepts, merged lists and the preservation context. */
export const finalizeExtraction = guarded<FinalizeInput, FinalizeOutput>(TASK_INPUTS.finalizeExtraction, runFinalizeExtraction);

/** Task `fitContext`: per-concept entries fitted to exact token budgets. */
export const fitContext = guarded<ContextFitInput, ContextFit>(TASK_INPUTS.fitContext, fitContextEntries);

/** Task `scanMemoryFolder`: stamps of every markdown file under the memory folder. */
export const scanMemoryFolder = guarded<ScanInput, ReturnType<typeof memoryFolder.scanMemoryFolder>>(TASK_INPUTS.scanMemoryFolder, memoryFolder.scanMemoryFolder);

/** Task `indexMemoryFiles`: reads and indexes a batch of files. */
export const indexMemoryFiles = guarded<IndexFilesInput, ReturnType<typeof memoryFolder.indexMemoryFiles>>(TASK_INPUTS.indexMemoryFiles, memoryFolder.indexMemoryFiles);

/** Task `loadMemoryIndex`: the on-disk index cache, validated. */
export const loadMemoryIndex = guarded<LoadIndexInput, ReturnType<typeof memoryFolder.loadMemoryIndex>>(TASK_INPUTS.loadMemoryIndex, memoryFolder.loadMemoryIndex);

/** Task `searchMemoryIndex`: ranks indexed files for a query. */
export const searchMemoryIndex = guarded<SearchIndexInput, ReturnType<typeof memoryFolder.searchMemoryIndex>>(TASK_INPUTS.searchMemoryIndex, memoryFolder.searchMemoryIndex);

/** Task `summaryThought`: a compaction summary as the response of a thought, sanitized, redacted and capped. */
export const summaryThought = guarded<SummaryThoughtInput, string>(TASK_INPUTS.summaryThought, (input) =>
  buildSummaryThought(input.project, input.sessionID, input.summary, input.maxChars),
);

/** Task `cleanSummary`: a compaction summary sanitized, redacted and capped for another session's context. */
export const cleanSummary = guarded<CleanSummaryInput, string>(TASK_INPUTS.cleanSummary, (input) => cleanSummaryText(input.summary, input.maxChars));

/** Task `projectMemory`: the project's earlier compactions merged and fitted for a new session. */
export const projectMemory = guarded<ProjectMemoryInput, ProjectMemory>(TASK_INPUTS.projectMemory, buildProjectMemory);

/** Task `summaryLists`: a compaction summary's lists and template sections as the model's items, and the session's note read back. */
export const summaryLists = guarded<SummaryListsInput, SummaryListsOutput>(TASK_INPUTS.summaryLists, (input) => ({
  items: parseSummaryLists(input.summary).items,
  note: input.note ? parseSessionNote(input.note) : null,
}));

/** Task `digestPass`: a project's digest with the notes it had not folded, and an item forgotten. */
export const digestPass = guarded<DigestPassInput, DigestPassOutput>(TASK_INPUTS.digestPass, runDigestPass);

/** The pool asks its workers to run below the host's priority (`workerData.niceness`); elsewhere nothing changes. */
const requestedNiceness = isObject(workerData) && typeof workerData['niceness'] === 'number' ? workerData['niceness'] : 0;
/** Done when the worker starts, before its warm-up, which is reported with it. */
const priority = lowerThreadPriority(requestedNiceness);

/** Task `warmUp`: a small coding conversation analyzed `rounds` times, so the first real task is not the one paying for JIT. */
export const warmUp = guarded<WarmUpInput, WarmUpOutput>(TASK_INPUTS.warmUp, (input) => ({ tokens: runWarmUp(undefined, input.rounds), priority }));

/**
 * Every task by name, held by the compiler to the protocol's task table: a task missing here, or
 * one whose output differs from its entry there, does not build.
 */
export const TASKS: { readonly [N in TaskName]: (input: unknown) => TaskResult<TaskSignatures[N]['output']> } = {
  analyzeUnits,
  finalizeExtraction,
  fitContext,
  warmUp,
  scanMemoryFolder,
  indexMemoryFiles,
  loadMemoryIndex,
  searchMemoryIndex,
  summaryThought,
  cleanSummary,
  projectMemory,
  summaryLists,
  digestPass,
};

function isTaskName(name: unknown): name is TaskName {
  return typeof name === 'string' && Object.hasOwn(TASKS, name);
}

/**
 * What piscina calls for every task: the request names the task and carries its input.
 *
 * @param request - `{ name, input }`, as the pool sends it.
 */
export default function runTask(request: unknown): TaskResult<unknown> {
  const name = isObject(request) ? request['name'] : undefined;
  if (!isTaskName(name)) return { ok: false, error: { code: 'INVALID_INPUT', message: `unknown task: ${String(name).slice(0, 100)}` } };
  return TASKS[name]((request as Record<string, unknown>)['input']);
}
