import { describe, expect, it } from 'vitest';
import { cuesFor } from '../../../../src/core/text/cues/cues.js';
import { proseItems } from '../../../../src/core/extraction/prose/prose-items.js';
import { DECISION_THRESHOLD, decisionScore, proseDecisions, shorten, VERIFICATION_PENALTY } from '../../../../src/core/extraction/decisions/prose-decisions.js';
import { isReport } from '../../../../src/core/extraction/decisions/decision-source.js';

const PLAIN = { summary: false, report: false, edits: false };

function decisionsOf(text: string, language = 'eng', source = PLAIN) {
  const items = proseItems(text);
  const cues = cuesFor(language);
  return proseDecisions(items, cues, { ...source, report: source.report || isReport(items, cues) }, 10);
}

describe('proseDecisions', () => {
  it('should take changes with their object from a report, and leave cleanups and questions out', () => {
    const text = [
      'All done. Summary of the fix:',
      '',
      '- Replaced the polling loop in `useOrders` with a WebSocket subscription',
      '- `ORDER_TTL` now reads from `config.ts` instead of a hardcoded constant',
      '- Removed an unused import in `orders.tsx`',
      '',
      'Should I also add a reconnect backoff?',
    ].join('\n');
    const texts = decisionsOf(text).map((decision) => decision.text);
    expect(texts).toEqual([
      'Replaced the polling loop in useOrders with a WebSocket subscription',
      'ORDER_TTL now reads from config.ts instead of a hardcoded constant',
    ]);
  });

  it('should read a row whose first cell is bold as a row of its table of changes', () => {
    const text = [
      'Done. Summary:',
      '',
      '| Change | Files |',
      '|---|---|',
      '| **Per-job error handling** — a try/catch per job so that one failure does not stop the nightly run | `NightlyRunner.java` |',
    ].join('\n');
    expect(decisionsOf(text).map((decision) => decision.text)).toEqual(['Per-job error handling: a try/catch per job so that one failure does not stop the nightly run — NightlyRunner.java']);
  });

  it('should take a list of like renames as one decision, its other rows as context', () => {
    const text = [
      'Done. Migrated the storage helpers:',
      '',
      '- `readBlob()` → replaced by `storage.read()`',
      '- `writeBlob()` → replaced by `storage.write()`',
      '- `listBlobs()` → replaced by `storage.list()`',
      '- `dropBlob()` → replaced by `storage.remove()`',
    ].join('\n');
    const decisions = decisionsOf(text);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]?.context).toContain('storage.list()');
  });

  it('should not take a keyword alone, nor a hedge', () => {
    expect(decisionsOf('The architecture of this module is quite old and the approach is unclear to me.')).toEqual([]);
    expect(decisionsOf('## Summary\n- We could maybe switch to Redis instead of the in-memory map if you want.')).toEqual([]);
  });

  it('should read Spanish, German and Chinese reports', () => {
    expect(decisionsOf('## Cambios\n- Cambié `next` de 16.2.4 a 15.2.4 en `package.json`', 'spa')).toHaveLength(1);
    expect(decisionsOf('## Zusammenfassung\n- Den Parser in `parse.ts` durch `markdown-it` ersetzt', 'deu')).toHaveLength(1);
    expect(decisionsOf('## 总结\n- 把 `fetchUser()` 改为使用缓存', 'cmn')).toHaveLength(1);
  });

  it('should read the Russian colloquial verbs of a change as English reads removed, made, kept, wrapped and rolled back', () => {
    const russian = [
      'Изменения:',
      '',
      '1. **Убрал `retryLimit` из `queue.ts`**, чтобы очередь не повторяла задачи дважды',
      '2. **Обернул вызов `sendMail()` в `setImmediate`**, чтобы ответ не ждал почтовый сервер',
    ].join('\n');
    const english = [
      'Changes:',
      '',
      '1. **Removed `retryLimit` from `queue.ts`** so that the queue does not retry jobs twice',
      '2. **Wrapped the `sendMail()` call in `setImmediate`** so that the reply does not wait for the mail server',
    ].join('\n');
    expect(decisionsOf(russian, 'rus').map((decision) => decision.text)).toEqual([
      'Обернул вызов sendMail() в setImmediate, чтобы ответ не ждал почтовый сервер',
      'Убрал retryLimit из queue.ts, чтобы очередь не повторяла задачи дважды',
    ]);
    expect(decisionsOf(russian, 'rus').map((decision) => decision.score)).toEqual(decisionsOf(english).map((decision) => decision.score));
    expect(cuesFor('rus').change.test('Откатил миграцию `0042_orders`')).toBe(true);
    expect(cuesFor('rus').weakChange.test('Оставил старый эндпоинт для совместимости')).toBe(true);
    // The noun of the same verb reports no change.
    expect(cuesFor('rus').weakChange.test('уборка в репозитории')).toBe(false);
  });

  it('should weigh a prior compaction summary higher, and keep its key decisions even without a verb', () => {
    const summary = '## Key Decisions\n- Pydantic models for every schema, one package with `cli` and `mcp` extras';
    const [decision] = decisionsOf(summary, 'eng', { summary: true, report: false, edits: false });
    expect(decision).toMatchObject({ family: 'carried', category: 'architecture' });
    expect(decision?.score).toBeGreaterThan(DECISION_THRESHOLD + 1);
  });

  it('should cut the text at a word and keep the item whole in the context', () => {
    const long = `## Changes\n- Replaced the \`SessionStore\` ${'with a much longer explanation of the reasons '.repeat(6)}end`;
    const [decision] = decisionsOf(long);
    expect(decision?.text.length).toBeLessThanOrEqual(120);
    expect(decision?.text.endsWith('…')).toBe(true);
    expect(decision?.context.startsWith('changes: Replaced the SessionStore')).toBe(true);
  });
});

describe('lines that close a turn', () => {
  const CLOSING = { ...PLAIN, closing: true };
  const report = [
    'Everything is in place now.',
    '',
    '### Parts',
    '- InvoiceService: totals each invoice and books the tax per line',
    '- export.ts: writes the month as one CSV per customer',
    '- Removed an unused import in orders.tsx',
    '- All 12 tests passed',
    '',
    'Rewrote the README as a short getting-started guide.',
  ].join('\n');

  it('should mark an inventory line and a plainly said change of the message that ends a turn, not a cleanup or a check', () => {
    const closing = decisionsOf(report, 'eng', CLOSING).filter((decision) => decision.closing).map((decision) => decision.text);
    expect(closing).toEqual([
      'InvoiceService: totals each invoice and books the tax per line',
      'export.ts: writes the month as one CSV per customer',
      'Rewrote the README as a short getting-started guide.',
    ]);
  });

  it('should read no line as closing a turn in a message that calls a tool, or in a summary', () => {
    expect(decisionsOf(report, 'eng', PLAIN).filter((decision) => decision.closing)).toEqual([]);
    expect(decisionsOf(report, 'eng', { ...CLOSING, summary: true }).filter((decision) => decision.closing)).toEqual([]);
  });

  it('should not read the lines under a next-steps heading, or a question, as an inventory', () => {
    const plan = ['Done for today.', '', '### Next steps', '- ExportService: one CSV per customer', '- Mailer: send the export each month?'].join('\n');
    expect(decisionsOf(plan, 'eng', CLOSING).filter((decision) => decision.closing)).toEqual([]);
  });

  it('should read an inventory in a language without cue words by its shape', () => {
    const text = ['Semua backend API telah selesai dibuat.', '', '### Business Logic', '- TransactionService: sinkron saldo akun dan tabungan otomatis'].join('\n');
    expect(decisionsOf(text, 'ind', CLOSING).map((decision) => [decision.text, decision.closing])).toEqual([['TransactionService: sinkron saldo akun dan tabungan otomatis', true]]);
  });
});

describe('proposals and non-decisions', () => {
  it('should weigh down a suggestion or a predicted effect in Chinese and Japanese as in English', () => {
    const score = (text: string, language: string) => decisionScore(proseItems(text)[0]!, cuesFor(language), PLAIN);
    expect(score('建议把 `retryCount` 改为 3，避免重复提交', 'cmn')).toBeLessThan(score('把 `retryCount` 改为 3，避免重复提交', 'cmn'));
    expect(score('移除 `flexGrow` 会让按钮改为居中显示', 'cmn')).toBeLessThan(DECISION_THRESHOLD);
    expect(score('`retryCount` を 3 に変更することを提案します', 'jpn')).toBeLessThan(score('`retryCount` を 3 に変更しました', 'jpn'));
  });

  it('should mark review findings and plan steps as proposed, and a report of work done as not', () => {
    const review = [
      '## Proposed fixes',
      '',
      '- **High:** Add a bounded `ThreadPoolTaskScheduler` so `ReportJob` never blocks the tick',
      '- **Low:** Rename `tmpList` in `ReportJob.java`',
    ].join('\n');
    const found = decisionsOf(review);
    // The low end of a finding list is not even a candidate; the high end is one, as a proposal.
    expect(found.map((decision) => decision.text)).toEqual(['High: Add a bounded ThreadPoolTaskScheduler so ReportJob never blocks the tick']);
    expect(found[0]?.proposed).toBe(true);
    const done = decisionsOf('Done. Here is a summary:\n\n- Replaced the cron loop in `ReportJob.java` with a `ThreadPoolTaskScheduler` so a slow export no longer blocks the tick', 'eng', { ...PLAIN, edits: true });
    expect(done).toHaveLength(1);
    expect(done[0]?.proposed).toBeUndefined();
  });

  it('should treat an outline that asks several questions as waiting on the answers', () => {
    const outline = [
      'Net effect on the schema:',
      '',
      '- `BodySchema` switched to a keyed map of fixed sections instead of a list',
      '',
      'Should options be numbered? Do you want a sentinel for deletion?',
      'Which heading format do you prefer?',
    ].join('\n');
    expect(decisionsOf(outline).every((decision) => decision.proposed === true)).toBe(true);
  });

  it('should not take status lines, conditions written with arrows, objectives or rows that only say "same"', () => {
    expect(decisionsOf('## Summary\n- All 6 phases have been implemented and the review fixes were applied')).toEqual([]);
    expect(decisionsOf('## Changes\n- Critical issues from the review were fixed before moving on')).toEqual([]);
    expect(decisionsOf('## Summary\n- Guest → read-only access only if the invite was accepted')).toEqual([]);
    expect(decisionsOf('## Objective\n- Replace the hand-written parser with a `zod` schema for the config')).toEqual([]);
    expect(decisionsOf('| File | Change |\n|---|---|\n| `GetUserQuery.java` | Same |')).toEqual([]);
    // An arrow between two values is a change.
    expect(decisionsOf('## Changes\n- `next`: 16.2.4 → 15.2.4 in `package.json`')).toHaveLength(1);
  });

  it('should not take an arrow from a plain word to a name for a change', () => {
    expect(decisionsOf('## Summary\n- `ContentView` routes locked → `LockView` with a fade')).toEqual([]);
    expect(decisionsOf('## Tests\n- `OrderServiceTest`: duplicate → `OrderExistsException`, missing stock → `StockException`')).toEqual([]);
    expect(decisionsOf('## Summary\n- `ContentView`: `Color.gray` → `theme.muted` in the header')).toHaveLength(1);
  });

  it('should not take an arrow in an example for a change', () => {
    expect(decisionsOf('`unitMap` resolves the chosen unit, for example `temp=38` + `tempUnit=f` → `100.4 °F`.')).toEqual([]);
    expect(decisionsOf('`unitMap` 用来解析用户选的单位，比如 `temp=38` + `tempUnit=f` → `100.4 °F`。', 'cmn')).toEqual([]);
  });

  it('should raise a change that states its reason, and lower an add-on', () => {
    const cues = cuesFor('eng');
    const [plain, reasoned, aside] = proseItems([
      '- Wrapped each tick of `MinuteScheduler` in try/catch',
      '- Wrapped each tick of `MinuteScheduler` in try/catch so one failing category no longer stops the loop',
      '- Also wrapped each tick of `MinuteScheduler` in try/catch',
    ].join('\n'));
    if (!plain || !reasoned || !aside) throw new Error('expected items');
    const source = { ...PLAIN, report: true };
    expect(decisionScore(reasoned, cues, source)).toBeGreaterThan(decisionScore(plain, cues, source));
    expect(decisionScore(aside, cues, source)).toBeLessThan(decisionScore(plain, cues, source));
  });

  it('should read a short Spanish step announced before its edit, with its reason', () => {
    const [item] = proseItems('Ahora envuelvo `AudioPage.__init__` en try/except para no crashear sin `wpctl`:');
    if (!item) throw new Error('expected an item');
    expect(decisionScore(item, cuesFor('spa'), { ...PLAIN, edits: true }, true)).toBeGreaterThanOrEqual(3);
    const [cleanup] = proseItems('Quito la función `build_cards` duplicada:');
    if (!cleanup) throw new Error('expected an item');
    expect(decisionScore(cleanup, cuesFor('spa'), { ...PLAIN, edits: true }, true)).toBeLessThan(3);
  });
});

describe('decisionScore', () => {
  it('should score an item that only announces what follows as nothing, unless a tool call follows it', () => {
    const [item] = proseItems('Now I wrap the `AudioPage` constructor in try/except:');
    expect(item).toBeDefined();
    if (!item) return;
    expect(decisionScore(item, cuesFor('eng'), { ...PLAIN, edits: true })).toBe(0);
    expect(decisionScore(item, cuesFor('eng'), { ...PLAIN, edits: true }, true)).toBeGreaterThan(0);
  });

  it('should score a step announced for the next tool call below the same change reported', () => {
    const [announced] = proseItems('Now I rewrite `loader.py` to retry on timeouts instead of failing:');
    const [reported] = proseItems('Rewrote `loader.py` to retry on timeouts instead of failing.');
    if (!announced || !reported) throw new Error('expected items');
    const source = { ...PLAIN, edits: true };
    expect(decisionScore(announced, cuesFor('eng'), source, true)).toBe(decisionScore(reported, cuesFor('eng'), source, true) - 0.5);
  });

  it('should score repairing the environment and removing debug output below a decision, even in a prior summary', () => {
    const source = { ...PLAIN, summary: true };
    const cues = cuesFor('eng');
    const [install, debug, pin] = proseItems([
      '- Installed the missing `redis` package into `.venv`; the worker starts now.',
      '- Removed debug logging from `CheckoutForm.tsx`.',
      '- Pinned `redis` to 5.0.4 in `requirements.txt` because 5.1 changed the pool API.',
    ].join('\n'));
    if (!install || !debug || !pin) throw new Error('expected items');
    expect(decisionScore(pin, cues, source)).toBeGreaterThanOrEqual(DECISION_THRESHOLD);
    expect(decisionScore(install, cues, source)).toBeLessThan(DECISION_THRESHOLD);
    expect(decisionScore(debug, cues, source)).toBeLessThan(DECISION_THRESHOLD);
  });
});

describe('decisions of a prior summary', () => {
  it('should read its Instructions section as what was asked, not what was decided', () => {
    const summary = [
      '## Instructions',
      '- Use the existing `pg_partman` setup as reference rather than writing a new one',
      '## Accomplished',
      '- Replaced the nightly `VACUUM FULL` job with `pg_repack` so the tables stay online',
    ].join('\n');
    const decisions = decisionsOf(summary, 'eng', { ...PLAIN, summary: true });
    expect(decisions.map((decision) => decision.text)).toEqual(['Replaced the nightly VACUUM FULL job with pg_repack so the tables stay online']);
  });
});

describe('decisionScore of bare file operations', () => {
  it('should score an item that only names the files created or updated as nothing, and one that says what changed in them as a decision', () => {
    const source = { ...PLAIN, report: true, edits: true };
    const score = (text: string, language = 'eng') => decisionScore(proseItems(text)[0]!, cuesFor(language), source);
    expect(score('- Update views/nav.blade.php (collapsible menu)')).toBe(0);
    expect(score('- Update tailwind.config.js + site.css')).toBe(0);
    expect(score('- ✅ Services/TokenStore.swift created.')).toBe(0);
    expect(score('- 設定画面 (settings.py) の作成', 'jpn')).toBe(0);
    expect(score('- Updated `nav.blade.php` to collapse the menu below 640px instead of hiding it')).toBeGreaterThanOrEqual(DECISION_THRESHOLD);
    expect(score('- Services/TokenStore.swift created: keeps the refresh token in the Keychain instead of UserDefaults')).toBeGreaterThanOrEqual(DECISION_THRESHOLD);
  });

  it('should finish on a long run of path characters', () => {
    const long = `Update ${'a.'.repeat(5_000)}b ${'x/'.repeat(5_000)}`;
    expect(decisionScore(proseItems(long)[0]!, cuesFor('eng'), { ...PLAIN, edits: true })).toBeGreaterThanOrEqual(0);
  });
});

describe('decisions read by the shape of a report', () => {
  it('should read the new state of a before/after pair as the change, named by its section, and never the old state', () => {
    const text = [
      'Listo, los dos arreglos:',
      '',
      '### 1. Facturas anuladas en el listado',
      '- **Antes**: el listado solo leía `facturas_emitidas` y las anuladas creadas a mano no aparecían',
      '- **Ahora**: también consulta `facturas_anuladas` y las muestra en gris',
    ].join('\n');
    const decisions = proseDecisions(proseItems(text), cuesFor('spa'), { summary: false, report: true, edits: false }, 5);
    expect(decisions.map((decision) => decision.text)).toEqual(['Ahora: también consulta facturas_anuladas y las muestra en gris']);
    expect(decisions[0]?.context).toContain('facturas anuladas en el listado');
  });

  it('should read a row of a table of changes without a verb, and a bullet ticked as done, but not a table of results', () => {
    const text = [
      '## Changes: sidebar on small screens',
      '',
      '| # | Area | Change |',
      '|---|------|--------|',
      '| 1 | Sidebar | collapsible drawer below `md` with a backdrop |',
      '',
      '- ✅ Drawer closes on route change',
      '',
      '| URL | Result |',
      '|---|---|',
      '| `https://staging.example.org/health` | `{"ok":true}` ✅ |',
    ].join('\n');
    const texts = decisionsOf(text).map((decision) => decision.text);
    expect(texts).toContain('Sidebar — collapsible drawer below md with a backdrop');
    expect(texts).toContain('✅ Drawer closes on route change');
    expect(texts.some((entry) => entry.includes('staging.example.org'))).toBe(false);
  });

  it('should make a table of changes one decision, its best row standing for it and the others in its context', () => {
    const text = [
      '## Changes',
      '',
      '| File | Change |',
      '|---|---|',
      '| `billing.ts` | invoice totals rounded per line |',
      '| `ledger.ts` | entries keep the unrounded amount |',
      '| `pdf.ts` | footer shows the rounding rule |',
    ].join('\n');
    const decisions = decisionsOf(text);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]?.context).toContain('ledger.ts — entries keep the unrounded amount');
    expect(decisions[0]?.context).toContain('pdf.ts — footer shows the rounding rule');
  });

  it('should read a tick in a matrix of roles, and a ticked progress list in a prior summary, as no change', () => {
    const matrix = ['| Option | Admin | Viewer |', '|---|---|---|', '| Billing page | ✅ | ❌ |'].join('\n');
    expect(decisionsOf(matrix)).toEqual([]);
    const progress = ['## Progress', '- ✅ Phase 3: Notification service'].join('\n');
    expect(decisionsOf(progress, 'eng', { summary: true, report: false, edits: false })).toEqual([]);
  });

  it('should read an arrow that leads to a change word as an item marked done', () => {
    const source = { summary: false, report: true, edits: false };
    const [done, mapped] = proseItems(['## Changes', '- Sidebar toggle on small screens → fixed', '- Sidebar toggle on small screens → hidden'].join('\n'));
    const cues = cuesFor('eng');
    expect(decisionScore(done!, cues, source)).toBeGreaterThanOrEqual(DECISION_THRESHOLD);
    expect(decisionScore(mapped!, cues, source)).toBe(0);
  });

  it('should read the inflected participles of a Spanish report', () => {
    const text = ['## Cambios realizados', '', '- Validación del `email` corregida en `signup.ts` para rechazar dominios vacíos'].join('\n');
    expect(decisionsOf(text, 'spa').map((decision) => decision.text)).toEqual(['Validación del email corregida en signup.ts para rechazar dominios vacíos']);
  });

  it('should take a first-person report of a change with what follows it, and not a bare one', () => {
    const text = [
      "Done! I've rewritten the deploy guide in `docs/deploy.md` so it covers both targets.",
      '',
      'It now includes:',
      '- the staging checklist',
      '- rollback steps for the database',
      '',
      "I've updated both files.",
    ].join('\n');
    const decisions = decisionsOf(text);
    expect(decisions.map((decision) => decision.text)).toEqual(["I've rewritten the deploy guide in docs/deploy.md so it covers both targets."]);
    expect(decisions[0]?.context).toContain('rollback steps for the database');
  });
});

describe('decisionScore of outcomes', () => {
  it('should score a check that passed below the change it checks', () => {
    const [change, status] = proseItems(['- Moved token refresh into `AuthClient`', '- `AuthClient` tests updated; 42/42 passing'].join('\n'));
    const cues = cuesFor('eng');
    const source = { summary: false, report: true, edits: false };
    expect(decisionScore(change!, cues, source) - decisionScore(status!, cues, source)).toBeGreaterThanOrEqual(VERIFICATION_PENALTY);
  });
});

describe('shorten', () => {
  it('should keep a decision whole past a reason that opens it, and end a long one on a sentence', () => {
    const reasoned = 'Since validation loss kept falling while accuracy on the rare classes dropped, checkpoints are now picked by top-1 and macro F1.';
    expect(shorten(reasoned, 120)).toBe(reasoned);
    const two = 'Dropped the Perceiver branch and the rotary embeddings from the encoder. The plain transformer blocks of the baseline stay, with the same depth and width.';
    expect(shorten(two, 120)).toBe('Dropped the Perceiver branch and the rotary embeddings from the encoder.');
  });
});
