/**
 * The model's closing lists, through the real hooks: a compaction writes the session's note, the summary's
 * arrival supersedes it with the model's items, and the next session's Project Memory block shows them
 * first. The built-in file store keeps the memory; a restart reads the session's note back.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/plugin-harness.js';
import { filePool } from '../../support/file-pool.js';
import { createDoubleRoot } from '../../../support/maenifold-double.js';
import { message } from '../../../support/fake-host.js';
import { resolveProject } from '../../../src/main/shared/project.js';
import { scratchFolders } from '../../support/scratch.js';

const pool = filePool();
const scratch = scratchFolders('model-items');
const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

const WORKTREE = '/work/acme-shop';
const PROJECT = resolveProject('', WORKTREE);

/** A 1.x summary of the template's shape, closed with the lists the compaction context asks for. */
const SUMMARY = [
  '## Goal',
  'Move the cart to SQLite.',
  '## Accomplished',
  'The cart store reads SQLite now.',
  '## Decisions (each with its reason)',
  '- Keep the REST API unchanged, because the mobile app calls it',
  '## Open problems (what is still broken or unknown)',
  '- the checkout total rounds half cents down',
  '## Next steps (what to do next)',
  '- port the cart tests to the SQLite fixture',
].join('\n');

/** The session as the host lists it after its compaction. */
function session(sessionID: string, summary: string): unknown[] {
  const entries = [
    message('m1', 'user', 'Make the [[redis]] cart store simpler; it keeps losing carts on restart.'),
    message('m2', 'assistant', 'We decided to use SQLite for the cart store instead of Redis because one file survives restarts.'),
    message('m3', 'user', '', {}, [{ type: 'compaction', auto: false }]),
    message('m4', 'assistant', summary, { summary: true, mode: 'compaction' }),
  ];
  return entries.map((entry) => ({ ...(entry as object), info: { ...(entry as { info: object }).info, sessionID } }));
}

describe('model items', () => {
  it("should put a 1.x summary's lists into the next session's block as the model's items, ahead of extracted ones", async () => {
    const root = await createDoubleRoot();
    open.push(() => root.cleanup());
    const stateDir = join(await scratch(), 'state');
    const start = async (): Promise<Harness> => {
      const harness = await startHarness({ store: 'files', rules: false, sessionStart: true }, {}, undefined, { pool: pool(), double: root, stateDir, worktree: WORKTREE });
      open.push(() => harness.close());
      return harness;
    };
    const notes = async (): Promise<string[]> => {
      const folder = join(root.root, 'memory', PROJECT.noteFolder);
      // The project's memory digest sits beside its notes: only the session notes count.
      const files = (await readdir(folder)).filter((file) => file.endsWith('.md') && file.startsWith(PROJECT.noteSlugPrefix)).sort();
      return Promise.all(files.map((file) => readFile(join(folder, file), 'utf8')));
    };

    const first = await start();
    first.host.setMessages('ses_one', session('ses_one', SUMMARY));
    await first.plugin.hooks['experimental.session.compacting']?.({ sessionID: 'ses_one' }, { context: [] });
    await first.plugin.background.idle();
    await first.plugin.hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID: 'ses_one' } } });
    await first.plugin.background.idle();
    const written = await notes();
    // The compaction note, then the one that supersedes it: the model's items marked, the extracted ones kept.
    expect(written).toHaveLength(2);
    expect(written[1]).toContain('- (summary) Keep the REST API unchanged, because the mobile app calls it');
    expect(written[1]).toContain('- (summary) port the cart tests to the SQLite fixture');
    expect(written[1]).toMatch(/^- [^(].*SQLite for the cart store/m);

    // The next session, in a new process: the block shows the model's decision first and each item once.
    const later = await start();
    const output = { system: ['You are the build agent.'] };
    await later.plugin.hooks['experimental.chat.system.transform']?.({ sessionID: 'ses_two', model: { id: 'm' } } as never, output);
    const block = output.system.join('\n');
    const decisions = block.slice(block.indexOf('### Decisions'));
    expect(decisions.indexOf('Keep the REST API unchanged')).toBeGreaterThan(0);
    expect(decisions.indexOf('Keep the REST API unchanged')).toBeLessThan(decisions.indexOf('SQLite for the cart store'));
    expect(block).toContain('the checkout total rounds half cents down');
    expect(block.split('port the cart tests to the SQLite fixture')).toHaveLength(2);
    expect(block).toContain('> Move the cart to SQLite.');

    // Its summary arrives again in the new process: the session's extracted items are read back from its note.
    later.host.setMessages('ses_one', session('ses_one', `${SUMMARY}\n## Settled problems\n- carts lost on restart: SQLite keeps them`));
    await later.plugin.hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID: 'ses_one' } } });
    await later.plugin.background.idle();
    // The same summary again (the event may arrive twice) writes nothing more.
    await later.plugin.hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID: 'ses_one' } } });
    await later.plugin.background.idle();
    const again = await notes();
    expect(again).toHaveLength(3);
    expect(again[2]).toContain('- (summary) carts lost on restart: SQLite keeps them');
    expect(again[2]).toMatch(/^- [^(].*SQLite for the cart store/m);
  });
});
