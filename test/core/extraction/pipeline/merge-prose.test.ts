import { describe, expect, it } from 'vitest';
import type { FileTouch } from '../../../../src/workers/protocol.js';
import type { Decision } from '../../../../src/core/extraction/decisions/decisions.js';
import type { Observation } from '../../../../src/core/extraction/observations.js';
import { MAX_DECISIONS_PER_MESSAGE, MAX_SESSION_DECISIONS, liveNotes, rankDecisions } from '../../../../src/core/extraction/pipeline/merge-prose.js';
import { EMPTY_REPLY_ID, emptyReplyNote } from '../../../../src/core/extraction/notes/prose-notes.js';

function decision(text: string, score: number, order: number): Decision {
  return { family: 'change', category: 'implementation', text, context: text, score, order };
}

function touch(path: string, action: FileTouch['action'], order: number): FileTouch {
  return { path, tool: action === 'delete' ? 'bash' : action === 'read' ? 'read' : 'edit', order, action };
}

function note(id: string, type: Observation['type'], text: string, order: number): Observation {
  return { id, type, text, order, frequency: 1 };
}

describe('rankDecisions', () => {
  it('should keep the best-scored, in conversation order, and merge near repeats', () => {
    const ranked = rankDecisions([
      decision('Moved the retry budget into QueueConfig', 4, 1),
      decision('Replaced the polling loop with a WebSocket subscription', 5, 2),
      decision('Replaced polling loop with WebSocket subscription in useOrders', 4.5, 6),
      decision('Renamed a local variable', 1, 7),
    ], 10);
    expect(ranked.map((item) => item.text)).toEqual([
      'Moved the retry budget into QueueConfig',
      'Replaced the polling loop with a WebSocket subscription',
    ]);
  });

  it('should let completed todo items only fill a session whose prose states few decisions', () => {
    const todo = (text: string, order: number): Decision => ({ ...decision(text, 3, order), family: 'todo' });
    const thin = rankDecisions([decision('Moved the retry budget into QueueConfig', 4, 1), todo('Update worker.ts: concurrency from 8 to 2', 3)], 10);
    expect(thin.map((item) => item.text)).toEqual(['Moved the retry budget into QueueConfig', 'Update worker.ts: concurrency from 8 to 2']);
    const prose = ['Moved the retry budget into QueueConfig', 'Switched the logger to JSON lines', 'Wrapped each scheduler tick in try/catch', 'Pinned node to 20.11 in .nvmrc'];
    const full = rankDecisions([...prose.map((text, index) => decision(text, 3, index * 2)), todo('Update worker.ts: concurrency from 8 to 2', 9)], 10);
    expect(full.map((item) => item.text)).toEqual(prose);
  });

  it('should let what the reasoning settled before an edit fill a thin session last, one a message, and never supersede a statement', () => {
    const thought = (text: string, order: number, score = 3.5): Decision => ({ ...decision(text, score, order), family: 'thought' });
    const stated = decision('Moved the retry budget into QueueConfig', 4, 1);
    const thin = rankDecisions([stated, thought('For worker.ts, lower the concurrency from 8 to 2 so the host keeps a core', 3), thought('Add a drain() to worker.ts', 3, 3.1)], 10);
    expect(thin.map((item) => item.text)).toEqual([stated.text, 'For worker.ts, lower the concurrency from 8 to 2 so the host keeps a core']);
    const prose = ['Moved the retry budget into QueueConfig', 'Switched the logger to JSON lines', 'Wrapped each scheduler tick in try/catch', 'Pinned node to 20.11 in .nvmrc'];
    const full = rankDecisions([...prose.map((text, index) => decision(text, 3.5, index * 2)), thought('For worker.ts, lower the concurrency from 8 to 2 so the host keeps a core', 9)], 10);
    expect(full.map((item) => item.text)).toEqual(prose);
    // A later thought naming the same code leaves the stated decision standing.
    const plan = { ...decision('Make QueueConfig.retryBudget a per-queue setting in QueueConfig', 4, 1), proposed: true };
    const files = [touch('src/QueueConfig.ts', 'edit', 5)];
    const kept = rankDecisions([plan, thought('For QueueConfig, read QueueConfig.retryBudget per queue', 5)], 10, [], { files, signals: [] });
    expect(kept.map((item) => item.text)).toContain(plan.text);
  });

  it("should fill a thin session from the lines that close its turns, the first each turn's edits bear out, in conversation order", () => {
    const closing = (text: string, order: number): Decision => ({ ...decision(text, 2.5, order), closing: true });
    const stated = decision('Moved the retry budget into QueueConfig', 4, 1);
    const lines = [
      closing('Mailer: sends the invoices each month', 6),
      closing('InvoiceService: totals each invoice and books the tax per line', 6),
      closing('Ledger: keeps one row per booking', 6),
      closing('export.ts: writes one CSV per customer', 9),
    ];
    const notes = [note('next:request:0', 'next', 'asked: build the invoice export', 0), note('next:request:4', 'next', 'asked: and the totals', 4), note('next:request:7', 'next', 'asked: now the export', 7)];
    // Each turn edited what one of its lines names; nothing edited the mailer.
    const files = [touch('src/InvoiceService.ts', 'write', 5), touch('src/Ledger.ts', 'write', 5), touch('src/export.ts', 'edit', 8)];
    const ranked = rankDecisions([stated, ...lines, decision('Pinned node to 20.11 in .nvmrc', 4, 10)], 10, notes, { files, signals: [] });
    expect(ranked.map((item) => item.text)).toEqual([
      'Moved the retry budget into QueueConfig',
      'InvoiceService: totals each invoice and books the tax per line',
      'export.ts: writes one CSV per customer',
      'Pinned node to 20.11 in .nvmrc',
    ]);
    // Edits made before the request a line answers bear out nothing of its turn.
    const earlier = [touch('src/InvoiceService.ts', 'write', 2), touch('src/export.ts', 'edit', 2)];
    expect(rankDecisions([stated, ...lines], 10, notes, { files: earlier, signals: [] }).map((item) => item.text)).toEqual([stated.text]);
  });

  it('should leave a session whose prose states enough decisions as it was, whatever its turns close with', () => {
    const prose = ['Moved the retry budget into QueueConfig', 'Switched the logger to JSON lines', 'Wrapped each scheduler tick in try/catch', 'Pinned node to 20.11 in .nvmrc'];
    const line: Decision = { ...decision('export.ts: writes one CSV per customer', 2.5, 9), closing: true };
    const files = [touch('src/export.ts', 'edit', 8)];
    const full = rankDecisions([...prose.map((text, index) => decision(text, 4, index * 2)), line], 10, [], { files, signals: [] });
    expect(full.map((item) => item.text)).toEqual(prose);
  });

  it("should order a session's commits by their size only when they alone overflow the list", () => {
    const commit = (text: string, order: number, commitSize: number): Decision => ({ ...decision(`committed: ${text}`, 4, order), commitSize });
    const feature = commit('feat: add the invoice export module', 0, 1);
    const subjects = ['null user in session', 'trailing comma in config', 'timezone of cron job', 'label of save button', 'path of upload dir', 'retry count of mailer', 'width of sidebar panel', 'order of menu items'];
    const fixes = subjects.map((subject, index) => commit(`fix: ${subject}`, index + 1, -1));
    expect(rankDecisions([feature, ...fixes], 10).map((item) => item.text)).toContain(feature.text);
    expect(rankDecisions([feature, ...fixes.slice(1)], 10)).toHaveLength(MAX_SESSION_DECISIONS);
  });

  it('should cap the list and what one message places in it', () => {
    const many = Array.from({ length: 30 }, (_, index) => decision(`Moved handler${index} into module${index} for route${index}`, 5, Math.floor(index / 5)));
    const ranked = rankDecisions(many, 50);
    expect(ranked).toHaveLength(MAX_SESSION_DECISIONS);
    const perMessage = new Map<number, number>();
    for (const item of ranked) perMessage.set(item.order ?? -1, (perMessage.get(item.order ?? -1) ?? 0) + 1);
    expect(Math.max(...perMessage.values())).toBeLessThanOrEqual(MAX_DECISIONS_PER_MESSAGE);
    expect(rankDecisions(many, 3)).toHaveLength(3);
  });

  it('should let a session with room left keep every change of the one message that reported them', () => {
    const report = [
      decision('Collapse blank runs (render.py): added a regex that folds 3+ newlines into one', 4, 6),
      decision('Overwrite on re-fetch (store.py): the id prefix makes the name stable', 4.5, 6),
      decision('Summary in header (store.py): added the summary field to the metadata block', 4.2, 6),
    ];
    expect(rankDecisions(report, 10).map((item) => item.text)).toEqual(report.map((item) => item.text));
    // A summary's items keep their own cap, and a full list still takes at most its share from one message.
    const carried = Array.from({ length: 7 }, (_, index) => ({ ...decision(`Moved handler${index} into module${index}`, 5, 2), family: 'carried' as const }));
    expect(rankDecisions(carried, 10)).toHaveLength(5);
  });

  it('should name in its context the files edited for a change whose text names none of them', () => {
    const requests = [note('next:request:2', 'next', 'asked: document the new flag', 2)];
    const files = [touch('/tmp/scratch.py', 'write', 3), touch('docs/old-guide.md', 'edit', 1), touch('README.md', 'edit', 4), touch('src/cli.ts', 'edit', 4)];
    const [report, named] = rankDecisions(
      [decision('Updated the usage notes to document the --dry-run flag', 4, 5), decision('cli.ts: the --dry-run flag skips the upload', 4, 6)],
      10,
      requests,
      { files, signals: [] },
    );
    // Edits since the request the report answers, latest first; a scratch file and an older edit are not its files.
    expect(report?.context).toBe('Updated the usage notes to document the --dry-run flag (edited: src/cli.ts, README.md)');
    expect(named?.context).toBe('cli.ts: the --dry-run flag skips the upload');
  });

  it('should keep a weak report of what its own turn just edited, and not one of an edit before the request', () => {
    const requests = [note('next:request:3', 'next', 'asked: append each run to the log instead of overwriting it', 3)];
    const report = decision('Updated main.cpp so times.log is now opened in append mode', 2.5, 5);
    expect(rankDecisions([report], 10, requests, { files: [touch('src/main.cpp', 'edit', 4)], signals: [] }).map((item) => item.text)).toEqual([report.text]);
    expect(rankDecisions([report], 10, requests, { files: [touch('src/main.cpp', 'edit', 2)], signals: [] })).toEqual([]);
  });

  it('should raise a decision that answers the latest request before it', () => {
    const decisions = [decision('Wrapped each scheduler tick in try/catch', 4, 5), decision('Switched the logger to JSON lines', 4.2, 5), decision('Moved the cron expressions into application.yml', 4.1, 5)];
    const requests = [note('next:request:4', 'next', 'asked: make the scheduler survive a failing tick', 4)];
    const ranked = rankDecisions(decisions, MAX_DECISIONS_PER_MESSAGE, requests);
    expect(ranked).toHaveLength(MAX_DECISIONS_PER_MESSAGE);
    expect(ranked.map((item) => item.text)).toContain('Wrapped each scheduler tick in try/catch');
    expect(rankDecisions([...decisions, decision('Another change to the logger format', 4.3, 5)], 1, requests)[0]?.text).toBe('Wrapped each scheduler tick in try/catch');
  });
});

describe('rankDecisions with the work done as evidence', () => {
  it('should drop a proposal no later edit carried out, and keep one that an edit of what it names confirms', () => {
    const proposals = [
      { ...decision('Add a ThreadPoolTaskScheduler bean in SchedulerConfig.java', 4, 3), proposed: true },
      { ...decision('Add a unit test for MinuteScheduler', 4, 3), proposed: true },
    ];
    const evidence = { files: [touch('src/config/SchedulerConfig.java', 'write', 5)], signals: [] };
    expect(rankDecisions(proposals, 10, [], evidence).map((item) => item.text)).toEqual(['Add a ThreadPoolTaskScheduler bean in SchedulerConfig.java']);
    // Without any evidence, neither was decided.
    expect(rankDecisions(proposals, 10)).toEqual([]);
    // An edit before the proposal does not carry it out.
    expect(rankDecisions(proposals, 10, [], { files: [touch('src/config/SchedulerConfig.java', 'edit', 1)], signals: [] })).toEqual([]);
  });

  it('should confirm by an identifier or a version an edit changed', () => {
    const pinned = { ...decision('Pin eslint-config-next to 15.2.4 as well', 3.5, 2), proposed: true };
    const signals = [note('edit:package.json', 'note', 'package.json: 16.2.4 → 15.2.4', 4)];
    expect(rankDecisions([pinned], 10, [], { files: [], signals })).toHaveLength(1);
  });

  it('should prefer the report of the work to the proposal of it, and a new module to a local change', () => {
    const evidence = {
      files: [touch('src/services/theme.service.ts', 'write', 4), touch('src/styles.scss', 'edit', 4), touch('src/app/navbar.scss', 'edit', 4)],
      signals: [],
    };
    const candidates = [
      decision('navbar.scss: swapped the hardcoded rgba background for a variable', 4, 5),
      decision('theme.service.ts keeps the theme in a signal and persists it to localStorage', 3.5, 5),
      decision('Moved the login form labels above their inputs', 4.2, 5),
    ];
    const [first] = rankDecisions(candidates, 1, [], evidence);
    expect(first?.text).toBe('theme.service.ts keeps the theme in a signal and persists it to localStorage');
  });

  it('should need later work for a weak step, and raise a deletion that undoes a file the session created', () => {
    const weak = decision('Updated cards.py for the new tiles', 2.5, 3);
    expect(rankDecisions([weak], 10, [], { files: [touch('src/ui/cards.py', 'edit', 3)], signals: [] })).toEqual([]);
    expect(rankDecisions([weak], 10, [], { files: [touch('src/ui/cards.py', 'edit', 6)], signals: [] })).toHaveLength(1);
    const deletion: Decision = { family: 'deleted', category: 'implementation', text: 'deleted src/admin/_form-shared.scss', context: 'deleted src/admin/_form-shared.scss', score: 3, order: 8 };
    const other = decision('Reworded the empty-state message of the list view', 3.6, 9);
    const created = { files: [touch('src/admin/_form-shared.scss', 'write', 2), touch('src/admin/_form-shared.scss', 'delete', 8)], signals: [] };
    expect(rankDecisions([deletion, other], 1, [], created)[0]?.family).toBe('deleted');
    const preexisting = { files: [touch('src/admin/_form-shared.scss', 'read', 1), touch('src/admin/_form-shared.scss', 'delete', 8)], signals: [] };
    expect(rankDecisions([deletion, other], 1, [], preexisting)[0]?.text).toBe('Reworded the empty-state message of the list view');
  });

  it('should let the prose that states a deletion win over the bare deletion', () => {
    const deletion: Decision = { family: 'deleted', category: 'implementation', text: 'deleted package-lock.json', context: 'deleted package-lock.json', score: 4, order: 6 };
    const prose = decision('Clean reinstall: removed node_modules and package-lock.json, then npm install', 3.6, 5);
    expect(rankDecisions([prose, deletion], 10).map((item) => item.family)).toEqual(['change']);
  });

  it('should stay bounded on many candidates and touches', () => {
    const many = Array.from({ length: 5_000 }, (_, index) => ({ ...decision(`Moved handler${index} into module${index}.ts`, 4, index), proposed: index % 2 === 0 }));
    const files = Array.from({ length: 20_000 }, (_, index) => touch(`src/module${index}.ts`, 'edit', index + 1));
    const ranked = rankDecisions(many, 10, [], { files, signals: [] });
    expect(ranked.length).toBeLessThanOrEqual(MAX_SESSION_DECISIONS);
  });
});

describe('liveNotes', () => {
  it('should keep the last requests, the steps stated after them, and merge repeated problems', () => {
    const notes = [
      note('next:request:1', 'next', 'asked: build the export page', 1),
      note('next:step:2:a', 'next', 'next: add the CSV writer', 2),
      note('next:request:5', 'next', 'asked: the export button crashes the tab', 5),
      note('problem:a', 'problem', 'the export button crashes the tab', 5),
      note('next:request:9', 'next', 'asked: now add paging to the table', 9),
      note('next:step:10:b', 'next', 'next: run the table tests again', 10),
      note('problem:b', 'problem', 'The export button crashes the tab!', 11),
    ];
    const live = liveNotes(notes);
    expect(live.filter((item) => item.type === 'next').map((item) => item.order)).toEqual([5, 9, 10]);
    const problems = live.filter((item) => item.type === 'problem');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ frequency: 2, order: 11 });
  });
});

describe('liveNotes with empty replies', () => {
  it('should report the model as stalled from three empty replies on, once', () => {
    const replies = [3, 5, 7].map((order) => emptyReplyNote(order));
    expect(liveNotes(replies.slice(0, 2)).filter((item) => item.type === 'problem')).toEqual([]);
    const stalled = liveNotes(replies).filter((item) => item.type === 'problem');
    expect(stalled).toHaveLength(1);
    expect(stalled[0]).toMatchObject({ id: EMPTY_REPLY_ID, order: 7, frequency: 3 });
    expect(stalled[0]?.text).toContain('3 empty replies');
  });
});
