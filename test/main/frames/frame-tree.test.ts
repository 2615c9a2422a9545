import { describe, expect, it } from 'vitest';
import { renderFrameTree } from '../../../src/main/frames/frame-tree.js';
import type { Frame, FrameTree } from '../../../src/main/frames/frame-state.js';

const AT = '2026-03-04T10:00:00.000Z';
const frame = (sessionID: string, parentID: string | null, goal: string, extra: Partial<Frame> = {}): Frame => ({
  sessionID,
  parentID,
  goal,
  successCriteria: '',
  status: 'in_progress',
  artifacts: [],
  createdAt: AT,
  updatedAt: AT,
  ...extra,
});

function tree(...frames: Frame[]): FrameTree {
  return { frames: Object.fromEntries(frames.map((f) => [f.sessionID, f])) } as FrameTree;
}

describe('renderFrameTree', () => {
  it('should say how to start when there is no frame', () => {
    expect(renderFrameTree(tree(), 'ses_x')).toBe('No goal frames yet. Start one with flame_push.');
  });

  it("should show the asking session's tree, children indented, with marks, summaries and artifacts of finished frames", () => {
    const frames = tree(
      frame('ses_root', null, '', { currentChild: 'ses_b' }),
      frame('ses_a', 'ses_root', 'Add the cache', { status: 'completed', compactionSummary: 'Redis in front of the API.', artifacts: ['src/cache.ts'] }),
      frame('ses_b', 'ses_root', 'Fix the tests'),
      frame('ses_other', null, ''),
    );
    expect(renderFrameTree(frames, 'ses_b')).toBe(
      [
        'Goal frames:',
        '- [in_progress] (root session) (session ses_root)',
        '  - [completed] Add the cache (session ses_a)',
        '      Summary: Redis in front of the API.',
        '      Artifacts: src/cache.ts',
        '  - [in_progress] Fix the tests (session ses_b; this session, current)',
      ].join('\n'),
    );
    // A session without a frame sees every root.
    expect(renderFrameTree(frames, 'ses_none').split('\n').filter((line) => line.startsWith('- '))).toHaveLength(2);
  });

  it('should redact secrets a stored frame holds and cap long summaries', () => {
    const frames = tree(frame('ses_root', null, ''), frame('ses_a', 'ses_root', 'Deploy with AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', { status: 'failed', results: 'x'.repeat(5_000) }));
    const text = renderFrameTree(frames, 'ses_a');
    expect(text).not.toContain('wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY');
    const summary = text.split('\n').find((line) => line.includes('Summary: Results: ')) ?? '';
    expect(summary.endsWith('\u2026')).toBe(true);
    expect(summary.length).toBeLessThan(1_300);
  });

  it('should not loop on a tree whose parents form a cycle', () => {
    const frames = tree(frame('ses_a', 'ses_b', 'A'), frame('ses_b', 'ses_a', 'B'));
    expect(renderFrameTree(frames, 'ses_a').split('\n').length).toBeLessThanOrEqual(3);
  });
});
