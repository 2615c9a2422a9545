import type { MemoryPort } from './memory-port.js';
import { markWritten } from './written-mark.js';
import { withDeadline } from '../shared/deadline.js';

/** How long a write waits for the state folder's mark to be stamped. */
const MARK_DEADLINE_MS = 1_000;

/**
 * The store, counting the writes it took: the CLI cannot tell when its memory changed, so session
 * start learns it from here and builds again after a compaction's note or summary landed. With a mark
 * file, each write that landed stamps it before it returns (written-mark.ts): other processes sharing
 * the state folder learn it from there.
 *
 * @param store - the store.
 * @param markFile - the state folder's mark of the last write; none: nothing is stamped.
 */
export function countingWrites(store: MemoryPort, markFile?: string): MemoryPort {
  let writes = 0;
  const counted = async <R extends { ok: boolean }>(result: R): Promise<R> => {
    if (!result.ok) return result;
    writes += 1;
    if (markFile) await withDeadline(markWritten(markFile), MARK_DEADLINE_MS);
    return result;
  };
  return {
    get available() {
      return store.available;
    },
    // A store that knows more of its changes than its writes (the file store's index) adds them.
    revision: () => writes + (store.revision?.() ?? 0),
    writeNote: async (note, call) => counted(await store.writeNote(note, call)),
    appendThought: async (thought, call) => counted(await store.appendThought(thought, call)),
    readNote: (uri, call) => store.readNote(uri, call),
    listNotes: (folder, call) => store.listNotes(folder, call),
    search: (query, call) => store.search(query, call),
    recent: (query, call) => store.recent(query, call),
    related: (query, call) => store.related(query, call),
  };
}
