/**
 * What every hook shares: resolved options, the logger, the maenifold
 * client, the task runner and extraction engine, the host client, and the
 * tracker of background work.
 */
import type { PluginOptions } from '../shared/plugin-options.js';
import type { Logger } from '../shared/logger.js';
import type { MemoryStore } from '../memory/cli/maenifold-client.js';
import type { TaskRunner } from '../pool/task-runner.js';
import type { ExtractionEngine } from '../compaction/extraction-engine.js';
import type { HostClient } from '../shared/host-client.js';
import type { BackgroundWork } from '../shared/background-work.js';
import type { Delivery } from '../memory/delivery/delivery.js';
import type { WorkingSetTracker } from '../compaction/working-set-tracker.js';
import type { RuleSet } from '../rules/rules.js';

/** The plugin's shared parts. */
export interface PluginContext {
  options: PluginOptions;
  logger: Logger;
  /** The memory store: the maenifold CLI or the built-in file store (the `store` option). */
  cli: MemoryStore;
  runner: TaskRunner;
  engine: ExtractionEngine;
  host: HostClient;
  /** The project's name: the `project` option or the worktree's folder name. */
  project: string;
  background: BackgroundWork;
  /** Writes to maenifold through the durable outbox. */
  delivery: Delivery;
  /** The paths each session's tools touched. */
  workingSet: WorkingSetTracker;
  rules: RuleSet;
}
