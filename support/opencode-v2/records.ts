/**
 * What the contract host saw a plugin do: every hook registration, every
 * compaction (and whether the plugin set `result`, which skips the model's
 * summary), and every contract violation. A hook that throws breaks the
 * session it ran for on the real host (opencode-plugin-api.md, "Failure modes
 * verified"), so here it is recorded, not swallowed.
 */

/** A hook of the 2.x plugin context. */
export type HookName = 'context' | 'compaction' | 'execute.before' | 'execute.after' | 'transform';

/** One registration, as a plugin made it. */
export interface Registration {
  /** The location (project folder) whose setup registered it. */
  location: string;
  name: HookName;
  /** Whether its `dispose()` was called or its location was unloaded. */
  disposed: boolean;
}

/** A broken promise of the contract: a hook that threw or never settled, a bad tool, a cleanup that failed. */
export interface Violation {
  location: string;
  /** Where it happened, e.g. `session.hook(compaction)` or `tool.transform: add`. */
  where: string;
  message: string;
}

/** One compaction the host ran. */
export interface CompactionRecord {
  location: string;
  sessionID: string;
  /** Whether any compaction hook left `result` set (the model's summary is then skipped). */
  resultSet: boolean;
}

/** Everything recorded by one service. */
export interface ContractRecords {
  registrations: Registration[];
  violations: Violation[];
  compactions: CompactionRecord[];
}

/** Empty records. */
export function createRecords(): ContractRecords {
  return { registrations: [], violations: [], compactions: [] };
}

/**
 * What a caught value says.
 *
 * @param error - anything thrown or rejected.
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
