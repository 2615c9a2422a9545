/**
 * The per-project summary chain (FR-12.5): which SequentialThinking session
 * holds a project's summaries and the number of its last thought, kept on
 * disk so a restart continues the chain. Writes are atomic and durable; a missing or damaged file means "no chain yet", never an error.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomically } from './atomic-file.js';

/** One project's chain. */
export interface ChainState {
  sessionId: string;
  thoughtNumber: number;
  updatedAt: string;
  /** Idempotency keys of the latest thoughts delivered, newest last. */
  recentKeys?: string[];
}

/** Reads and writes chain states. */
export interface ChainStore {
  get(project: string): Promise<ChainState | null>;
  set(project: string, state: ChainState): Promise<void>;
  clear(project: string): Promise<void>;
  readonly file: string;
}

function isChainState(value: unknown): value is ChainState {
  const state = value as ChainState;
  return typeof state?.sessionId === 'string' && Number.isInteger(state.thoughtNumber) && state.thoughtNumber >= 0;
}

/**
 * @param stateDir - the plugin's state folder.
 */
export function createChainStore(stateDir: string): ChainStore {
  const file = join(stateDir, 'summary-chains.json');
  // Serialized: two compactions finishing together must not lose each other's update.
  let queue: Promise<unknown> = Promise.resolve();

  async function load(): Promise<Record<string, ChainState>> {
    try {
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      // No prototype: a project named "__proto__" or "constructor" is just a name.
      const chains = Object.create(null) as Record<string, ChainState>;
      if (typeof parsed !== 'object' || parsed === null) return chains;
      for (const [project, state] of Object.entries(parsed)) if (isChainState(state)) chains[project] = state;
      return chains;
    } catch {
      return Object.create(null) as Record<string, ChainState>;
    }
  }

  async function save(chains: Record<string, ChainState>): Promise<void> {
    await writeFileAtomically(file, `${JSON.stringify(chains, null, 2)}\n`, 0o600);
  }

  function serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    file,
    get: (project) => serialized(async () => (await load())[project] ?? null),
    set: (project, state) =>
      serialized(async () => {
        const chains = await load();
        chains[project] = state;
        await save(chains);
      }),
    clear: (project) =>
      serialized(async () => {
        const chains = await load();
        delete chains[project];
        await save(chains);
      }),
  };
}
