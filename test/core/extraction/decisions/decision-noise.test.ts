import { describe, expect, it } from 'vitest';
import { cuesFor } from '../../../../src/core/text/cues/cues.js';
import { proseItems } from '../../../../src/core/extraction/prose/prose-items.js';
import { decisionNoise } from '../../../../src/core/extraction/decisions/decision-noise.js';
import { DECISION_THRESHOLD, decisionScore, proseDecisions } from '../../../../src/core/extraction/decisions/prose-decisions.js';

const EDITS = { summary: false, report: false, edits: true };

describe('decisionNoise', () => {
  it('should read a plan or an intention as one, in English and in the other cue languages', () => {
    const eng = cuesFor('eng');
    expect(decisionNoise("We'll rewrite `test_runner.py` around the new fixtures.", eng)).toBe('intention');
    expect(decisionNoise('Next patch: switch `loader.py` to streaming reads.', eng)).toBe('intention');
    expect(decisionNoise('Need to replace the `SessionCache` with a bounded LRU.', eng)).toBe('intention');
    expect(decisionNoise('I need to replace the `SessionCache` with a bounded LRU first.', eng)).toBe('intention');
    expect(decisionNoise('Change needed: `parseHeader()` returns null on empty input.', eng)).toBe('intention');
    expect(decisionNoise("I'll go through the `billing` module first and then draft the migration steps.", eng)).toBe('intention');
    expect(decisionNoise('Voy a reemplazar `fetchAll()` por una consulta paginada.', cuesFor('spa'))).toBe('intention');
    expect(decisionNoise('我会把 `config.yaml` 拆成两个文件。', cuesFor('cmn'))).toBe('intention');
    expect(decisionNoise('Буду использовать `vec_distance_l2` вместо оператора MATCH.', cuesFor('rus'))).toBe('intention');
    expect(decisionNoise('Trzeba zamienić `window-size` na `window-width` w szablonie.', cuesFor('pol'))).toBe('intention');
  });

  it('should read a consequence drawn, or what cannot be done and why, as reasoning', () => {
    const eng = cuesFor('eng');
    expect(decisionNoise("So can't add `migrations/0042` because `migrations/0041` is still pending.", eng)).toBe('reasoning');
    expect(decisionNoise('It then falls through to `flushQueue()` rather than `retryLater()`.', eng)).toBe('reasoning');
    expect(decisionNoise('You cannot use a `GITHUB_TOKEN` for the release upload because it lacks the `contents` scope.', eng)).toBe('reasoning');
    expect(decisionNoise('Поэтому нельзя создать `configs/module1/`, так как `configs/module1.yaml` уже есть.', cuesFor('rus'))).toBe('reasoning');
  });

  it('should read an item marked failed or not done as failed', () => {
    expect(decisionNoise('❌ nightly `backup.sh` job never scheduled on the new host', cuesFor('eng'))).toBe('failed');
    expect(decisionNoise('Staging mirror: `cdn-eu` — ❌ serves stale assets instead of the new build', cuesFor('eng'))).toBe('failed');
  });

  it('should leave a change made, with or without a reason, as a possible decision', () => {
    const eng = cuesFor('eng');
    expect(decisionNoise('Pinned `redis` to 5.0.4 because 5.1 cannot open the old pool.', eng)).toBeNull();
    expect(decisionNoise("So I've moved the retry loop into `fetchPage()` so one timeout does not stop the crawl.", eng)).toBeNull();
    expect(decisionNoise('Replaced the recursive shadowcasting with Bresenham raycasting since it missed corners.', eng)).toBeNull();
    expect(decisionNoise('✅ Fixed `deploy.py` to read the region from `DEPLOY_REGION`', eng)).toBeNull();
    expect(decisionNoise('Заменил `OpenAIClient` на `httpx`, потому что клиент не поддерживает таймауты.', cuesFor('rus'))).toBeNull();
  });
});

describe('decisionScore of non-decisions', () => {
  it('should score a plan, a step of reasoning and a failed item as nothing, where the change reported still counts', () => {
    const cues = cuesFor('eng');
    const items = proseItems([
      "- We'll rewrite `test_runner.py` to use the shared fixtures instead of its own.",
      "- So can't add `migrations/0042` because `migrations/0041` is still pending.",
      '- ❌ nightly `backup.sh` job never scheduled on the new host',
      '- Rewrote `test_runner.py` to use the shared fixtures instead of its own.',
    ].join('\n'));
    const scores = items.map((item) => decisionScore(item, cues, EDITS));
    expect(scores.slice(0, 3)).toEqual([0, 0, 0]);
    expect(scores[3]).toBeGreaterThanOrEqual(DECISION_THRESHOLD);
    expect(proseDecisions(items, cues, EDITS, 8).map((decision) => decision.text)).toEqual(["Rewrote test_runner.py to use the shared fixtures instead of its own."]);
  });
});
