import { cp } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../src/core/text/tokens/tokens.js';
import { loadCorpus } from '../../src/eval/corpus.js';
import { lastCompactionSummary, runContinuity, type ContinuityReport, type ContinuityRun } from '../../src/eval/continuity.js';
import { scratchFolders } from '../support/scratch.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/eval/continuity/', import.meta.url));

describe('lastCompactionSummary', () => {
  it('should take the last assistant summary with text, skipping an empty one', () => {
    const summary = (text: string): unknown => ({ info: { role: 'assistant', summary: true }, parts: [{ type: 'text', text }] });
    expect(lastCompactionSummary([summary('first'), { info: { role: 'user', summary: true }, parts: [{ type: 'text', text: 'not this' }] }, summary('  ')])).toBe('first');
    expect(lastCompactionSummary([{ info: { role: 'assistant' }, parts: [{ type: 'text', text: 'a reply' }] }])).toBeNull();
  });
});

// One run of the whole harness over two hand-written sessions: each scenario is a process that starts
// the plugin's default export five times, so the run is shared by the assertions below.
describe('runContinuity', () => {
  let corpus: string;
  let report: ContinuityReport;
  let runs: ContinuityRun[];

  const scratch = scratchFolders('continuity-corpus', 'all');
  beforeAll(async () => {
    corpus = await scratch();
    await cp(FIXTURE, corpus, { recursive: true });
    // Each scenario starts five plugins, each with a pool: without the warm-up, which only makes a
    // worker's first extraction faster, each start costs about 0.4 s of CPU less.
    ({ report, runs } = await runContinuity(await loadCorpus(corpus), { pluginOptions: { pool: { threads: 1, niceness: 0, warmUp: false } } }));
    // About 8 s of CPU; a machine shared with other work may stretch it.
  }, 180_000);

  it('should run every session of the corpus through its scenario, each beside the next one', () => {
    expect(report.sessions).toBe(2);
    expect(runs.map((run) => [run.name, run.ok, run.other, run.failure])).toEqual([
      ['storage-choice', true, 'theme-tokens', undefined],
      ['theme-tokens', true, 'storage-choice', undefined],
    ]);
    expect(report.ok).toBe(2);
  });

  it('should report the mean tokens of what the next sessions received', () => {
    const tokens = runs.map((run) => countTokens(run.received ?? ''));
    expect(report.tokens_mean).toBe((tokens[0]! + tokens[1]!) / 2);
    expect(runs.map((run) => run.tokens)).toEqual(tokens);
  });

  // Fails until session start gives a new session the project's memory: today it receives nothing.
  it("should hand a plainly stated decision to the project's next session, and nothing of the other project", () => {
    const storage = runs.find((run) => run.name === 'storage-choice');
    expect(storage?.score.missed.decisions).toEqual([]);
    expect(storage?.score.counts.decisionHits).toBe(1);
    expect(report.leaked_items).toBe(0);
  });
});
