import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../src/workers/stages/decisions.js';
import type { Observation } from '../../../src/workers/stages/observations.js';
import { MAX_DECISIONS_PER_MESSAGE, MAX_SESSION_DECISIONS, liveNotes, rankDecisions } from '../../../src/workers/stages/merge-prose.js';
import { EMPTY_REPLY_ID, emptyReplyNote } from '../../../src/workers/stages/prose-notes.js';

function decision(text: string, score: number, order: number): Decision {
  return { family: 'change', category: 'implementation', text, context: text, score, order };
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

  it('should cap the list and what one message places in it', () => {
    const many = Array.from({ length: 30 }, (_, index) => decision(`Moved handler${index} into module${index} for route${index}`, 5, Math.floor(index / 5)));
    const ranked = rankDecisions(many, 50);
    expect(ranked).toHaveLength(MAX_SESSION_DECISIONS);
    const perMessage = new Map<number, number>();
    for (const item of ranked) perMessage.set(item.order ?? -1, (perMessage.get(item.order ?? -1) ?? 0) + 1);
    expect(Math.max(...perMessage.values())).toBeLessThanOrEqual(MAX_DECISIONS_PER_MESSAGE);
    expect(rankDecisions(many, 3)).toHaveLength(3);
  });

  it('should raise a decision that answers the latest request before it', () => {
    const decisions = [decision('Wrapped each scheduler tick in try/catch', 4, 5), decision('Switched the logger to JSON lines', 4.2, 5), decision('Moved the cron expressions into application.yml', 4.1, 5)];
    const requests = [note('next:request:4', 'next', 'asked: make the scheduler survive a failing tick', 4)];
    const ranked = rankDecisions(decisions, 10, requests);
    expect(ranked).toHaveLength(3);
    expect(rankDecisions([...decisions, decision('Another change to the logger format', 4.3, 5)], 1, requests)[0]?.text).toBe('Wrapped each scheduler tick in try/catch');
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
