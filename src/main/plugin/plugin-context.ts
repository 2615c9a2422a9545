/**
 * What the handlers share: every part some handler uses (options, the
 * logger, the memory store, the task runner and extraction engine, the host
 * client, background work, delivery, the working set and the rules). Each
 * handler declares the few it reads; the composition root builds them all.
 */
import type { CompactionDeps } from '../compaction/compaction.js';
import type { SessionStartDeps } from '../graph/session-start.js';
import type { TaskAugmentationDeps } from '../graph/task-augmentation.js';
import type { SummaryPersistenceDeps } from '../summaries/summary-persistence.js';
import type { ConfessionReportDeps } from '../summaries/confession-report.js';
import type { RulesInjectionDeps } from '../rules/rules-injection.js';
import type { FramesDeps } from '../frames/frames.js';

/** The plugin's shared parts: what its handlers use, together. */
export type PluginContext = CompactionDeps &
  SessionStartDeps &
  TaskAugmentationDeps &
  SummaryPersistenceDeps &
  ConfessionReportDeps &
  RulesInjectionDeps &
  FramesDeps;
