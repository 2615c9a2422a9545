import { setImmediate as turn } from 'node:timers/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { filePool } from '../../support/file-pool.js';
import { scratchFolders } from '../../support/scratch.js';
import { createSessionStart, SESSION_START_OPTIONS } from '../../../src/main/graph/session-start.js';
import { answersFor, blockSignature, loadSavedBlock, saveBlock, savedBlockFile, SAVED_BLOCK_MAX_AGE_MS } from '../../../src/main/graph/saved-block.js';
import { buildSessionNote } from '../../../src/main/compaction/compaction-note.js';
import { createFileStore, type FileStore } from '../../../src/main/memory/files/file-store.js';
import { createChainStore } from '../../../src/main/memory/delivery/chain-store.js';
import { createBackgroundWork } from '../../../src/main/shared/background-work.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { DEFAULT_PLUGIN_OPTIONS } from '../../../src/main/options/plugin-options.js';
import { optionSlice } from '../../../src/main/shared/handler-deps.js';
import { resolveProject } from '../../../src/main/shared/project.js';
import type { TaskRunner } from '../../../src/main/pool/task-runner.js';
import { createFakeHost } from '../../../support/fake-host.js';

const pool = filePool();
const scratch = scratchFolders('saved-block');

/** The pool, its tasks held until `open()`: workers still loading when OpenCode has just started. */
function heldPool(): { runner: TaskRunner; open(): void; held: string[] } {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const held: string[] = [];
  return {
    held,
    open: () => open(),
    runner: {
      async run(name, input, controls) {
        held.push(name);
        await gate;
        return pool().run(name, input, controls);
      },
    },
  };
}

/** A project whose memory holds one compaction note, as the plugin writes it, and session start over it. */
async function setUp(): Promise<{ start(runner: TaskRunner): ReturnType<typeof createSessionStart>; note(session: string, decision: string): Promise<void>; files: FileStore; background: ReturnType<typeof createBackgroundWork>; savedFile: string }> {
  const dir = await scratch();
  const stateDir = join(dir, 'state');
  const project = resolveProject('', join(dir, 'shop'));
  const host = createFakeHost();
  const logger = createLogger(host.client);
  const background = createBackgroundWork(() => undefined);
  const files = createFileStore({ root: join(dir, 'root'), stateDir, runner: pool(), logger });
  const note = async (session: string, decision: string): Promise<void> => {
    const written = await files.writeNote(buildSessionNote(project, session, [{ kind: 'decision', text: decision, source: 'model' }, { kind: 'concept', text: 'cart-service', source: 'heuristic' }], new Date()), { timeoutMs: 5_000 });
    expect(written.ok).toBe(true);
  };
  await note('ses_old', 'keep the prices in integer cents');
  const options = optionSlice({ ...DEFAULT_PLUGIN_OPTIONS, stateDir, contextTotalTimeoutMs: 2_000 }, SESSION_START_OPTIONS);
  return { files, background, note, savedFile: savedBlockFile(stateDir, project.key), start: (runner) => createSessionStart({ options, logger, memory: files, runner, project, chains: createChainStore(stateDir), background }) };
}

async function systemFor(start: ReturnType<typeof createSessionStart>, sessionID: string): Promise<string> {
  const output = { system: ['You are the build agent.'] };
  await start.hook({ sessionID, model: { id: 'm' } }, output);
  return output.system.join('\n');
}

describe('createSessionStart', () => {
  it("should answer a session's first call with the block saved from the last build while the pool cannot run, and keep it for that session", async () => {
    const project = await setUp();
    const before = await systemFor(project.start(pool()), 'ses_a');
    expect(before).toContain('keep the prices in integer cents');
    await project.background.idle();

    // OpenCode started again: the workers are not running yet.
    const held = heldPool();
    const restarted = project.start(held.runner);
    const first = await systemFor(restarted, 'ses_b');
    expect(first).toBe(before);
    // Answered while every pool task of the build was still held.
    expect(held.held.length).toBeGreaterThan(0);

    held.open();
    await project.note('ses_new', 'serve the cart from the edge cache');
    expect(await systemFor(restarted, 'ses_c')).toContain('serve the cart from the edge cache');
    // The session that started on the saved block keeps it, byte for byte.
    expect(await systemFor(restarted, 'ses_b')).toBe(first);
    await project.background.idle();
    await project.files.close();
  });

  it('should wait for the build when the project memory changed since the block was saved, and save the new block in its place', async () => {
    const project = await setUp();
    await systemFor(project.start(pool()), 'ses_a');
    await project.background.idle();
    await project.note('ses_new', 'serve the cart from the edge cache');

    const held = heldPool();
    let returned = false;
    const first = systemFor(project.start(held.runner), 'ses_b').finally(() => (returned = true));
    // The reads are done once the fit of what they read is handed to the pool.
    await vi.waitFor(() => expect(held.held).toContain('projectMemory'));
    await turn();
    expect(returned).toBe(false);
    held.open();
    const text = await first;
    expect(text).toContain('serve the cart from the edge cache');
    await project.background.idle();
    expect((await loadSavedBlock(project.savedFile))?.text).toBe(text.slice('You are the build agent.\n\n'.length));
    await project.files.close();
  });
});

describe('answersFor', () => {
  it('should take a saved block only for the same signature, and not once it is a day old', async () => {
    const file = savedBlockFile(await scratch(), 'shop-1a2b3c4d');
    const signature = blockSignature(['options', { notes: ['a'] }]);
    expect(await saveBlock(file, { signature, text: '## Project Memory', builtAt: 1_000 })).toBe(true);
    const saved = await loadSavedBlock(file);
    expect(saved).toEqual({ signature, text: '## Project Memory', builtAt: 1_000 });
    expect(answersFor(saved, signature, 2_000)).toBe(true);
    expect(answersFor(saved, blockSignature(['options', { notes: ['a', 'b'] }]), 2_000)).toBe(false);
    expect(answersFor(saved, signature, 1_001 + SAVED_BLOCK_MAX_AGE_MS)).toBe(false);
    expect(await loadSavedBlock(`${file}.missing`)).toBeNull();
  });
});
