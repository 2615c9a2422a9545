import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readProjectMemory, sessionMemoryLimits } from '../../../src/main/graph/project-memory.js';
import { createDigestUpdater } from '../../../src/main/memory/digest/digest-updater.js';
import { createFileStore, type FileStore } from '../../../src/main/memory/files/file-store.js';
import { createInlineRunner } from '../../../src/main/pool/inline-runner.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { resolveProject } from '../../../src/main/shared/project.js';
import { DEFAULT_PLUGIN_OPTIONS } from '../../../src/main/options/plugin-options.js';
import { scratchFolders } from '../../support/scratch.js';

const scratch = scratchFolders('project-memory-digest');
const project = resolveProject('shop', '');
const stores: FileStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function writeNote(store: FileStore, index: number, decisions: string[], problems: string[] = []): Promise<void> {
  const day = String(index).padStart(2, '0');
  const content = ['# Compaction Summary', '', `**Session**: ses${index}`, `**Timestamp**: 2026-11-${day}T10:00:00.000Z`, '', '## Key Concepts', '', '- [[cart]]', '', '## Decisions Made', '', ...decisions.map((text) => `- ${text}`), '', ...(problems.length > 0 ? ['## Open Problems', '', ...problems.map((text) => `- ${text}`), ''] : [])].join('\n');
  const written = await store.writeNote({ title: `Compaction ${project.key.replace(/-/g, ' ')} 202611${day} 100000000 ses${index}`, content, folder: project.noteFolder }, { timeoutMs: 5_000 });
  expect(written.ok).toBe(true);
}

describe('readProjectMemory', () => {
  it('should give a new session a decision older than the newest notes from the digest, with what the digest has not folded yet', async () => {
    const base = await scratch();
    const stateDir = join(base, 'state');
    const runner = await createInlineRunner();
    const store = createFileStore({ root: join(base, 'root'), stateDir, runner, logger: createLogger(undefined), index: { freshForMs: 0, persistDelayMs: 0, watch: false } });
    stores.push(store);
    const updater = createDigestUpdater({ memory: store, project, stateDir, logger: createLogger(undefined), timeoutMs: 5_000 });
    await writeNote(store, 1, ['keep the prices in integer cents because floats round wrong']);
    for (let index = 2; index <= 11; index += 1) await writeNote(store, index, [`ship checkout step ${index} before the next one`]);
    expect((await updater.update()).kind).toBe('updated');
    // Two compactions whose digest pass has not run yet (still in the outbox when it did, or another process's).
    await writeNote(store, 12, ['ship checkout step 12 before the next one'], ['the cart total test fails']);
    await writeNote(store, 13, ['ship checkout step 13 before the next one']);
    const chains = { get: async () => null };
    const read = await readProjectMemory(store, runner, project, chains, sessionMemoryLimits(DEFAULT_PLUGIN_OPTIONS));
    expect(read.problems).toEqual([]);
    expect(read.read?.notes.map((note) => note.uri.slice(-5))).toEqual(['ses13', 'ses12']);
    const block = read.memory?.text ?? '';
    expect(block).toContain('- (2026-11-01) keep the prices in integer cents because floats round wrong');
    expect(block).toContain('- (2026-11-13) ship checkout step 13 before the next one');
    expect(block).toContain('- (2026-11-12) the cart total test fails');
  });
});
