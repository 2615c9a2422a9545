/**
 * The compacting hook against the adversarial corpus: whatever the session
 * holds, the hook resolves and pushes the guidelines first and one
 * preservation context, exactly within its budget and free of characters that
 * make a note read differently from what it says. The deadline is set past
 * what any case needs on a loaded two-core machine, so every case must
 * produce its context (the deadline path is tested in compaction.test.ts).
 * How long the hook takes is measured by the benchmarks, not here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/plugin-harness.js';
import { ADVERSARIAL_CASES, ordinarySession, workerExhaustingSession } from '../../support/adversarial-corpus.js';
import { COMPACTION_GUIDELINES } from '../../../src/main/compaction/tagging-guidelines.js';
import { PRESERVATION_HEADING } from '../../../src/core/context/preservation-context.js';
import { countTokens } from '../../../src/core/text/tokens/tokens.js';

// Far past the slowest case on two shared cores, so a loaded machine cannot turn a slow case into a miss
// (one message object repeated 100k times: 14 s alone; setext headings took 43 s before sections with
// such shapes were read as plain lines).
const DEADLINE_MS = 300_000;
/** Past the deadline, how long the hook may take before it counts as hung. */
const HANG_MARGIN_MS = 10_000;
/** The hook, then the background note. */
const CASE_TIMEOUT_MS = DEADLINE_MS + HANG_MARGIN_MS + 40_000;
const BUDGET_TOKENS = 500;

/** NUL and other controls, bidi controls, zero-width space, BOM, and either half of a surrogate pair alone. */
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Log fragments that mean the extraction, the pool or the hook failed rather than ran late. */
const FAILURES = ['extraction failed', 'pool could not run', 'hook failed'];
const LATE = 'extraction not ready within';

interface Compacted {
  outcome: 'returned' | 'rejected' | 'hung';
  context: string[];
}

/** Runs the compacting hook, raced against a timer: a hook that never settles loses. */
async function compactRaced(harness: Harness, sessionID: string, hangMs: number): Promise<Compacted> {
  const hook = harness.plugin.hooks['experimental.session.compacting'];
  const output = { context: [] as string[] };
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), hangMs);
  });
  const settled = Promise.resolve()
    .then(() => hook?.({ sessionID }, output))
    .then(
      () => 'returned' as const,
      () => 'rejected' as const,
    );
  const outcome = await Promise.race([settled, hung]);
  clearTimeout(timer);
  return { outcome, context: output.context };
}

/** What every compaction must leave in `output.context`: the guidelines, then one clean, budgeted preservation context. */
function expectSafeContext(context: readonly string[]): void {
  expect(context[0]).toBe(COMPACTION_GUIDELINES);
  expect(context).toHaveLength(2);
  const preserved = context[1] ?? '';
  expect(preserved).toContain(PRESERVATION_HEADING);
  expect(countTokens(preserved)).toBeLessThanOrEqual(BUDGET_TOKENS);
  expect(preserved).not.toMatch(UNSAFE);
}

async function countLines(harness: Harness, fragments: readonly string[]): Promise<number> {
  await harness.plugin.logger.flush();
  return fragments.reduce((sum, fragment) => sum + harness.host.linesWith(fragment).length, 0);
}

describe('the compacting hook on adversarial input', () => {
  let harness: Harness;

  beforeAll(async () => {
    // Notes go to the built-in file store, not through the CLI double: the hook is under test here, and a CLI
    // process per note cost a quarter of a second on every case. One worker: a second one only runs a case's
    // batches side by side, and starts and optimizes the same code again.
    harness = await startHarness({ compactionDeadlineMs: DEADLINE_MS, store: 'files', pool: { threads: 1, taskTimeoutMs: DEADLINE_MS } });
  });
  afterAll(async () => {
    await harness?.close();
  });

  for (const [index, source] of ADVERSARIAL_CASES.entries()) {
    it(`should return a clean, budgeted preservation context: ${source.name}`, { timeout: CASE_TIMEOUT_MS }, async () => {
      const sessionID = `ses_adv_${index}`;
      harness.host.setMessages(sessionID, source.build().messages);
      const failuresBefore = await countLines(harness, FAILURES);
      const lateBefore = await countLines(harness, [LATE]);

      const run = await compactRaced(harness, sessionID, DEADLINE_MS + HANG_MARGIN_MS);
      expect(run.outcome).toBe('returned');
      expectSafeContext(run.context);

      await harness.plugin.background.idle();
      harness.host.setMessages(sessionID, []);
      expect(await countLines(harness, FAILURES)).toBe(failuresBefore);
      expect(await countLines(harness, [LATE])).toBe(lateBefore);
    });
  }
});

describe('the compacting hook on a message that once exhausted a worker', () => {
  let harness: Harness | undefined;
  afterAll(async () => {
    await harness?.close();
  });

  it(
    'should extract, within a 64 MB worker, a message that NFKC expands eighteen-fold, and serve the next compaction from the pool',
    { timeout: CASE_TIMEOUT_MS },
    async () => {
      // This input once killed a 64 MB worker: a stage copied the whole expanded prose. Every stage now
      // reads a bounded part of a message, and the sanitizer keeps only the first 1,000 of the ligatures
      // that expand most (a megabyte of them expanded to 36 MB, close to the whole heap), so the worker survives it. That a dead worker is replaced is
      // tested on the pool itself (worker-pool.test.ts), with a worker that exhausts its heap on purpose.
      // One worker: the one that read the expanded message must also serve the next compaction.
      harness = await startHarness({ compactionDeadlineMs: DEADLINE_MS, store: 'files', pool: { threads: 1, workerHeapMb: 64, taskTimeoutMs: DEADLINE_MS } });
      harness.host.setMessages('ses_oom', workerExhaustingSession());
      const expanded = await compactRaced(harness, 'ses_oom', DEADLINE_MS + HANG_MARGIN_MS);
      expect(expanded.outcome).toBe('returned');
      expectSafeContext(expanded.context);
      await harness.plugin.background.idle();
      expect(await countLines(harness, ['WORKER_CRASHED', 'hook failed', 'ran it inline', LATE])).toBe(0);
      expect(expanded.context[1]).toContain('[[redis]]');

      harness.host.setMessages('ses_after_oom', ordinarySession());
      const after = await compactRaced(harness, 'ses_after_oom', DEADLINE_MS + HANG_MARGIN_MS);
      expect(after.outcome).toBe('returned');
      expectSafeContext(after.context);
      expect(after.context[1]).toContain('[[redis]]');
      await harness.plugin.background.idle();
      expect(await countLines(harness, ['ran it inline'])).toBe(0);
      expect(harness.plugin.pool?.stats().threads).toBe(1);
    },
  );
});
