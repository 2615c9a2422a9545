import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/plugin-harness.js';
import { filePool } from '../../support/file-pool.js';
import { createDoubleRoot, type DoubleRoot } from '../../../support/maenifold-double.js';
import { message } from '../../../support/fake-host.js';
import { latestThought } from '../../../src/main/graph/project-memory.js';
import { resolveProject } from '../../../src/main/shared/project.js';
import { PROJECT_MEMORY_HEADING } from '../../../src/core/memory/project-memory.js';
import { countTokens } from '../../../src/core/text/tokens/tokens.js';
import { scratchFolders } from '../../support/scratch.js';

const pool = filePool();

const scratch = scratchFolders('projects');
const open: Harness[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const DECISION = 'use SQLite instead of Redis because it is simpler to ship';
const PROBLEM = 'expected 3 to be 2';
const NEXT = 'add the checkout page';
const SUMMARY_LINE = 'Moved the cart sessions from Redis to SQLite; the cart total test still fails.';

/** A short session of the shop project: a decision, a failing test, a next step. */
function conversation(sessionID: string): unknown[] {
  const tool = (name: string, input: unknown, output: string): unknown => ({ type: 'tool', callID: `call_${name}`, tool: name, state: { status: 'completed', input, output, title: name, metadata: {}, time: { start: 1, end: 2 } } });
  return [
    message('m1', 'user', 'The cart service keeps its sessions in Redis. Can we make it simpler to deploy?'),
    message('m2', 'assistant', `We decided to ${DECISION}. I will move the session store to SQLite in src/session-store.ts.`, {}, [
      tool('edit', { filePath: 'src/session-store.ts', oldString: 'redis', newString: 'sqlite' }, 'Edit applied successfully.'),
    ]),
    message('m3', 'assistant', 'Running the tests now.', {}, [tool('bash', { command: 'npm test' }, `FAIL test/cart.test.ts > cart total\nAssertionError: ${PROBLEM}\n Tests  1 failed | 12 passed`)]),
    message('m4', 'assistant', 'The cart test fails after the switch to SQLite. Next step: fix the rounding in cartTotal() in src/cart.ts and run npm test again.'),
    message('m5', 'user', `OK, next we also need to ${NEXT} after that.`),
  ].map((entry) => ({ ...(entry as object), info: { ...(entry as { info: object }).info, sessionID } }));
}

/** The session after the host compacted it: the compaction request and the model's summary follow. */
function compacted(sessionID: string): unknown[] {
  return [
    ...conversation(sessionID),
    message('m6', 'user', '', {}, [{ type: 'compaction', auto: false }]),
    message('m7', 'assistant', `## Goal\nShip the cart.\n\n## Progress\n${SUMMARY_LINE}`, { summary: true, mode: 'compaction' }),
  ];
}

async function systemFor(harness: Harness, sessionID: string): Promise<string> {
  const output = { system: ['You are the build agent.'] };
  await harness.plugin.hooks['experimental.chat.system.transform']?.({ sessionID, model: { id: 'm' } } as never, output);
  return output.system.join('\n');
}

/** A compaction as OpenCode runs it: the hook, then the summary stored, then the event. */
async function compact(harness: Harness, sessionID: string): Promise<void> {
  harness.host.setMessages(sessionID, conversation(sessionID));
  const output = { context: [] as string[] };
  await harness.plugin.hooks['experimental.session.compacting']?.({ sessionID }, output);
  await harness.plugin.background.idle();
  harness.host.setMessages(sessionID, compacted(sessionID));
  await harness.plugin.hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID } } });
  await harness.plugin.background.idle();
}

async function folders(): Promise<{ root: DoubleRoot; stateDir: string; shop: string; other: string; empty: string }> {
  const root = await createDoubleRoot();
  const base = await scratch();
  const stateDir = join(base, 'state');
  const [shop, other, empty] = ['a/shop', 'b/shop', 'c/blog'].map((path) => join(base, path)) as [string, string, string];
  await Promise.all([stateDir, shop, other, empty].map((dir) => mkdir(dir, { recursive: true })));
  cleanups.push(() => root.cleanup());
  return { root, stateDir, shop, other, empty };
}

describe('project memory at session start', () => {
  for (const store of ['files', 'maenifold'] as const) {
    it(`should give the next session of the project what was decided, what is broken, what comes next and the summary, after one compaction (${store} store)`, async () => {
      const { root, stateDir, shop, other, empty } = await folders();
      const start = (worktree: string): Promise<Harness> => startHarness({ store }, {}, undefined, { pool: pool(), double: root, stateDir, worktree }).then((harness) => (open.push(harness), harness));
      const first = await start(shop);
      await compact(first, 'ses_shop');

      // The same process, a new session.
      const same = await systemFor(first, 'ses_next');
      // A new process of the same project.
      const restarted = await systemFor(await start(shop), 'ses_later');
      for (const text of [same, restarted]) {
        const block = text.slice(text.indexOf(PROJECT_MEMORY_HEADING));
        expect(text).toContain(PROJECT_MEMORY_HEADING);
        expect(block).toContain(`> ${SUMMARY_LINE}`);
        expect(block.split('\n').some((line) => line.includes(DECISION))).toBe(true);
        expect(block.split('\n').some((line) => line.includes(PROBLEM))).toBe(true);
        expect(block.split('\n').some((line) => line.includes(NEXT))).toBe(true);
        expect(countTokens(block)).toBeLessThanOrEqual(4_000);
      }

      // Another folder of the same name, and an unrelated project, in the same memory root: nothing of it.
      for (const worktree of [other, empty]) {
        const text = await systemFor(await start(worktree), 'ses_elsewhere');
        expect(text).not.toContain(PROJECT_MEMORY_HEADING);
        expect(text).not.toContain('SQLite');
        expect(text).not.toContain('cart');
      }
    });
  }

  it('should read everything of memory when the scope is widened on purpose', async () => {
    const { root, stateDir, shop, empty } = await folders();
    const first = await startHarness({ store: 'files' }, {}, undefined, { pool: pool(), double: root, stateDir, worktree: shop });
    open.push(first);
    await compact(first, 'ses_shop');
    await compact(first, 'ses_shop_2');
    await compact(first, 'ses_shop_3');
    const wide = await startHarness({ store: 'files', memoryScope: 'all' }, {}, undefined, { pool: pool(), double: root, stateDir, worktree: empty });
    open.push(wide);
    const narrow = await startHarness({ store: 'files' }, {}, undefined, { pool: pool(), double: root, stateDir, worktree: empty });
    open.push(narrow);
    // Three notes link the same concepts: strong enough for the graph, but only the wide scope sees them.
    expect(await systemFor(wide, 'ses_wide')).toContain('## Knowledge Graph Context');
    expect(await systemFor(narrow, 'ses_narrow')).toBe('You are the build agent.');
  });
});

describe('latestThought', () => {
  it("should give the newest thought's summary without the linked header and the stamp", () => {
    const file = [
      '# Sequential Thinking Session',
      '',
      '## Thought 0/1 [agent]',
      '',
      'Compaction summary of session ses_1 in [[shop]] ([[compaction]]).',
      '',
      'Old summary.',
      '',
      '*2026-11-27 10:00:00*',
      '',
      '## Thought 1/2 [agent]',
      '',
      'Compaction summary of session ses_2 in [[shop]] ([[compaction]]).',
      '',
      '## Goal',
      'New summary.',
      '',
      '*2026-11-28 10:00:00*',
      '',
      '## Conclusion',
      '',
      'Latest [[compaction]] summary recorded.',
    ].join('\n');
    expect(latestThought(file)).toBe('## Goal\nNew summary.');
    expect(latestThought('# Sequential Thinking Session\n')).toBe('');
  });
});
