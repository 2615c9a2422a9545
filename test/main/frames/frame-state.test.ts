import { describe, expect, it } from 'vitest';
import { ancestorsOf, beginPop, captureSummary, childrenOf, emptyTree, frameToPop, pushFrame, type FrameTree } from '../../../src/main/frames/frame-state.js';

const NOW = '2026-11-23T10:00:00.000Z';

function treeWithChild(): FrameTree {
  const tree = emptyTree();
  const pushed = pushFrame(tree, { parentID: 'ses_root', sessionID: 'ses_a', goal: 'Add the cache', successCriteria: 'tests pass', now: NOW });
  expect(pushed.ok).toBe(true);
  return tree;
}

describe('pushFrame', () => {
  it('should create the root frame on the first push and make the child its current frame', () => {
    const tree = treeWithChild();
    expect(tree.frames['ses_root']).toMatchObject({ parentID: null, goal: '', status: 'in_progress', currentChild: 'ses_a' });
    expect(tree.frames['ses_a']).toMatchObject({ parentID: 'ses_root', goal: 'Add the cache', successCriteria: 'tests pass', status: 'in_progress', artifacts: [] });
  });

  it('should refuse an empty goal, a session that is already a frame, and a parent that is not in progress', () => {
    const tree = treeWithChild();
    expect(pushFrame(tree, { parentID: 'ses_root', sessionID: 'ses_b', goal: '  ', successCriteria: '', now: NOW })).toEqual({ ok: false, reason: 'a frame needs a goal' });
    expect(pushFrame(tree, { parentID: 'ses_root', sessionID: 'ses_a', goal: 'again', successCriteria: '', now: NOW }).ok).toBe(false);
    beginPop(tree, { sessionID: 'ses_a', outcome: 'completed', results: '', artifacts: [], now: NOW });
    const refused = pushFrame(tree, { parentID: 'ses_a', sessionID: 'ses_c', goal: 'nested', successCriteria: '', now: NOW });
    expect(refused).toEqual({ ok: false, reason: 'frame ses_a is completing; push from a frame in progress' });
  });
});

describe('frameToPop', () => {
  it("should pick the session's own frame, or from the parent its current child, and nothing from a root without one", () => {
    const tree = treeWithChild();
    expect(frameToPop(tree, 'ses_a')?.sessionID).toBe('ses_a');
    expect(frameToPop(tree, 'ses_root')?.sessionID).toBe('ses_a');
    expect(frameToPop(tree, 'ses_unknown')).toBeNull();
    beginPop(tree, { sessionID: 'ses_a', outcome: 'completed', results: '', artifacts: [], now: NOW });
    captureSummary(tree, { sessionID: 'ses_a', summary: 'done', now: NOW });
    expect(frameToPop(tree, 'ses_root')).toBeNull();
    expect(frameToPop(tree, 'ses_a')).toBeNull();
  });
});

describe('beginPop', () => {
  it('should mark the frame completing with its outcome, results and artifacts, and clear the parent\u2019s current child', () => {
    const tree = treeWithChild();
    const popped = beginPop(tree, { sessionID: 'ses_a', outcome: 'blocked', results: ' waiting for keys ', artifacts: ['src/cache.ts'], now: NOW });
    expect(popped.ok).toBe(true);
    expect(tree.frames['ses_a']).toMatchObject({ status: 'completing', outcome: 'blocked', results: 'waiting for keys', artifacts: ['src/cache.ts'] });
    expect(tree.frames['ses_root']?.currentChild).toBeUndefined();
    // Popping again (a retry of the compaction) is allowed while completing.
    expect(beginPop(tree, { sessionID: 'ses_a', outcome: 'blocked', results: '', artifacts: [], now: NOW }).ok).toBe(true);
  });

  it('should refuse the root frame and a finished frame', () => {
    const tree = treeWithChild();
    expect(beginPop(tree, { sessionID: 'ses_root', outcome: 'completed', results: '', artifacts: [], now: NOW })).toEqual({ ok: false, reason: 'the root frame has no parent to report to' });
    beginPop(tree, { sessionID: 'ses_a', outcome: 'completed', results: '', artifacts: [], now: NOW });
    captureSummary(tree, { sessionID: 'ses_a', summary: 's', now: NOW });
    expect(beginPop(tree, { sessionID: 'ses_a', outcome: 'completed', results: '', artifacts: [], now: NOW })).toEqual({ ok: false, reason: 'frame ses_a is already completed' });
  });
});

describe('captureSummary', () => {
  it('should store the summary and its time and end the frame in its outcome', () => {
    const tree = treeWithChild();
    beginPop(tree, { sessionID: 'ses_a', outcome: 'completed', results: '', artifacts: [], now: NOW });
    const captured = captureSummary(tree, { sessionID: 'ses_a', summary: 'Cache added.', now: '2026-11-23T11:00:00.000Z' });
    expect(captured.ok).toBe(true);
    expect(tree.frames['ses_a']).toMatchObject({ status: 'completed', compactionSummary: 'Cache added.', compactionTimestamp: '2026-11-23T11:00:00.000Z' });
  });

  it('should end a failed frame as failed, and leave a frame in progress alone (an overflow compaction)', () => {
    const tree = treeWithChild();
    expect(captureSummary(tree, { sessionID: 'ses_a', summary: 'midway', now: NOW })).toEqual({ ok: false, reason: 'frame ses_a is in_progress, not completing' });
    expect(tree.frames['ses_a']?.compactionSummary).toBeUndefined();
    beginPop(tree, { sessionID: 'ses_a', outcome: 'failed', results: '', artifacts: [], now: NOW });
    captureSummary(tree, { sessionID: 'ses_a', summary: null, now: NOW });
    expect(tree.frames['ses_a']).toMatchObject({ status: 'failed' });
    expect(tree.frames['ses_a']?.compactionSummary).toBeUndefined();
  });
});

describe('ancestorsOf', () => {
  it('should list the frames from the root down to the parent, and children oldest first', () => {
    const tree = treeWithChild();
    pushFrame(tree, { parentID: 'ses_a', sessionID: 'ses_a1', goal: 'Pick a client', successCriteria: '', now: '2026-11-23T10:01:00.000Z' });
    pushFrame(tree, { parentID: 'ses_a', sessionID: 'ses_a2', goal: 'Wire it', successCriteria: '', now: '2026-11-23T10:02:00.000Z' });
    expect(ancestorsOf(tree, 'ses_a1').map((frame) => frame.sessionID)).toEqual(['ses_root', 'ses_a']);
    expect(childrenOf(tree, 'ses_a').map((frame) => frame.sessionID)).toEqual(['ses_a1', 'ses_a2']);
    expect(ancestorsOf(tree, 'ses_root')).toEqual([]);
  });
});
