import { describe, expect, it } from 'vitest';
import { carriesSummary, clockMasked, comparableLine, extraLines, injectedLines, injectedPrecision, linesMissingFrom, leakage, missedContinuity, receivedUnits, scoreContinuity, summaryProbe, topicOccurs } from '../../src/eval/continuity-score.js';
import type { Truth } from '../../src/eval/score.js';

const truth: Truth = {
  session: 'storage',
  decisions: [
    { text: 'use SQLite instead of Redis', keywords: ['sqlite', 'redis'] },
    { text: 'ship one binary', keywords: ['binary|executable', 'ship'] },
  ],
  files: ['src/store.ts'],
  problems: [{ text: 'the cache lost writes on restart', keywords: ['cache', 'restart'] }],
  topics: ['state store|state management', 'sqlite'],
  next: [{ text: 'migrate the sessions table', keywords: ['migrat', 'sessions table'] }],
};

describe('receivedUnits', () => {
  it('should keep a bullet and its indented continuation together, and every other line apart', () => {
    const units = receivedUnits(['## Project memory', '- We chose SQLite', '  over Redis.', 'Plain line', '', '1. Next: migrate'].join('\n'));
    expect(units).toEqual(['## project memory', '- we chose sqlite over redis.', 'plain line', '1. next: migrate']);
  });
});

const block = [
  '## Project Memory',
  'What earlier sessions of the project shop left in memory, newest first.',
  '',
  '### Latest compaction summary (2026-12-01 10:00 UTC)',
  '> ## Decisions',
  '> - Use SQLite instead of Redis',
  '',
  '### Open problems',
  '- (2026-12-01) The cache lost writes',
  '  after a restart',
  '- (2026-12-01) "foo" is an unknown import symbol',
  '### In progress and next steps',
  '- Migrate the sessions table',
  '### Decisions',
  '- (2026-12-01) storage: use SQLite instead of Redis',
  "- (2026-12-01) We'll rewrite the tests.",
  '### Problems met before (settled or worked around)',
  '- DeprecationWarning: datetime.utcnow()',
  '',
  '## Knowledge Graph Context',
  '### Decisions',
  '- ship one binary',
].join('\n');

describe('injectedLines', () => {
  it('should take the bullets under the decision, open-problem and next-step headings of the Project Memory block, continuations joined', () => {
    expect(injectedLines(block)).toEqual([
      { kind: 'problem', text: '- (2026-12-01) The cache lost writes after a restart' },
      { kind: 'problem', text: '- (2026-12-01) "foo" is an unknown import symbol' },
      { kind: 'next', text: '- Migrate the sessions table' },
      { kind: 'decision', text: '- (2026-12-01) storage: use SQLite instead of Redis' },
      { kind: 'decision', text: "- (2026-12-01) We'll rewrite the tests." },
    ]);
  });

  it('should find no lines in a text without the block', () => {
    expect(injectedLines('### Decisions\n- use SQLite instead of Redis')).toEqual([]);
  });
});

describe('injectedPrecision', () => {
  it('should count a line that matches a truth item of any kind, and list the others', () => {
    const items = [...truth.decisions, ...truth.problems, ...truth.next];
    expect(injectedPrecision(block, items)).toEqual({ lines: 5, matched: 3, unmatched: ['- (2026-12-01) "foo" is an unknown import symbol', "- (2026-12-01) We'll rewrite the tests."] });
  });

  it('should match a line filed under another kind than its truth item', () => {
    const asNext = '## Project Memory\n### In progress and next steps\n- use SQLite instead of Redis';
    expect(injectedPrecision(asNext, truth.decisions)).toMatchObject({ lines: 1, matched: 1 });
  });
});

describe('scoreContinuity', () => {
  it('should carry the injected-line precision against the session\'s decisions, problems and next steps', () => {
    expect(scoreContinuity(truth, block, '').injected).toMatchObject({ lines: 5, matched: 3 });
    expect(missedContinuity(truth).injected).toEqual({ lines: 0, matched: 0, unmatched: [] });
  });

  it('should not count an item whose groups are split over two lines', () => {
    const score = scoreContinuity(truth, 'We moved to SQLite.\nRedis is gone.', '');
    expect(score.counts.decisionHits).toBe(0);
    expect(score.missed.decisions).toContain('use SQLite instead of Redis');
  });

  it('should count an item whose groups all occur in one line, case and width aside', () => {
    const score = scoreContinuity(truth, '## Decisions\n- Use ＳＱＬｉｔｅ instead of REDIS', '');
    expect(score.counts.decisionHits).toBe(1);
    expect(score.counts.decisionTruth).toBe(2);
  });

  it('should accept any alternative of a group', () => {
    const score = scoreContinuity(truth, 'We ship a single executable.', '');
    expect(score.counts.decisionHits).toBe(1);
    expect(score.missed.decisions).toEqual(['use SQLite instead of Redis']);
  });

  it('should count a bullet that continues on an indented line as one unit', () => {
    const score = scoreContinuity(truth, '- The cache lost writes\n  after every restart.', '');
    expect(score.counts.problemHits).toBe(1);
  });

  it('should score problems and next steps line by line too', () => {
    const score = scoreContinuity(truth, 'Open: the cache dropped writes\nafter a restart\nNext: migrate the sessions table', '');
    expect(score.counts.problemHits).toBe(0);
    expect(score.counts.nextHits).toBe(1);
  });

  it('should find a topic anywhere in the text, as written or with hyphens for spaces', () => {
    const score = scoreContinuity(truth, 'Concepts: [[state-store]]', '');
    expect(score.counts.topicHits).toBe(1);
    expect(score.missed.topics).toEqual(['sqlite']);
  });

  it('should tell whether the delivered summary was carried', () => {
    const probe = summaryProbe('## Goal\n\nMove the **session store** to SQLite.\n## Done\n- x');
    expect(scoreContinuity(truth, 'Latest summary:\n> Move the session store to SQLite.', probe).carried).toBe(true);
    expect(scoreContinuity(truth, '## Goal', probe).carried).toBe(false);
  });

  it('should miss everything for a failed run', () => {
    const score = missedContinuity(truth);
    expect(score.counts).toEqual({ decisionTruth: 2, decisionHits: 0, problemTruth: 1, problemHits: 0, nextTruth: 1, nextHits: 0, topicTruth: 2, topicHits: 0 });
    expect(score.carried).toBe(false);
  });
});

describe('summaryProbe', () => {
  it('should take the first line that is not a heading or a rule, without markdown, cut to 80 characters', () => {
    expect(summaryProbe('## Objective\n---\n- Design a **tool** suite')).toBe('design a tool suite');
    expect(summaryProbe(`Summary marker ${'x'.repeat(100)}`)).toHaveLength(80);
    expect(summaryProbe('## Only a heading')).toBe('only a heading');
  });

  it('should never be carried when empty', () => {
    expect(carriesSummary('anything', '')).toBe(false);
  });
});

describe('extraLines', () => {
  it('should count the lines only the tested run received, with their multiplicity', () => {
    const alone = '## Project memory\n- Use SQLite\n- Use SQLite';
    const withOther = '## Project memory\n- Use SQLite\n- Use SQLite\n- Use SQLite\n- Angular theme tokens\n\n';
    expect(extraLines(withOther, alone)).toEqual(['- Use SQLite', '- Angular theme tokens']);
  });

  it('should not count lines that differ only in dates, times, stamps or ages', () => {
    const alone = 'Latest summary (2026-11-28T00:12:32.514Z, 3 minutes ago), chain session-1795824752655';
    const withOther = 'Latest summary (2026-11-28T00:14:01Z, 5 minutes ago), chain session-1795824765571';
    expect(extraLines(withOther, alone)).toEqual([]);
    expect(comparableLine('at 10:42:07 today')).toBe('at <time> today');
  });

  it('should not count lines the tested run lost', () => {
    expect(extraLines('- a', '- a\n- b')).toEqual([]);
  });
});

describe('leakage', () => {
  it('should count lines from the other project and every line the untouched project gained over an empty memory', () => {
    const found = leakage(
      { withOther: '## Memory\n- SQLite\n- Angular theme', alone: '## Memory\n- SQLite' },
      { shared: 'rules\n## Memory\n- SQLite', empty: 'rules' },
    );
    expect(found.fromOther).toEqual(['- Angular theme']);
    expect(found.intoUntouched).toEqual(['## Memory', '- SQLite']);
  });
});

describe('clockMasked', () => {
  it('should mask dates, times and ages and leave every other character as it was', () => {
    const text = '### Latest compaction summary (2026-12-01 22:32 UTC)\n- (2026-12-01) Use SQLite, 3 days ago; Redis';
    expect(clockMasked(text)).toBe('### Latest compaction summary (<date> UTC)\n- (<date>) Use SQLite, <age>; Redis');
    expect(clockMasked(text.replace('22:32', '22:33').replace('3 days', '4 days'))).toBe(clockMasked(text));
  });
});

describe('linesMissingFrom', () => {
  it('should list the lines one text has beyond the other, as they are, each as often as it is missing', () => {
    expect(linesMissingFrom('Key concepts: css, Tokens\n- a\n- a\n\n', '- a\nKey concepts: css')).toEqual(['Key concepts: css, Tokens', '- a']);
    expect(linesMissingFrom('- a', '  - a  ')).toEqual([]);
  });
});
