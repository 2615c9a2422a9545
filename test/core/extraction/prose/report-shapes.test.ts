import { describe, expect, it } from 'vitest';
import { cuesFor } from '../../../../src/core/text/cues/cues.js';
import { proseItems } from '../../../../src/core/extraction/prose/prose-items.js';
import { afterStates, beforeState, changeTable, ownChange, replacementListsOf, tablesOf, ticked, verifies } from '../../../../src/core/extraction/prose/report-shapes.js';

describe('ownChange', () => {
  it('should tell a first-person report of a change in several languages', () => {
    expect(ownChange("I've moved the retry budget into QueueConfig for every worker", cuesFor('eng'))).toBe(true);
    expect(ownChange('He eliminado el array securityRows de la página de inicio', cuesFor('spa'))).toBe(true);
    expect(ownChange("I've looked at the logs of the last three runs", cuesFor('eng'))).toBe(false);
    expect(ownChange("I've updated it.", cuesFor('eng'))).toBe(false);
  });
});

describe('ticked', () => {
  it('should take one done mark on a bullet, and not a row, a mixed mark or several marks', () => {
    const [done, mixed, many] = proseItems(['- ✅ Retry on 429', '- ✅ Retry on 429 ⚠️ flaky', '- ✅ ✅ both'].join('\n'));
    expect(ticked(done!)).toBe(true);
    expect(ticked(mixed!)).toBe(false);
    expect(ticked(many!)).toBe(false);
  });
});

describe('changeTable', () => {
  it('should tell a column of changes from a column of results', () => {
    const cues = cuesFor('eng');
    const [change] = proseItems(['| Change | Status |', '|---|---|', '| queue drained on shutdown | ✅ |'].join('\n'));
    const [result] = proseItems(['| URL | Result |', '|---|---|', '| /health | 200 |'].join('\n'));
    expect(changeTable(change!, cues)).toBe(true);
    expect(changeTable(result!, cues)).toBe(false);
  });

  it('should read a table of progress as a status whatever its columns are called', () => {
    const cues = cuesFor('eng');
    const rows = proseItems(['| Part | Changes | Completion |', '|---|---|---|', '| Export | CSV writer added | 100% |', '| Search | not started | 0 % |'].join('\n'));
    expect(rows.map((row) => changeTable(row, cues))).toEqual([false, false]);
    expect(rows.map((row) => verifies(row, cues))).toEqual([true, true]);
  });
});

describe('verifies', () => {
  it('should read passing counts, outcome words and a table of results as outcomes', () => {
    const cues = cuesFor('eng');
    const [count, word] = proseItems(['- tests updated; 42/42', '- staging healthy after the restart'].join('\n'));
    const [row] = proseItems(['| URL | Result |', '|---|---|', '| /health | 200 |'].join('\n'));
    expect(verifies(count!, cues)).toBe(true);
    expect(verifies(word!, cues)).toBe(true);
    expect(verifies(row!, cues)).toBe(true);
  });
});

describe('tablesOf', () => {
  it('should group the rows under one header and join their texts', () => {
    const items = proseItems(['| A | B |', '|---|---|', '| x | one |', '| y | two |', '', 'Then prose.'].join('\n'));
    const tables = tablesOf(items, 320);
    expect(tables.get(0)).toBe(tables.get(1));
    expect(tables.get(0)?.rows).toBe('x — one; y — two');
    expect(tables.has(2)).toBe(false);
  });
});

describe('afterStates', () => {
  it('should find the new state that follows an old one, in any of the cue languages, and no lone "Now:"', () => {
    const items = proseItems(['**Vorher**: der Export lief synchron.', '', '**Jetzt**: der Export läuft in einer Queue.', '', '**Now**: run the migration.'].join('\n'));
    expect([...afterStates(items)]).toEqual([1]);
    expect(items.map((item) => beforeState(item))).toEqual([true, false, false]);
  });
});

describe('replacementListsOf', () => {
  it('should make one list of a run of like renames under one lead-in', () => {
    const items = proseItems(['Renamed the config helpers:', '- loadCfg → loadConfig', '- saveCfg → saveConfig', '- cfgPath -> configPath', '', 'Then I ran the tests.'].join('\n'));
    const lists = replacementListsOf(items, 200);
    const rows = items.filter((item) => item.kind === 'bullet');
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((row) => lists.get(row.index)?.key)).size).toBe(1);
    expect(lists.get(rows[0]!.index)?.rows).toContain('saveCfg → saveConfig');
  });

  it('should leave a single arrow bullet, or two, to stand alone', () => {
    const items = proseItems(['Changes:', '- pinned next 16.2.4 → 15.2.4', '- dropped the turbopack flag', '- moved auth → middleware.ts'].join('\n'));
    expect(replacementListsOf(items, 200).size).toBe(0);
  });
});
