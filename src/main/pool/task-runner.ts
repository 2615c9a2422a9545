/**
 * The one interface the engine needs from whatever runs a task: the worker
 * pool in production, the same task functions inline in tests and benchmarks.
 */
import type {
  AnalyzeInput,
  AnalyzeOutput,
  ContextFit,
  ContextFitInput,
  FinalizeInput,
  FinalizeOutput,
  IndexFilesInput,
  IndexFilesOutput,
  LoadIndexInput,
  LoadIndexOutput,
  SaveIndexInput,
  ScanInput,
  ScanOutput,
  SearchAnswer,
  SearchIndexInput,
  TaskName,
  TaskResult,
} from '../../workers/protocol.js';

/** Input and output of each task, by name. */
export interface TaskSignatures {
  analyzeUnits: { input: AnalyzeInput; output: AnalyzeOutput };
  finalizeExtraction: { input: FinalizeInput; output: FinalizeOutput };
  fitContext: { input: ContextFitInput; output: ContextFit };
  warmUp: { input: null; output: number };
  scanMemoryFolder: { input: ScanInput; output: ScanOutput };
  indexMemoryFiles: { input: IndexFilesInput; output: IndexFilesOutput };
  loadMemoryIndex: { input: LoadIndexInput; output: LoadIndexOutput };
  saveMemoryIndex: { input: SaveIndexInput; output: number };
  searchMemoryIndex: { input: SearchIndexInput; output: SearchAnswer };
}

/** Per-call controls. */
export interface RunControls {
  /** Aborts the task (a pooled task's worker is then replaced). */
  signal?: AbortSignal;
}

/** Runs named tasks and reports every outcome as a value. */
export interface TaskRunner {
  run<N extends TaskName>(
    name: N,
    input: TaskSignatures[N]['input'],
    controls?: RunControls,
  ): Promise<TaskResult<TaskSignatures[N]['output']>>;
}
