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
import type { MemoryPort } from '../../../src/main/memory/memory-port.js';
import { countingWrites } from '../../../src/main/memory/counting-writes.js';
import { MARK_SLACK_MS, markWritten, writtenMarkFile } from '../../../src/main/memory/written-mark.js';
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

/** The store, its reads held until `open()`: a file store whose index the workers have not loaded yet. */
function heldReads(store: MemoryPort): { memory: MemoryPort; open(): void; reads: string[] } {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const reads: string[] = [];
  const held = <A extends unknown[], R>(name: string, call: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    reads.push(name);
    await gate;
    return call(...args);
  };
  return {
    reads,
    open: () => open(),
    memory: {
      available: true,
      revision: () => store.revision?.() ?? 0,
      writeNote: (note, call) => store.writeNote(note, call),
      appendThought: (thought, call) => store.appendThought(thought, call),
      readNote: held('readNote', (uri: string, call) => store.readNote(uri, call)),
      listNotes: held('listNotes', (folder: string, call) => store.listNotes(folder, call)),
      search: held('search', (query: Parameters<MemoryPort['search']>[0], call) => store.search(query, call)),
      recent: held('recent', (query: Parameters<MemoryPort['recent']>[0], call) => store.recent(query, call)),
      related: held('related', (query: Parameters<MemoryPort['related']>[0], call) => store.related(query, call)),
    },
  };
}

interface Project {
  start(runner: TaskRunner, memory?: MemoryPort): ReturnType<typeof createSessionStart>;
  /** A compaction note written as the plugin writes it: through the store that stamps the state folder's mark. */
  note(session: string, decision: string): Promise<void>;
  /** The same note written by something that does not stamp the mark (another tool, another machine's copy). */
  unmarkedNote(session: string, decision: string): Promise<void>;
  /** An earlier start of OpenCode: its first session's block, built and saved. */
  savedBefore(): Promise<string>;
  files: FileStore;
  background: ReturnType<typeof createBackgroundWork>;
  savedFile: string;
}

/** A project whose memory holds one compaction note, as the plugin writes it, and session start over it. */
async function setUp(): Promise<Project> {
  const dir = await scratch();
  const stateDir = join(dir, 'state');
  const project = resolveProject('', join(dir, 'shop'));
  const host = createFakeHost();
  const logger = createLogger(host.client);
  const background = createBackgroundWork(() => undefined);
  const files = createFileStore({ root: join(dir, 'root'), stateDir, runner: pool(), logger });
  const marked = countingWrites(files, writtenMarkFile(stateDir));
  const write = async (store: MemoryPort, session: string, decision: string): Promise<void> => {
    const written = await store.writeNote(buildSessionNote(project, session, [{ kind: 'decision', text: decision, source: 'model' }, { kind: 'concept', text: 'cart-service', source: 'heuristic' }], new Date()), { timeoutMs: 5_000 });
    expect(written.ok).toBe(true);
  };
  await write(marked, 'ses_old', 'keep the prices in integer cents');
  // The first build's reads begin past the slack a file stamp may lag the clock by.
  await new Promise((resolve) => setTimeout(resolve, MARK_SLACK_MS + 10));
  const options = optionSlice({ ...DEFAULT_PLUGIN_OPTIONS, stateDir, contextTotalTimeoutMs: 2_000 }, SESSION_START_OPTIONS);
  const start: Project['start'] = (runner, memory = marked) => createSessionStart({ options, logger, memory, runner, project, chains: createChainStore(stateDir), background });
  return {
    files,
    background,
    async savedBefore() {
      const text = await systemFor(start(pool()), 'ses_a');
      await background.idle();
      return text;
    },
    note: (session, decision) => write(marked, session, decision),
    unmarkedNote: (session, decision) => write(files, session, decision),
    savedFile: savedBlockFile(stateDir, project.key),
    start,
  };
}

async function systemFor(start: ReturnType<typeof createSessionStart>, sessionID: string): Promise<string> {
  const output = { system: ['You are the build agent.'] };
  await start.hook({ sessionID, model: { id: 'm' } }, output);
  return output.system.join('\n');
}

describe('createSessionStart', () => {
  it("should answer a session's first call at once with the saved block when nothing was written since its reads, without a read or a task, and keep it for that session", async () => {
    const project = await setUp();
    const before = await project.savedBefore();
    expect(before).toContain('keep the prices in integer cents');

    // OpenCode started again: the workers have not, and the file store's index is not loaded.
    const tasks = heldPool();
    const store = heldReads(project.files);
    const restarted = project.start(tasks.runner, store.memory);
    let hostStarted: () => void = () => undefined;
    restarted.prepare(new Promise<void>((resolve) => (hostStarted = resolve)));
    const first = await systemFor(restarted, 'ses_b');
    expect(first).toBe(before);
    // Nothing was read or handed to a worker: the build waits for the host.
    expect(store.reads).toEqual([]);
    expect(tasks.held).toEqual([]);

    hostStarted();
    await vi.waitFor(() => expect(store.reads.length).toBeGreaterThan(0));
    store.open();
    tasks.open();
    await project.note('ses_new', 'serve the cart from the edge cache');
    expect(await systemFor(restarted, 'ses_c')).toContain('serve the cart from the edge cache');
    // The session that started on the saved block keeps it, byte for byte.
    expect(await systemFor(restarted, 'ses_b')).toBe(first);
    await project.background.idle();
    await project.files.close();
  });

  it('should read at once when the plugin wrote to memory since the block was saved, and save the new block in its place', async () => {
    const project = await setUp();
    await project.savedBefore();
    await project.note('ses_new', 'serve the cart from the edge cache');

    const tasks = heldPool();
    const store = heldReads(project.files);
    const restarted = project.start(tasks.runner, store.memory);
    // The host has not started, yet the build reads now: the saved block does not answer.
    restarted.prepare(new Promise<void>(() => undefined));
    await vi.waitFor(() => expect(store.reads.length).toBeGreaterThan(0));
    store.open();
    let returned = false;
    const first = systemFor(restarted, 'ses_b').finally(() => (returned = true));
    // The reads are done once the fit of what they read is handed to the pool.
    await vi.waitFor(() => expect(tasks.held).toContain('projectMemory'));
    await turn();
    expect(returned).toBe(false);
    tasks.open();
    const text = await first;
    expect(text).toContain('serve the cart from the edge cache');
    await project.background.idle();
    expect((await loadSavedBlock(project.savedFile))?.text).toBe(text.slice('You are the build agent.\n\n'.length));
    await project.files.close();
  });

  it('should build again once a session went idle after the plugin wrote, so the next start is answered at once with what was written', async () => {
    const project = await setUp();
    const running = project.start(pool());
    await systemFor(running, 'ses_a');
    await project.background.idle();
    // The compaction of ses_a wrote its note; nothing starts a session before OpenCode stops.
    await project.note('ses_a', 'serve the cart from the edge cache');
    running.event({ event: { type: 'session.idle', properties: { sessionID: 'ses_a' } } });
    await vi.waitFor(async () => expect((await loadSavedBlock(project.savedFile))?.text).toContain('serve the cart from the edge cache'));
    await project.background.idle();

    const tasks = heldPool();
    const store = heldReads(project.files);
    const restarted = project.start(tasks.runner, store.memory);
    restarted.prepare(new Promise<void>(() => undefined));
    expect(await systemFor(restarted, 'ses_b')).toContain('serve the cart from the edge cache');
    expect(store.reads).toEqual([]);
    restarted.close();
    store.open();
    tasks.open();
    await project.background.idle();
    await project.files.close();
  });

  it('should not build again on an idle session when nothing was written', async () => {
    const project = await setUp();
    const tasks: string[] = [];
    const counted: TaskRunner = { run: (name, input, controls) => (tasks.push(name), pool().run(name, input, controls)) };
    const running = project.start(counted);
    await systemFor(running, 'ses_a');
    await project.background.idle();
    const handed = tasks.length;
    running.event({ event: { type: 'session.idle', properties: { sessionID: 'ses_a' } } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await project.background.idle();
    expect(tasks.length).toBe(handed);
    await project.files.close();
  });

  it("should answer with the saved block once the reads show the project's memory unchanged when the mark was stamped by another project's write", async () => {
    const project = await setUp();
    const before = await project.savedBefore();
    // Another project's compaction in another process: the mark moves, this project's memory does not.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await markWritten(writtenMarkFile(join(project.savedFile, '..', '..')))).toBe(true);

    const tasks = heldPool();
    const first = await systemFor(project.start(tasks.runner), 'ses_b');
    expect(first).toBe(before);
    // Answered from what the reads gave, while the fit of it was still held.
    expect(tasks.held).toContain('projectMemory');
    tasks.open();
    await project.background.idle();
    await project.files.close();
  });

  it("should take the saved block unread when only something that does not stamp the mark wrote, and give the next session the build's block", async () => {
    const project = await setUp();
    await project.savedBefore();
    await project.unmarkedNote('ses_other_machine', 'price in the currency of the cart');
    // The mark knows nothing of this write: the first session starts on the saved block, the build reads it.
    const restarted = project.start(pool());
    const text = await systemFor(restarted, 'ses_b');
    expect(text).toContain('keep the prices in integer cents');
    expect(text).not.toContain('price in the currency of the cart');
    await project.background.idle();
    expect(await systemFor(restarted, 'ses_c')).toContain('price in the currency of the cart');
    await project.files.close();
  });
});

describe('answersFor', () => {
  it('should take a saved block only for the same signature, and not once it is a day old', async () => {
    const file = savedBlockFile(await scratch(), 'shop-1a2b3c4d');
    const signature = blockSignature(['options', { notes: ['a'] }]);
    expect(await saveBlock(file, { signature, text: '## Project Memory', builtAt: 1_000, readAt: 900 })).toBe(true);
    const saved = await loadSavedBlock(file);
    expect(saved).toEqual({ signature, text: '## Project Memory', builtAt: 1_000, readAt: 900 });
    expect(answersFor(saved, signature, 2_000)).toBe(true);
    expect(answersFor(saved, blockSignature(['options', { notes: ['a', 'b'] }]), 2_000)).toBe(false);
    expect(answersFor(saved, signature, 1_001 + SAVED_BLOCK_MAX_AGE_MS)).toBe(false);
    expect(await loadSavedBlock(`${file}.missing`)).toBeNull();
  });
});
