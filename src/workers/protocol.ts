/**
 * What crosses the thread boundary between the hook thread and the pool.
 *
 * Types only: the main side imports this file for its shapes and loads the
 * worker by path, so no worker code is ever evaluated on the hook thread.
 * Everything here is plain data (structured-clone safe): piscina drops the
 * name and `code` of thrown errors, so failures travel as values.
 */
export type { FileTouch, TermHit, ToolCallView } from '../core/extraction/working-set/touches.js';
export type { TaskError, TaskErrorCode, TaskResult } from '../core/task-error.js';
import type { AnalyzeInput, AnalyzeOutput, FinalizeInput, FinalizeOutput } from '../core/extraction/pipeline/analysis.js';
export type {
  AnalysisSettings,
  AnalysisUnit,
  AnalyzeInput,
  AnalyzeOutput,
  FinalizeInput,
  FinalizeOutput,
  FinalizeSettings,
  PreservationContext,
  StageTimings,
  UnitAnalysis,
} from '../core/extraction/pipeline/analysis.js';
import type { TaskResult } from '../core/task-error.js';
import type { ContextFit, ContextFitInput } from '../core/context/context-budget.js';
export type { ContextFit, ContextFitInput } from '../core/context/context-budget.js';
export type { MemoryIndexEntry, FileStamp } from '../core/memory/memory-index.js';
export type { SearchAnswer } from '../core/memory/memory-queries.js';
import type { SearchAnswer } from '../core/memory/memory-queries.js';
import type { PriorityOutcome } from './thread-priority.js';
import type { ProjectMemory, ProjectMemoryInput } from '../core/memory/project-memory.js';
export type { ProjectMemory, ProjectMemoryInput } from '../core/memory/project-memory.js';
export type { PriorityOutcome } from './thread-priority.js';
import type { MemoryItem } from '../core/memory/item-kinds.js';
import type { ParsedSessionNote } from '../core/memory/session-note.js';
export type { ParsedSessionNote } from '../core/memory/session-note.js';
export type { MemoryItem } from '../core/memory/item-kinds.js';
import type { DigestPassInput, DigestPassOutput } from '../core/memory/digest-pass.js';
export type { DigestPassInput, DigestPassOutput } from '../core/memory/digest-pass.js';
import type {
  IndexFilesInput,
  IndexFilesOutput,
  LoadIndexInput,
  LoadIndexOutput,
  ScanInput,
  ScanOutput,
  SearchIndexInput,
} from './tasks/memory-folder.js';
export type { IndexFilesInput, IndexFilesOutput, LoadIndexInput, LoadIndexOutput, ScanInput, ScanOutput, SearchIndexInput };

/**
 * The task table: every task the worker runs, with its input and output. A new task is one entry
 * here and one in the worker's `TASKS`, which the compiler holds to this table.
 */
export interface TaskSignatures {
  analyzeUnits: { input: AnalyzeInput; output: AnalyzeOutput };
  finalizeExtraction: { input: FinalizeInput; output: FinalizeOutput };
  fitContext: { input: ContextFitInput; output: ContextFit };
  warmUp: { input: WarmUpInput; output: WarmUpOutput };
  scanMemoryFolder: { input: ScanInput; output: ScanOutput };
  indexMemoryFiles: { input: IndexFilesInput; output: IndexFilesOutput };
  loadMemoryIndex: { input: LoadIndexInput; output: LoadIndexOutput };
  searchMemoryIndex: { input: SearchIndexInput; output: SearchAnswer };
  summaryThought: { input: SummaryThoughtInput; output: string };
  cleanSummary: { input: CleanSummaryInput; output: string };
  projectMemory: { input: ProjectMemoryInput; output: ProjectMemory };
  summaryLists: { input: SummaryListsInput; output: SummaryListsOutput };
  digestPass: { input: DigestPassInput; output: DigestPassOutput };
}

/** Input of `warmUp`: passes over the warm-up conversation. */
export interface WarmUpInput {
  rounds: number;
}

/** What a worker's warm-up reports: the tokens of its last preservation context, and the priority it runs at. */
export interface WarmUpOutput {
  tokens: number;
  priority: PriorityOutcome;
}

/** Input of `cleanSummary`: a compaction summary another session will see. */
export interface CleanSummaryInput {
  summary: string;
  /** Cap on the result's characters. */
  maxChars: number;
}

/** Input of `summaryLists`: a compaction summary, read as the model's items, and the session's newest note when it was read back. */
export interface SummaryListsInput {
  summary: string;
  note: { uri: string; content: string } | null;
}

/** What `summaryLists` gives: the model's items, and the note read back (`null` when none was given). */
export interface SummaryListsOutput {
  items: MemoryItem[];
  note: ParsedSessionNote | null;
}

/** Input of `summaryThought`: a compaction summary and where it goes. */
export interface SummaryThoughtInput {
  project: string;
  sessionID: string;
  summary: string;
  /** Cap on the summary's characters. */
  maxChars: number;
}

/** Names of the tasks. */
export type TaskName = keyof TaskSignatures;

/** What the pool sends a worker: the task's name and its input. */
export interface TaskRequest<N extends TaskName = TaskName> {
  name: N;
  input: TaskSignatures[N]['input'];
}
