import type { MemoryPort } from './memory-port.js';

/**
 * The store, counting the writes it took: the CLI cannot tell when its memory changed, so session
 * start learns it from here and builds again after a compaction's note or summary landed.
 */
export function countingWrites(store: MemoryPort): MemoryPort {
  let writes = 0;
  const counted = <R extends { ok: boolean }>(result: R): R => {
    if (result.ok) writes += 1;
    return result;
  };
  return {
    get available() {
      return store.available;
    },
    revision: () => writes,
    writeNote: async (note, call) => counted(await store.writeNote(note, call)),
    appendThought: async (thought, call) => counted(await store.appendThought(thought, call)),
    readNote: (uri, call) => store.readNote(uri, call),
    listNotes: (folder, call) => store.listNotes(folder, call),
    search: (query, call) => store.search(query, call),
    recent: (query, call) => store.recent(query, call),
    related: (query, call) => store.related(query, call),
  };
}
