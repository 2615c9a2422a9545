import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../support/plugin-harness.js';
import { filePool } from '../../../support/file-pool.js';
import { scratchFolders } from '../../../support/scratch.js';
import { createDoubleRoot } from '../../../../support/maenifold-double.js';
import { message } from '../../../../support/fake-host.js';
import { forgetItem, readMemoryReport } from '../../../../src/cli/memory-command.js';
import { PROJECT_MEMORY_HEADING } from '../../../../src/core/memory/project-memory.js';
import { parseDigest } from '../../../../src/core/memory/digest.js';
import { digestNote } from '../../../../src/main/memory/digest/digest-note.js';
import { memoryFilePath } from '../../../../src/core/memory/memory-format.js';
import { resolveProject } from '../../../../src/main/shared/project.js';
import { readFile } from 'node:fs/promises';

const pool = filePool();
const scratch = scratchFolders('digest-forget');
const open: Harness[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const WRONG = 'use Redis for the cart sessions because the old service did';
const RIGHT = 'keep the prices in integer cents because floats round wrong';

/** A session that makes both decisions, in the words the extraction keeps. */
function conversation(sessionID: string): unknown[] {
  return [
    message('m1', 'user', 'The cart needs a place for its sessions and a way to store prices. Can you set both up?'),
    message('m2', 'assistant', `We decided to ${WRONG}.`),
    message('m3', 'user', 'And the prices?'),
    message('m4', 'assistant', `We decided to ${RIGHT}.`),
    message('m5', 'user', 'Fine, go on with the checkout after that, and keep the tests green.'),
  ].map((entry) => ({ ...(entry as object), info: { ...(entry as { info: object }).info, sessionID } }));
}

async function compact(harness: Harness, sessionID: string): Promise<void> {
  harness.host.setMessages(sessionID, conversation(sessionID));
  await harness.plugin.hooks['experimental.session.compacting']?.({ sessionID }, { context: [] as string[] });
  // The host says the compaction is over: its digest pass, which waited for that, folds the note.
  await harness.plugin.hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID } } });
  await harness.plugin.background.idle();
}

async function blockFor(harness: Harness, sessionID: string): Promise<string> {
  const output = { system: ['You are the build agent.'] };
  await harness.plugin.hooks['experimental.chat.system.transform']?.({ sessionID, model: { id: 'm' } } as never, output);
  const text = output.system.join('\n');
  return text.includes(PROJECT_MEMORY_HEADING) ? text.slice(text.indexOf(PROJECT_MEMORY_HEADING)) : '';
}

describe('forgetItem', () => {
  for (const store of ['files', 'maenifold'] as const) {
    it(`should drop a decision for good, so a later compaction that says it again does not bring it back (${store} store)`, async () => {
      const root = await createDoubleRoot();
      cleanups.push(() => root.cleanup());
      const base = await scratch();
      const [stateDir, shop] = [join(base, 'state'), join(base, 'shop')];
      await mkdir(shop, { recursive: true });
      const start = async (): Promise<Harness> => {
        const harness = await startHarness({ store }, {}, undefined, { pool: pool(), double: root, stateDir, worktree: shop });
        open.push(harness);
        return harness;
      };
      const request = { dir: shop, store, stateDir, env: { ...process.env, ...root.env, HOME: stateDir } };

      await compact(await start(), 'ses_first');
      // The compaction's background work folded its note into the project's digest, in the store.
      const digestFile = memoryFilePath(join(root.root, 'memory'), digestNote(resolveProject('', shop)).uri);
      const digest = parseDigest(await readFile(digestFile, 'utf8'), '', '');
      expect(digest.folded?.uri).toContain('/compaction-');
      expect(digest.items.some((item) => item.text.includes(WRONG))).toBe(true);
      // What the command shows is what the next session receives.
      const shown = await readMemoryReport(request);
      const next = await blockFor(await start(), 'ses_look');
      expect(shown.block).toBe(next);
      expect(shown.block).toContain(WRONG);
      expect(shown.block).toContain(RIGHT);
      const wrong = shown.items.find((item) => item.kind === 'decision' && item.text.includes(WRONG));
      expect(wrong).toMatchObject({ source: 'heuristic', confirmed: 1 });

      expect(await forgetItem(wrong?.id ?? '', request)).toMatch(new RegExp(`^forgot ${wrong?.id} \\(decision, heuristic\\): .*${WRONG}`));
      await expect(forgetItem(wrong?.id ?? '', request)).rejects.toThrow(`no item with id ${wrong?.id} in the project's memory`);

      // Another session of the project says it again.
      await compact(await start(), 'ses_second');
      const later = await blockFor(await start(), 'ses_later');
      expect(later).toContain(RIGHT);
      expect(later).not.toContain(WRONG);
      expect((await readMemoryReport(request)).items.some((item) => item.text.includes(WRONG))).toBe(false);
    });
  }
});
