import { describe, expect, it } from 'vitest';
import { runSoak } from '../../../support/soak.js';

// Real processes (support/submit-thought.ts) on one state folder and one memory root.
// Each soak has its own double root and state folder, and most of a soak is spent waiting on the slowed
// CLI double and on stale locks, so the four run at once.
describe.concurrent('delivery shared by processes', () => {
  for (const store of ['cli', 'files'] as const) {
    it(`should put 2 × 5 summaries submitted at once into one chain, each once, numbered without repeats (${store})`, async () => {
      const result = await runSoak({ rounds: 1, store, killChance: 0 });
      expect(result).toMatchObject({ kills: 0, owed: 10, delivered: 10, lost: 0, duplicated: 0, chains: 1, chainsWithRepeatedNumbers: 0, parked: 0, leftInOutbox: 0 });
    });

    it(`should lose and duplicate nothing when processes are killed at random points (${store}, 2 rounds)`, async () => {
      // Kills early in the send, counted from when the summaries are on disk: each kill cuts a delivery that
      // is owed, however long a loaded machine takes to start the process.
      const result = await runSoak({ rounds: 2, store, killChance: 0.75, killWithinMs: 300, killFrom: 'stored', seed: 7 });
      expect(result.kills).toBeGreaterThan(0);
      expect(result.owed).toBeGreaterThan(0);
      expect(result).toMatchObject({ lost: 0, duplicated: 0, chainsWithRepeatedNumbers: 0, parked: 0, leftInOutbox: 0 });
    });
  }
});
