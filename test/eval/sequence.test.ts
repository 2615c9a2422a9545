import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSequenceCorpus, parseNextTruth } from '../../src/eval/sequence-corpus.js';
import { scoreSequence, sequenceReport, type SequenceRun } from '../../src/eval/sequence.js';
import { projectMemoryBlock } from '../../src/eval/continuity-score.js';
import { scratchFolders } from '../support/scratch.js';

const needed = [
  { text: 'keep the jobs in SQLite, not Redis', keywords: ['sqlite', 'redis'] },
  { text: 'the dark theme still shows grey cards', keywords: ['dark theme', 'grey|gray'] },
  { text: 'write the restart test', keywords: ['restart test'] },
];

const received = [
  '## Project Memory',
  '### Open problems',
  '- (2026-12-01) The dark theme still shows grey cards on the dashboard',
  '### Decisions',
  '- (2026-12-01) storage: keep jobs in SQLite instead of Redis',
  '- (2026-12-01) So we cannot create the folder because the file exists.',
  '',
  '## Knowledge Graph Context',
  'Next: write the restart test',
].join('\n');

describe('parseNextTruth', () => {
  it('should read a project, its earlier sessions in order, the later one and what it needed', () => {
    const truth = parseNextTruth(JSON.stringify({ project: 'shop', earlier: ['shop-1', 'shop-2'], later: 'shop-3', needed }), 'shop.next.json');
    expect(truth).toEqual({ project: 'shop', earlier: ['shop-1', 'shop-2'], later: 'shop-3', needed });
  });

  it('should name the file and the field when the shape is wrong', () => {
    expect(() => parseNextTruth('{', 'a.next.json')).toThrow('a.next.json is not JSON');
    expect(() => parseNextTruth(JSON.stringify({ project: 'shop', earlier: [], later: 'x', needed }), 'a.next.json')).toThrow('"earlier"');
    expect(() => parseNextTruth(JSON.stringify({ project: 'shop', earlier: ['a'], later: 'x', needed: [{ text: 'y', keywords: [] }] }), 'a.next.json')).toThrow('needed[0]');
    expect(() => parseNextTruth(JSON.stringify({ project: 'shop', earlier: ['a'], later: 'x', needed: [] }), 'a.next.json')).toThrow('at least one');
  });
});

describe('loadSequenceCorpus', () => {
  const scratch = scratchFolders('sequence-corpus', 'all');

  it('should load each project with its earlier sessions in the truth file\'s order, a missing export as unreadable', async () => {
    const folder = await scratch();
    await mkdir(join(folder, 'sessions'), { recursive: true });
    await mkdir(join(folder, 'truth'), { recursive: true });
    await writeFile(join(folder, 'sessions', 'b.json'), JSON.stringify({ info: { id: 'ses_b' }, messages: [] }));
    await writeFile(join(folder, 'truth', 'shop.next.json'), JSON.stringify({ project: 'shop', earlier: ['b', 'a'], later: 'c', needed }));
    await writeFile(join(folder, 'truth', 'notes.json'), '{}');
    const [project, ...rest] = await loadSequenceCorpus(folder);
    expect(rest).toEqual([]);
    expect(project?.sessions.map(({ name, session }) => [name, session.ok])).toEqual([
      ['b', true],
      ['a', false],
    ]);
  });
});

describe('projectMemoryBlock', () => {
  it('should end the block at the next block heading', () => {
    expect(projectMemoryBlock(received)).not.toContain('restart test');
    expect(projectMemoryBlock(received)).toContain('grey cards');
    expect(projectMemoryBlock('## Knowledge Graph Context\n- a')).toBe('');
  });
});

describe('scoreSequence', () => {
  it('should count what the Project Memory block holds line by line, and nothing from other blocks', () => {
    const score = scoreSequence(needed, received);
    expect([score.hits, score.total, score.missed]).toEqual([2, 3, ['write the restart test']]);
  });

  it('should score the block\'s decision, problem and next-step lines against what was needed', () => {
    expect(scoreSequence(needed, received).injected).toEqual({ lines: 3, matched: 2, unmatched: ['- (2026-12-01) So we cannot create the folder because the file exists.'] });
  });
});

describe('sequenceReport', () => {
  const run = (project: string, hits: number, total: number, lines: number, matched: number, tokens: number | null): SequenceRun => ({
    project,
    earlier: ['a', 'b'],
    later: 'c',
    ok: tokens !== null,
    received: null,
    score: { hits, total, missed: [], injected: { lines, matched, unmatched: [] } },
    tokens,
    blockTokens: tokens === null ? null : tokens / 2,
    notes: [],
    logs: [],
    ms: 1,
  });

  it('should pool recall over items and precision over lines, and give each project its own figures', () => {
    const report = sequenceReport('v1', [run('shop', 1, 4, 6, 3, 500), run('blog', 3, 4, 2, 1, 300), run('gone', 0, 2, 0, 0, null)]);
    expect(report).toMatchObject({ projects: 3, ok: 2, sessions: 6, needed_recall: 0.4, injected_precision: 0.5, injected_lines: 8, tokens_mean: 400, block_tokens_mean: 200 });
    expect(report.per_project['shop']).toEqual({ sessions: 2, ok: true, needed_recall: 0.25, needed: '1/4', injected_precision: 0.5, injected_lines: 6, tokens: 500, block_tokens: 250 });
    expect(report.per_project['gone']).toMatchObject({ ok: false, needed_recall: 0, injected_precision: 0, tokens: null });
  });
});
