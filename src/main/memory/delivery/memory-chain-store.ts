/**
 * Chain states kept in this process's memory, for a state folder the disk
 * refuses: the same store as the file's (chain-store.ts), so a chain kept in
 * memory records the thought in flight and settles an ambiguous call by
 * asking maenifold, exactly as a durable one does. It lasts as long as the
 * process; records are copied in and out, as a file would.
 */
import type { ChainRecord, ChainState, ChainStore } from './chain-store.js';

/** A {@link ChainStore} that lives in memory; its `file` is empty. */
export function createMemoryChainStore(): ChainStore {
  const records = new Map<string, ChainRecord>();
  const copy = <T>(value: T): T => structuredClone(value);
  const asState = (record: ChainRecord | null): ChainState | null => (record && typeof record.sessionId === 'string' ? (record as ChainState) : null);
  const store: ChainStore = {
    file: '',
    record: async (project) => copy(records.get(project) ?? null),
    records: async () => Object.assign(Object.create(null) as Record<string, ChainRecord>, copy(Object.fromEntries(records))),
    get: async (project) => asState(await store.record(project)),
    update: async (project, change, guard) => {
      const { record, result } = change(copy(records.get(project) ?? null));
      await guard?.();
      if (record) records.set(project, copy(record));
      else records.delete(project);
      return result;
    },
    set: (project, state) => store.update(project, () => ({ record: state, result: undefined })),
    clear: (project) => store.update(project, () => ({ record: null, result: undefined })),
  };
  return store;
}
