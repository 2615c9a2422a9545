import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../../src/core/extraction/decisions/decisions.js';
import { COMMIT_REPORT_PENALTY, RESTATED_SUMMARY_PENALTY, restatementPenalty, withoutUndoneCommits } from '../../../../src/core/extraction/decisions/decision-provenance.js';
import { rankDecisions } from '../../../../src/core/extraction/pipeline/merge-prose.js';

const change = (text: string, order: number, score = 4.5): Decision => ({ family: 'change', category: 'implementation', text, context: text, order, score });
const carried = (text: string, order: number, score = 6): Decision => ({ family: 'carried', category: 'architecture', text, context: `key decisions: ${text}`, order, score });
const commit = (subject: string, order: number): Decision => ({ ...change(`committed: ${subject}`, order, 4), context: `git commit: ${subject}`, commitSize: 1 });

describe('restatementPenalty', () => {
  it('should lower a report line written right after a commit, not one written later', () => {
    const report = change('parse_invoice() now returns the line items with their tax rates', 13);
    const later = change('the exporter writes CSV with a header row', 20);
    const penalty = restatementPenalty([commit('add invoice parsing', 12), report, later]);
    expect(penalty(report)).toBe(COMMIT_REPORT_PENALTY);
    expect(penalty(later)).toBe(0);
  });

  it('should lower the items of a summary that follows a commit, and never the commit itself', () => {
    const done = commit('add invoice parsing', 12);
    const item = carried('Use decimal amounts, never floats, for money', 40);
    const penalty = restatementPenalty([done, item]);
    expect(penalty(item)).toBe(RESTATED_SUMMARY_PENALTY);
    expect(penalty(done)).toBe(0);
  });

  it('should keep the weight of a summary that opens the transcript, before any commit', () => {
    const item = carried('Use decimal amounts, never floats, for money', 0);
    expect(restatementPenalty([item, commit('add invoice parsing', 12)])(item)).toBe(0);
  });

  it('should penalise nothing in a session without commits', () => {
    const item = carried('Use decimal amounts, never floats, for money', 40);
    expect(restatementPenalty([change('Switched the parser to streaming', 39), item])(item)).toBe(0);
  });
});

describe('rankDecisions', () => {
  it('should rank the commits of the transcript above the later summary that restates them', () => {
    const decisions = [
      commit('add invoice parsing with tax rates', 12),
      commit('export invoices as CSV', 30),
      commit('validate customer VAT numbers', 48),
      commit('retry the mail queue with backoff', 66),
      carried('Use decimal amounts, never floats, for money', 90),
      carried('Keep the importer idempotent by hashing each file', 90),
      carried('Store every upload under its checksum name', 90),
      carried('Reject invoices whose totals disagree with their lines', 90),
      carried('Render dates in the customer locale', 90),
    ];
    const kept = rankDecisions(decisions, 4);
    expect(kept.every((decision) => decision.commitSize !== undefined)).toBe(true);
  });
});

describe('withoutUndoneCommits', () => {
  const undo: Decision = { family: 'change', category: 'implementation', text: 'undid the latest commit', context: 'git revert: HEAD', score: 0, order: 0, undoesCommit: true };

  it('should drop the latest commit a later command undid, and the undoing itself', () => {
    const first = commit('add invoice parsing', 12);
    const second = commit('switch amounts to floats', 20);
    const kept = withoutUndoneCommits([first, second, change('the parser streams lines', 21), { ...undo, order: 24 }]);
    expect(kept.map((decision) => decision.order)).toEqual([12, 21]);
  });

  it('should undo one commit per command, the latest still standing', () => {
    const kept = withoutUndoneCommits([commit('a', 1), commit('b', 2), { ...undo, order: 3 }, { ...undo, order: 4 }, commit('c', 5)]);
    expect(kept.map((decision) => decision.order)).toEqual([5]);
  });
});
