/**
 * The compacting hook against hostile input: it always returns with the
 * guidelines and an exactly budgeted, clean preservation context. The deadline
 * is set beyond what the largest case needs on a loaded machine, so every case
 * must produce its context (the deadline path itself is tested in
 * compaction.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/plugin-harness.js';
import { HOSTILE_CASES } from '../../support/hostile-corpus.js';
import { COMPACTION_GUIDELINES } from '../../../src/main/compaction/tagging-guidelines.js';
import { countTokens } from '../../../src/core/text/tokens/tokens.js';
import { PRESERVATION_HEADING } from '../../../src/core/context/preservation-context.js';

// The largest case takes about a second on two shared cores; the deadline and the task timeout leave room
// for a hundred times that.
const DEADLINE_MS = 300_000;
const HANG_MS = DEADLINE_MS + 20_000;
const UNSAFE = /[\u0000\u202a-\u202e\u2066-\u2069\u200b\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

let harness: Harness;

beforeAll(async () => {
  // Each compaction's note goes to the built-in file store, not through the CLI double: the hook is under test
  // here, and a CLI process per note cost a quarter of a second on every case.
  // One worker: a second one only runs a case's batches side by side, and loads and optimizes the same code again.
  harness = await startHarness({ compactionDeadlineMs: DEADLINE_MS, store: 'files', pool: { threads: 1, taskTimeoutMs: DEADLINE_MS } });
});
afterAll(async () => {
  await harness.close();
});

describe('the compacting hook on hostile input', () => {
  for (const [index, hostile] of HOSTILE_CASES.entries()) {
    it(`should return clean, budgeted preservation context: ${hostile.name}`, { timeout: HANG_MS + 30_000 }, async () => {
      const sessionID = `ses_hostile_${index}`;
      harness.host.setMessages(sessionID, hostile.messages());
      const output = { context: [] as string[] };
      // The timer goes once the race is decided: the file's worker runs other files after this one.
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        harness.plugin.hooks['experimental.session.compacting']?.({ sessionID }, output).then(() => 'returned'),
        new Promise((resolve) => (timer = setTimeout(() => resolve('hung'), HANG_MS))),
      ]);
      clearTimeout(timer);
      expect(outcome).toBe('returned');
      expect(output.context[0]).toBe(COMPACTION_GUIDELINES);
      expect(output.context).toHaveLength(2);
      const preserved = output.context[1] ?? '';
      expect(preserved).toContain(PRESERVATION_HEADING);
      expect(countTokens(preserved)).toBeLessThanOrEqual(500);
      expect(preserved).not.toMatch(UNSAFE);
      await harness.plugin.background.idle();
      harness.host.setMessages(sessionID, []);
    });
  }
});
