import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDigestUpdater, unfoldedNotes, type DigestUpdater } from '../../../../src/main/memory/digest/digest-updater.js';
import { digestNote } from '../../../../src/main/memory/digest/digest-note.js';
import { createFileStore, type FileStore } from '../../../../src/main/memory/files/file-store.js';
import type { MemoryPort } from '../../../../src/main/memory/memory-port.js';
import { createInlineRunner } from '../../../../src/main/pool/inline-runner.js';
import { createLogger } from '../../../../src/main/shared/logger.js';
import { resolveProject } from '../../../../src/main/shared/project.js';
import { parseDigest } from '../../../../src/core/memory/digest.js';
import { createFakeHost } from '../../../../support/fake-host.js';
import { scratchFolders } from '../../../support/scratch.js';
import { filePool } from '../../../support/file-pool.js';
import type { TaskRunner } from '../../../../src/main/pool/task-runner.js';
import { createDoubleRoot } from '../../../../support/maenifold-double.js';
import { createMaenifoldClient } from '../../../../src/main/memory/cli/maenifold-client.js';
import { locateCli } from '../../../../src/main/memory/cli/cli-locator.js';

const scratch = scratchFolders('digest-updater');
const pool = filePool();
const project = resolveProject('shop', '');
const stores: FileStore[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Two processes' clients of one store: the built-in files under one root, or the maenifold double's CLI. */
async function twoClients(kind: 'files' | 'maenifold', base: string): Promise<[MemoryPort, MemoryPort]> {
  if (kind === 'files') return [await openStore(join(base, 'root'), join(base, 'state')), await openStore(join(base, 'root'), join(base, 'state'))];
  const double = await createDoubleRoot();
  cleanups.push(() => double.cleanup());
  const env = { ...process.env, ...double.env };
  return [createMaenifoldClient(locateCli(double.cliPath, env), env), createMaenifoldClient(locateCli(double.cliPath, env), env)];
}

async function openStore(root: string, stateDir: string): Promise<FileStore> {
  const store = createFileStore({ root, stateDir, runner: await createInlineRunner(), logger: createLogger(undefined), index: { freshForMs: 0, persistDelayMs: 0, watch: false } });
  stores.push(store);
  return store;
}

/** A compaction note of `session` on 2026-11-`day`, in the shape the compacting hook writes. */
async function writeNote(store: MemoryPort, session: string, day: number, lists: { decisions?: string[]; problems?: string[] }): Promise<void> {
  const stamp = `202611${String(day).padStart(2, '0')} 100000000`;
  const content = [
    '# Compaction Summary',
    '',
    `**Session**: ${session}`,
    `**Project**: ${project.concept}`,
    `**Timestamp**: 2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`,
    '',
    '## Key Concepts',
    '',
    '- [[cart]]',
    '',
    '## Decisions Made',
    '',
    ...(lists.decisions ?? []).map((text) => `- ${text}`),
    '',
    ...(lists.problems ? ['## Open Problems', '', ...lists.problems.map((text) => `- ${text}`), ''] : []),
  ].join('\n');
  const written = await store.writeNote({ title: `Compaction ${project.key.replace(/-/g, ' ')} ${stamp} ${session}`, content, folder: project.noteFolder }, { timeoutMs: 5_000 });
  expect(written.ok).toBe(true);
}

async function digestOf(store: MemoryPort): Promise<ReturnType<typeof parseDigest>> {
  const read = await store.readNote(digestNote(project).uri, { timeoutMs: 5_000 });
  if (!read.ok) throw new Error(read.error.message);
  return parseDigest(read.value.content, '', '');
}

function updater(memory: MemoryPort, stateDir: string, logger = createLogger(undefined)): DigestUpdater {
  return createDigestUpdater({ memory, project, stateDir, logger, timeoutMs: 5_000, now: () => Date.parse('2026-11-30T00:00:00Z') });
}

describe('createDigestUpdater', () => {
  it('should fold every note the store lists into one digest note, and leave it unwritten when nothing is new', async () => {
    const base = await scratch();
    const store = await openStore(join(base, 'root'), join(base, 'state'));
    await writeNote(store, 's1', 1, { decisions: ['use SQLite for the cart'], problems: ['the cart test fails'] });
    await writeNote(store, 's2', 2, { decisions: ['ship the checkout page first'] });
    const first = await updater(store, join(base, 'state')).update();
    expect(first).toMatchObject({ kind: 'updated', folded: 2, items: 4, dropped: [], more: false });
    const digest = await digestOf(store);
    expect(digest.items.map((item) => item.text).sort()).toEqual(['cart', 'ship the checkout page first', 'the cart test fails', 'use SQLite for the cart']);
    expect(digest.folded?.uri).toContain('-20261102-');
    expect(await updater(store, join(base, 'state')).update()).toEqual({ kind: 'unchanged' });
  });

  it('should fold in the pool it is given, into the digest its own thread would write', async () => {
    const base = await scratch();
    const pooled = await openStore(join(base, 'pooled'), join(base, 'state-pooled'));
    const alone = await openStore(join(base, 'alone'), join(base, 'state-alone'));
    for (const store of [pooled, alone]) {
      await writeNote(store, 's1', 1, { decisions: ['use SQLite for the cart'], problems: ['the cart test fails'] });
      await writeNote(store, 's2', 2, { decisions: ['ship the checkout page first'] });
    }
    const tasks: string[] = [];
    const runner: TaskRunner = {
      run: (name, input, controls) => {
        tasks.push(name);
        return pool().run(name, input, controls);
      },
    };
    const now = (): number => Date.parse('2026-11-30T00:00:00Z');
    const inPool = createDigestUpdater({ memory: pooled, project, stateDir: join(base, 'state-pooled'), logger: createLogger(undefined), timeoutMs: 5_000, now, runner });
    expect(await inPool.update()).toMatchObject({ kind: 'updated', folded: 2, items: 4 });
    expect(await updater(alone, join(base, 'state-alone')).update()).toMatchObject({ kind: 'updated', folded: 2, items: 4 });
    expect(tasks).toEqual(['digestPass']);
    expect(await digestOf(pooled)).toEqual(await digestOf(alone));
    expect(await inPool.forget('ship the checkout page first')).toMatchObject({ kind: 'forgotten', items: [{ text: 'ship the checkout page first' }] });
    expect(tasks).toEqual(['digestPass', 'digestPass']);
    expect((await digestOf(pooled)).items.map((item) => item.text)).not.toContain('ship the checkout page first');
  });

  for (const kind of ['files', 'maenifold'] as const) {
    it(`should fold a note that reaches the store after a newer one was folded, once, whichever process passes (${kind} store)`, async () => {
      const base = await scratch();
      const stateDir = join(base, 'state');
      const [one, other] = await twoClients(kind, base);
      await writeNote(one, 's2', 6, { decisions: ['ship the checkout page first'] });
      expect(await updater(one, stateDir).update()).toMatchObject({ kind: 'updated', folded: 1 });
      // Another process's note, older than the one folded: delivered from its outbox only now.
      await writeNote(other, 's1', 3, { decisions: ['keep the prices in integer cents'], problems: ['the refund test is flaky'] });
      const passes = await Promise.all([updater(one, stateDir).update(), updater(other, stateDir).update()]);
      expect(passes.map((pass) => (pass.kind === 'updated' ? pass.folded : 0)).sort()).toEqual([0, 1]);
      const digest = await digestOf(one);
      expect(digest.items.filter((item) => item.kind !== 'concept').map((item) => `${item.text} x${item.confirmed}`).sort()).toEqual(['keep the prices in integer cents x1', 'ship the checkout page first x1', 'the refund test is flaky x1']);
      expect(digest.folded?.uri).toContain('-20261106-');
      // A pass run again folds nothing twice.
      expect(await updater(other, stateDir).update()).toEqual({ kind: 'unchanged' });
    });
  }

  it('should lose nothing when two updaters on one state folder and one store run at once, a forget among them', async () => {
    const base = await scratch();
    const [root, stateDir] = [join(base, 'root'), join(base, 'state')];
    const store = await openStore(root, stateDir);
    await writeNote(store, 's1', 1, { decisions: ['use Redis for the rate limiter', 'deploy on Fly'] });
    expect((await updater(store, stateDir).update()).kind).toBe('updated');
    await writeNote(store, 's2', 2, { decisions: ['write the docs in English'] });
    // The second process reads the digest, then stalls before it writes: a forget made meanwhile must survive.
    const slow = await openStore(root, stateDir);
    let stalled: () => void = () => undefined;
    const stall = new Promise<void>((resolve) => (stalled = resolve));
    const slowStore: MemoryPort = {
      ...slow,
      listNotes: (folder, options) => slow.listNotes(folder, options),
      readNote: async (uri, options) => {
        const read = await slow.readNote(uri, options);
        if (uri === digestNote(project).uri) {
          stalled();
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        return read;
      },
    };
    const updating = updater(slowStore, stateDir).update();
    await stall;
    const forgetting = updater(store, stateDir).forget('use Redis for the rate limiter');
    const [updated, forgot] = await Promise.all([updating, forgetting]);
    expect(updated.kind).toBe('updated');
    expect(forgot).toMatchObject({ kind: 'forgotten', items: [{ text: 'use Redis for the rate limiter' }] });
    const digest = await digestOf(store);
    expect(digest.items.filter((item) => item.kind === 'decision').map((item) => item.text).sort()).toEqual(['deploy on Fly', 'write the docs in English']);
    expect(digest.forgotten.map((item) => item.text)).toEqual(['use Redis for the rate limiter']);
  });

  it('should leave the digest as it was when the store refuses the write, and say why without throwing', async () => {
    const base = await scratch();
    const store = await openStore(join(base, 'root'), join(base, 'state'));
    await writeNote(store, 's1', 1, { decisions: ['use SQLite for the cart'] });
    await updater(store, join(base, 'state')).update();
    const before = await digestOf(store);
    await writeNote(store, 's2', 2, { decisions: ['ship the checkout page first'] });
    const refusing: MemoryPort = { ...store, listNotes: (folder, options) => store.listNotes(folder, options), readNote: (uri, options) => store.readNote(uri, options), writeNote: async () => ({ ok: false, error: { code: 'IO_ERROR', message: 'ENOSPC: no space left on device' } }) };
    expect(await updater(refusing, join(base, 'state')).update()).toEqual({ kind: 'failed', reason: 'WriteMemory IO_ERROR' });
    expect(await updater(refusing, join(base, 'state')).forget('use SQLite for the cart')).toEqual({ kind: 'failed', reason: 'WriteMemory IO_ERROR' });
    expect(await digestOf(store)).toEqual(before);
    // A digest that cannot be read is never written over.
    const unreadable: MemoryPort = { ...store, listNotes: (folder, options) => store.listNotes(folder, options), readNote: async () => ({ ok: false, error: { code: 'TIMEOUT', message: 'slow' } }), writeNote: (note, options) => store.writeNote(note, options) };
    expect(await updater(unreadable, join(base, 'state')).update()).toEqual({ kind: 'failed', reason: 'ReadMemory of the digest TIMEOUT' });
    expect(await digestOf(store)).toEqual(before);
  });

  it('should log a line naming what the bounds dropped', async () => {
    const base = await scratch();
    const store = await openStore(join(base, 'root'), join(base, 'state'));
    await writeNote(store, 's1', 1, { problems: Array.from({ length: 27 }, (_, index) => `problem number ${index} of the build`) });
    const host = createFakeHost();
    const logger = createLogger(host.client);
    const outcome = await updater(store, join(base, 'state'), logger).update();
    expect(outcome.kind === 'updated' && outcome.dropped).toHaveLength(2);
    await logger.flush();
    expect(host.logs.map((line) => line.message).find((message) => message.startsWith('memory digest: 2 items past the bounds dropped'))).toContain('(project shop-');
  });

  it('should stop the store call in flight at close, let its lock go, and start none after', async () => {
    const base = await scratch();
    const store = await openStore(join(base, 'root'), join(base, 'state'));
    const calls: string[] = [];
    // A store that answers only when the call is stopped, as the CLI adapter does with its signal.
    const hanging: MemoryPort = {
      ...store,
      listNotes: (folder, options) => {
        calls.push('list');
        return new Promise((resolve) => options.signal?.addEventListener('abort', () => resolve({ ok: false, error: { code: 'TIMEOUT', message: 'stopped' } })));
      },
    };
    const digest = updater(hanging, join(base, 'state'));
    const updating = digest.update();
    await new Promise((resolve) => setTimeout(resolve, 50));
    digest.close();
    expect(await updating).toEqual({ kind: 'failed', reason: 'ListMemories TIMEOUT' });
    expect(await digest.update()).toEqual({ kind: 'failed', reason: 'shutting down' });
    expect(calls).toEqual(['list']);
    // The lock is free: another updater of the folder goes ahead at once.
    await writeNote(store, 's1', 1, { decisions: ['use SQLite for the cart'] });
    expect((await updater(store, join(base, 'state')).update()).kind).toBe('updated');
  });
});

describe('unfoldedNotes', () => {
  it("should list, newest first, the project's notes the digest has no mark of, an older one that came late among them", () => {
    const uri = (stamp: string, session: string): string => `memory://${project.noteFolder}/${project.noteSlugPrefix}${stamp}-${session}`;
    const listed = [uri('20261101-100000000', 's0'), uri('20261103-100000000', 's1'), uri('20261106-100000000', 's2'), uri('20261107-100000000', 's3'), digestNote(project).uri];
    const folded = { floor: '20261101-100000000-s0', marks: ['20261106-100000000-s2'] };
    expect(unfoldedNotes(listed, project, folded)).toEqual([uri('20261107-100000000', 's3'), uri('20261103-100000000', 's1')]);
    expect(unfoldedNotes(listed, project, null)).toHaveLength(4);
  });
});
