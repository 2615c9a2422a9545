import { describe, expect, it } from 'vitest';
import { MAX_THOUGHT_DECISIONS, thoughtDecisions } from '../../../../src/core/extraction/decisions/thought-decisions.js';
import type { FileTouch } from '../../../../src/core/extraction/working-set/touches.js';

const edited = (path: string, order = 7, action: FileTouch['action'] = 'edit'): FileTouch => ({ path, tool: 'edit', order, action });

describe('thoughtDecisions', () => {
  it("should read what the reasoning settles before the message's own edit, as the choice carried out", () => {
    const reasoning = [
      'The popup prefab reference was lost when the controller was rewritten.',
      'For BattleController.cs, I need to replace the direct Instantiate call with a guarded spawnPopup() that skips a missing prefab.',
    ].join('\n');
    const decisions = thoughtDecisions(reasoning, { files: [edited('Assets/Scripts/BattleController.cs')], signals: [] }, 7);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ family: 'thought', order: 7 });
    expect(decisions[0]?.text).toBe('For BattleController.cs, replace the direct Instantiate call with a guarded spawnPopup() that skips a missing prefab.');
    expect(decisions[0]?.proposed).toBeUndefined();
    // A write of a new file bears out what names it, by its name or its stem.
    const [created] = thoughtDecisions('For the editor, I need to add DamagePopupBuilder as a menu command that builds the prefab by hand.', { files: [edited('Assets/Editor/DamagePopupBuilder.cs', 7, 'write')], signals: [] }, 7);
    expect(created?.text).toBe('For the editor, add DamagePopupBuilder as a menu command that builds the prefab by hand.');
  });

  it('should read a change the reasoning narrates as the step it takes ("I\'m updating …"), and not a search or a doubt', () => {
    const files = [edited('src/render/main.cpp', 6)];
    const [step] = thoughtDecisions('I’m changing the timing write in main.cpp from truncate to append so each run adds a new line instead of replacing the file.', { files, signals: [] }, 6);
    expect(step?.text).toBe('Change the timing write in main.cpp from truncate to append so each run adds a new line instead of replacing the file.');
    expect(thoughtDecisions("I'm scanning main.cpp for every place that writes the timings.", { files, signals: [] }, 6)).toEqual([]);
    expect(thoughtDecisions("I'm going in circles with main.cpp.", { files, signals: [] }, 6)).toEqual([]);
  });

  it('should read nothing that the edits do not bear out: another file, a plain word in common, no edit', () => {
    const settled = 'For queue-worker.ts, I need to move the retry loop out of the route handler so the route stays thin.';
    expect(thoughtDecisions(settled, { files: [edited('src/jobs/queue-worker.ts')], signals: [] }, 4)).toHaveLength(1);
    // The edit is of another file than the one the reasoning names.
    expect(thoughtDecisions(settled, { files: [edited('src/routes/orders.ts')], signals: [] }, 4)).toEqual([]);
    // "route" and "handler" are in the edit too, but only a name written as code, or a file, confirms.
    const plain = [{ id: 'edit:src/routes/orders.ts', type: 'note' as const, text: 'src/routes/orders.ts: route handler retry → route handler', order: 4, frequency: 1 }];
    expect(thoughtDecisions(settled, { files: [edited('src/routes/orders.ts')], signals: plain }, 4)).toEqual([]);
    expect(thoughtDecisions(settled, { files: [], signals: [] }, 4)).toEqual([]);
  });

  it('should skip steps of reasoning and questions, and give a message at most a couple of decisions', () => {
    const files = [edited('src/cache.ts'), edited('src/store.ts'), edited('src/api.ts')];
    expect(thoughtDecisions("So can't reuse cache.ts here because the store is created before it. Should I split store.ts?", { files, signals: [] }, 2)).toEqual([]);
    const many = [
      "I'll wrap `readCache()` in cache.ts in a try/catch so a corrupt entry is dropped instead of crashing.",
      "I'll make store.ts create the cache lazily so the first request pays for it.",
      "I'll have api.ts retry once on ECONNRESET so a restart of the upstream is not an error.",
    ].join('\n');
    expect(thoughtDecisions(many, { files, signals: [] }, 2).length).toBe(MAX_THOUGHT_DECISIONS);
  });
});
