/**
 * Compaction's part of the `event` hook: a deleted session's remembered
 * window goes with it, so a session that comes back under the same id is read
 * whole at its next compaction.
 */
import { deletedSessionID, type HostEventInput } from '../host/host-events.js';
import type { WindowMemory } from './window-memory.js';

/**
 * @param windows - the window each session's last compaction read.
 * @returns the handler of the `event` hook.
 */
export function createWindowForgetting(windows: Pick<WindowMemory, 'forget'>): (input: HostEventInput) => void {
  return (input) => {
    const sessionID = deletedSessionID(input);
    if (sessionID !== null) windows.forget(sessionID);
  };
}
