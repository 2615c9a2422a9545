import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../../src/core/extraction/decisions/decisions.js';
import { decisionWords } from '../../../../src/core/extraction/decisions/decision-words.js';
import { fillFromTurnReports, MAX_TURN_REPORT_LINES, type KeptDecision } from '../../../../src/core/extraction/decisions/turn-reports.js';

function decision(text: string, order: number, closing = false): Decision {
  return { family: 'change', category: 'implementation', text, context: text, score: closing ? 2.5 : 4, order, ...(closing ? { closing: true as const } : {}) };
}

function keptOf(decisions: readonly Decision[]): KeptDecision[] {
  return decisions.map((entry, index) => ({ decision: entry, index, words: decisionWords(entry.text) }));
}

describe('fillFromTurnReports', () => {
  const stated = [decision('Moved the retry budget into QueueConfig', 2), decision('Pinned node to 20.11 in .nvmrc', 8)];

  it('should fill up to the room, the latest turn first, placed among the stated decisions by its message', () => {
    const kept = keptOf(stated);
    const lines = [decision('InvoiceService: totals each invoice', 5, true), decision('export.ts: writes one CSV per customer', 10, true), decision('Mailer: sends the invoices', 12, true)];
    fillFromTurnReports(kept, lines, 4, stated, () => true);
    expect(kept.sort((a, b) => a.index - b.index).map((entry) => entry.decision.order)).toEqual([2, 8, 10, 12]);
  });

  it('should take one line from a message, counting a stated decision of that message, and none its edits do not bear out', () => {
    const kept = keptOf(stated);
    const lines = [decision('Ledger: keeps one row per booking', 8, true), decision('InvoiceService: totals each invoice', 5, true), decision('Mailer: sends the invoices', 5, true)];
    fillFromTurnReports(kept, lines, 4, stated, (line) => !line.text.startsWith('Mailer'));
    expect(MAX_TURN_REPORT_LINES).toBe(1);
    expect(kept.map((entry) => entry.decision.text)).toEqual([...stated.map((entry) => entry.text), 'InvoiceService: totals each invoice']);
  });

  it('should leave a list that already fills the room, and leave out a near repeat of what it holds', () => {
    const full = keptOf([...stated, decision('Switched the logger to JSON lines', 9), decision('Wrapped each tick in try/catch', 11)]);
    fillFromTurnReports(full, [decision('export.ts: writes one CSV per customer', 12, true)], 4, [], () => true);
    expect(full).toHaveLength(4);
    const kept = keptOf(stated);
    fillFromTurnReports(kept, [decision('Moved the retry budget into QueueConfig.', 12, true)], 4, stated, () => true);
    expect(kept).toHaveLength(2);
  });
});
