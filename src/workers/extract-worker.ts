/**
 * The pool's worker: each named export is one task. Tasks return results as
 * values, so the hook thread never has to interpret a thrown error.
 */
import type { AnalyzeInput, AnalyzeOutput, ContextFit, ContextFitInput, FinalizeInput, FinalizeOutput, TaskResult } from './protocol.js';
import { fitContextEntries } from '../core/context/context-budget.js';
import { analyzeUnits as runAnalyzeUnits } from './tasks/analyze-units.js';
import { finalizeExtraction as runFinalizeExtraction } from './tasks/finalize-extraction.js';
import { toTaskError } from '../core/task-error.js';
import * as memoryFolder from './tasks/memory-folder.js';
import type { IndexFilesInput, LoadIndexInput, SaveIndexInput, ScanInput, SearchIndexInput, TaskName, TaskSignatures } from './protocol.js';

function guarded<I, O>(validate: (input: unknown) => input is I, work: (input: I) => O): (input: unknown) => TaskResult<O> {
  return (input) => {
    if (!validate(input)) return { ok: false, error: { code: 'INVALID_INPUT', message: 'task input has the wrong shape' } };
    try {
      return { ok: true, value: work(input) };
    } catch (error) {
      return { ok: false, error: toTaskError(error, 'TASK_FAILED') };
    }
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const isAnalyzeInput = (input: unknown): input is AnalyzeInput =>
  isObject(input) && Array.isArray(input['units']) && isObject(input['settings']);

const isFinalizeInput = (input: unknown): input is FinalizeInput =>
  isObject(input) &&
  Array.isArray(input['sections']) &&
  Array.isArray(input['decisions']) &&
  Array.isArray(input['files']) &&
  Array.isArray(input['signals']) &&
  Array.isArray(input['notes']) &&
  Array.isArray(input['terms']) &&
  isObject(input['settings']);

/** Task `analyzeUnits`: the per-message pass over one batch. */
export const analyzeUnits: (input: unknown) => TaskResult<AnalyzeOutput> = guarded(isAnalyzeInput, runAnalyzeUnits);

/** Task `finalizeExtraction`: concepts, merged lists and the preservation context. */
export const finalizeExtraction: (input: unknown) => TaskResult<FinalizeOutput> = guarded(
  isFinalizeInput,
  runFinalizeExtraction,
);

const isContextFitInput = (input: unknown): input is ContextFitInput =>
  isObject(input) &&
  typeof input['heading'] === 'string' &&
  Array.isArray(input['entries']) &&
  input['entries'].every((entry) => typeof entry === 'string') &&
  typeof input['entryBudget'] === 'number' &&
  typeof input['totalBudget'] === 'number' &&
  (input['encoding'] === 'o200k_base' || input['encoding'] === 'cl100k_base') &&
  (input['separator'] === undefined || typeof input['separator'] === 'string');

/** Task `fitContext`: per-concept entries fitted to exact token budgets. */
export const fitContext: (input: unknown) => TaskResult<ContextFit> = guarded(isContextFitInput, fitContextEntries);

const hasString = (input: Record<string, unknown>, key: string): boolean => typeof input[key] === 'string' && input[key] !== '';

/** Task `scanMemoryFolder`: stamps of every markdown file under the memory folder. */
export const scanMemoryFolder = guarded((input: unknown): input is ScanInput => isObject(input) && hasString(input, 'memoryDir'), memoryFolder.scanMemoryFolder);

/** Task `indexMemoryFiles`: reads and indexes a batch of files. */
export const indexMemoryFiles = guarded(
  (input: unknown): input is IndexFilesInput =>
    isObject(input) && hasString(input, 'memoryDir') && Array.isArray(input['uris']) && input['uris'].every((uri) => typeof uri === 'string' && uri.startsWith('memory://') && !uri.split('/').includes('..')),
  memoryFolder.indexMemoryFiles,
);

/** Task `loadMemoryIndex`: the on-disk index cache, validated. */
export const loadMemoryIndex = guarded(
  (input: unknown): input is LoadIndexInput => isObject(input) && hasString(input, 'file') && hasString(input, 'memoryDir'),
  memoryFolder.loadMemoryIndex,
);

/** Task `saveMemoryIndex`: writes the index cache atomically. */
export const saveMemoryIndex = guarded(
  (input: unknown): input is SaveIndexInput => isObject(input) && hasString(input, 'file') && hasString(input, 'memoryDir') && Array.isArray(input['entries']),
  memoryFolder.saveMemoryIndex,
);

/** Task `searchMemoryIndex`: ranks indexed files for a query. */
export const searchMemoryIndex = guarded(
  (input: unknown): input is SearchIndexInput =>
    isObject(input) && Array.isArray(input['entries']) && typeof input['query'] === 'string' && Number.isInteger(input['pageSize']),
  memoryFolder.searchMemoryIndex,
);

/** Task `warmUp`: runs every stage once on a small text so the first real task is not the one paying for JIT. */
export function warmUp(): TaskResult<number> {
  const text = '## Plan\nWe decided to use [[SQLite]] for storage because it is simple.\n\n```ts\nconst x = 1;\n```\n';
  const analyzed = analyzeUnits({
    units: [{ key: null, order: 0, role: 'assistant', text, summary: false, tools: [{ tool: 'read', input: { filePath: 'a.ts' }, output: 'Error: x', failed: false }] }],
    settings: { projectRoot: null, maxSectionChars: 1000, maxDecisionsPerUnit: 5 },
  });
  if (!analyzed.ok) return analyzed;
  const first = analyzed.value.analyses[0];
  const finalized = finalizeExtraction({
    sections: [first?.firstSection ?? text],
    sectionKind: 'h2',
    decisions: first?.decisions ?? [],
    files: first?.files ?? [],
    signals: first?.signals ?? [],
    notes: first?.notes ?? [],
    terms: first?.terms ?? [],
    latestOrder: 0,
    settings: {
      encoding: 'o200k_base',
      contextTokenBudget: 100,
      maxConcepts: 5,
      maxDecisions: 5,
      maxFiles: 5,
      strategy: { mode: 'conservative', targetTokenCount: 100, preserveTypes: ['decision'] },
    },
  });
  return finalized.ok ? { ok: true, value: finalized.value.context.tokens } : finalized;
}

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
  saveMemoryIndex,
  searchMemoryIndex,
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
