import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { digestRefresher, type DigestRefresher } from '../../../../src/main/memory/digest/digest-refresh.js';
import { createDigestUpdater, type DigestUpdater } from '../../../../src/main/memory/digest/digest-updater.js';
import { digestNote } from '../../../../src/main/memory/digest/digest-note.js';
import { createFileStore, type FileStore } from '../../../../src/main/memory/files/file-store.js';
import { createBackgroundWork, type BackgroundWork } from '../../../../src/main/shared/background-work.js';
import { createLogger } from '../../../../src/main/shared/logger.js';
import { resolveProject } from '../../../../src/main/shared/project.js';
import { parseDigest } from '../../../../src/core/memory/digest.js';
import { createFakeHost, message, type FakeHost } from '../../../../support/fake-host.js';
import { startHarness, type Harness } from '../../../support/plugin-harness.js';
import { filePool } from '../../../support/file-pool.js';
import { scratchFolders } from '../../../support/scratch.js';

const pool = filePool();
const scratch = scratchFolders('digest-refresh');
const project = resolveProject('shop', '');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Rig {
  store: FileStore;
  refresher: DigestRefresher;
  background: BackgroundWork;
  host: FakeHost;
  /** Passes started so far. */
  passes: () => number;
  note(session: string, day: number, decision: string): Promise<void>;
}

/** A refresher over a real updater on the built-in file store (indexed in the shared pool), counting the updater's passes. */
async function rig(waitMs?: number): Promise<Rig> {
  const base = await scratch();
  const store = createFileStore({ root: join(base, 'root'), stateDir: join(base, 'state'), runner: pool(), logger: createLogger(undefined), index: { freshForMs: 0, persistDelayMs: 0, watch: false } });
  const host = createFakeHost();
  const logger = createLogger(host.client);
  const updater = createDigestUpdater({ memory: store, project, stateDir: join(base, 'state'), logger, timeoutMs: 5_000 });
  let passes = 0;
  const counting: DigestUpdater = { ...updater, update: () => ((passes += 1), updater.update()) };
  const background = createBackgroundWork(() => undefined);
  const refresher = digestRefresher(counting, background, logger, waitMs);
  cleanups.push(async () => {
    await refresher.close();
    await store.close();
  });
  return {
    store,
    refresher,
    background,
    host,
    passes: () => passes,
    async note(session, day, decision) {
      const content = `# Compaction Summary\n\n**Session**: ${session}\n**Project**: ${project.concept}\n**Timestamp**: 2026-11-0${day}T10:00:00.000Z\n\n## Key Concepts\n\n- [[cart]]\n\n## Decisions Made\n\n- ${decision}\n`;
      const written = await store.writeNote({ title: `Compaction ${project.key.replace(/-/g, ' ')} 2026110${day} 100000000 ${session}`, content, folder: project.noteFolder }, { timeoutMs: 5_000 });
      expect(written.ok).toBe(true);
    },
  };
}

async function decisions(store: FileStore): Promise<string[]> {
  const read = await store.readNote(digestNote(project).uri, { timeoutMs: 5_000 });
  if (!read.ok) throw new Error(read.error.message);
  return parseDigest(read.value.content, '', '')
    .items.filter((item) => item.kind === 'decision')
    .map((item) => item.text)
    .sort();
}

describe('digestRefresher', () => {
  it("should fold a compaction's note and its summary's in one pass, started by the summary, and log what it folded", async () => {
    const { store, refresher, background, host, passes, note } = await rig();
    await note('s1', 1, 'use SQLite for the cart');
    refresher.defer('s1');
    await background.idle();
    // The compaction's pass waits for the summary.
    expect(passes()).toBe(0);
    await note('s1', 2, 'keep the REST API unchanged');
    refresher.summarized('s1', true);
    await background.idle();
    expect(passes()).toBe(1);
    // The summary's note supersedes the compaction's: what it no longer says left.
    expect(await decisions(store)).toEqual(['keep the REST API unchanged']);
    expect(host.logs.map((line) => line.message)).toContain(`memory digest: 2 notes folded, 2 items (project ${project.key})`);
  });

  it('should run requests made while a pass runs as one more pass after it, covering them all', async () => {
    const { refresher, background, passes, note, store } = await rig();
    await note('s1', 1, 'use SQLite for the cart');
    refresher.summarized('s1', true);
    await note('s2', 2, 'ship the checkout page first');
    refresher.summarized('s2', true);
    refresher.summarized('s3', true);
    await background.idle();
    expect(passes()).toBe(2);
    expect(await decisions(store)).toEqual(['ship the checkout page first', 'use SQLite for the cart']);
  });

  it('should start a waiting pass when the summary hands no note, at shutdown, after the wait, and at once for a note whose summary came first', async () => {
    const { refresher, background, passes, note } = await rig(1);
    await note('s1', 1, 'use SQLite for the cart');
    refresher.defer('s1');
    // Another session's summary does not end this one's wait; its own, without a note, does.
    refresher.summarized('s2', false);
    expect(background.pending).toBe(0);
    refresher.summarized('s1', false);
    await background.idle();
    expect(passes()).toBe(1);
    refresher.defer('s3');
    refresher.flush();
    await background.idle();
    expect(passes()).toBe(2);
    // s2's summary came before its note: the note has its pass at once.
    refresher.defer('s2');
    await background.idle();
    expect(passes()).toBe(3);
    refresher.defer('s4');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await background.idle();
    expect(passes()).toBe(4);
  });

  it('should fold a compaction and its summary in one pass through the plugin, its log line saying what it folded', async () => {
    const base = await scratch();
    const harness: Harness = await startHarness({ store: 'files', rules: false, sessionStart: false }, {}, undefined, { pool: pool(), stateDir: join(base, 'state'), worktree: '/work/acme-shop' });
    cleanups.push(() => harness.close());
    const summary = ['## Goal', 'Move the cart to SQLite.', '## Decisions (each with its reason)', '- Keep the REST API unchanged, because the mobile app calls it'].join('\n');
    const entries = [
      message('m1', 'user', 'Make the cart store survive restarts.'),
      message('m2', 'assistant', 'We decided to use SQLite for the cart store instead of Redis because one file survives restarts.'),
      message('m3', 'user', '', {}, [{ type: 'compaction', auto: false }]),
      message('m4', 'assistant', summary, { summary: true, mode: 'compaction' }),
    ].map((entry) => ({ ...(entry as object), info: { ...(entry as { info: object }).info, sessionID: 'ses_one' } }));
    harness.host.setMessages('ses_one', entries);
    await harness.plugin.hooks['experimental.session.compacting']?.({ sessionID: 'ses_one' }, { context: [] });
    await harness.plugin.hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID: 'ses_one' } } });
    await harness.plugin.background.idle();
    await harness.plugin.logger.flush();
    // The compaction's note and the note superseding it, in one pass: one list, one digest written.
    const folded = harness.host.logs.map((line) => line.message).filter((line) => /^memory digest: \d+ notes folded/.test(line));
    expect(folded).toHaveLength(1);
    expect(folded[0]).toMatch(/^memory digest: 2 notes folded, \d+ items \(project acme-shop-[0-9a-f]{8}\)$/);
  });
  it('should fold a compaction at once through the plugin when summaries are off, with no summary to wait for', async () => {
    const base = await scratch();
    const harness: Harness = await startHarness({ store: 'files', rules: false, sessionStart: false, summaries: false }, {}, undefined, { pool: pool(), stateDir: join(base, 'state'), worktree: '/work/acme-shop' });
    cleanups.push(() => harness.close());
    const entries = [
      message('m1', 'user', 'Make the cart store survive restarts.'),
      message('m2', 'assistant', 'We decided to use SQLite for the cart store instead of Redis because one file survives restarts.'),
    ].map((entry) => ({ ...(entry as object), info: { ...(entry as { info: object }).info, sessionID: 'ses_one' } }));
    harness.host.setMessages('ses_one', entries);
    await harness.plugin.hooks['experimental.session.compacting']?.({ sessionID: 'ses_one' }, { context: [] });
    await harness.plugin.background.idle();
    await harness.plugin.logger.flush();
    const folded = harness.host.logs.map((line) => line.message).filter((line) => /^memory digest: \d+ notes folded/.test(line));
    expect(folded).toEqual([expect.stringMatching(/^memory digest: 1 notes folded, \d+ items \(project acme-shop-[0-9a-f]{8}\)$/)]);
  });
});
