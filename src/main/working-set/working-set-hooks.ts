/**
 * The working set's hook parts: after each tool call the paths it touched
 * are recorded (rules, frames and compaction read them later), and a deleted
 * session's working set goes with it. Both are quick and local: they never
 * wait on the store, the pool or the host.
 */
import { errorText, type Logger } from '../shared/logger.js';
import { deletedSessionID, type HostEventInput } from '../host/host-events.js';
import type { WorkingSetTracker } from './working-set-tracker.js';

/** What the parts use of the plugin's shared parts. */
export interface WorkingSetHooksDeps {
  logger: Logger;
  /** The paths each session's tools touched. */
  workingSet: Pick<WorkingSetTracker, 'record' | 'forget'>;
}

/** The working set's part of `tool.execute.after` and of `event`. */
export interface WorkingSetHooks {
  /** Records the paths of the tool call that just ran; never throws. */
  toolAfter(input: { tool: string; sessionID?: string; args?: unknown }): void;
  /** Forgets a deleted session's working set. */
  event(input: HostEventInput): void;
}

/**
 * @param context - the parts of the plugin it uses.
 */
export function createWorkingSetHooks(context: WorkingSetHooksDeps): WorkingSetHooks {
  const { workingSet, logger } = context;
  return {
    toolAfter(input) {
      try {
        workingSet.record(input?.sessionID ?? '', input?.tool, input?.args);
      } catch (error) {
        logger.error(`working set: could not record ${String(input?.tool)}: ${errorText(error)}`);
      }
    },
    event(input) {
      const sessionID = deletedSessionID(input);
      if (sessionID !== null) workingSet.forget(sessionID);
    },
  };
}
