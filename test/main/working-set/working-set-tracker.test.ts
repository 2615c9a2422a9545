import { describe, expect, it } from 'vitest';
import { createWorkingSetTracker, MAX_PATHS_PER_SESSION, MAX_TRACKED_SESSIONS } from '../../../src/main/working-set/working-set-tracker.js';

describe('createWorkingSetTracker', () => {
  it('should record tool paths relative to the worktree, most recent first', () => {
    const tracker = createWorkingSetTracker('/work/app');
    tracker.record('s', 'read', { filePath: '/work/app/src/a.ts' });
    tracker.record('s', 'edit', { filePath: 'src/b.ts' });
    tracker.record('s', 'grep', { pattern: 'x', path: '/work/app/src/api' });
    tracker.record('s', 'read', { filePath: '/work/app/src/a.ts' });
    tracker.record('s', 'bash', { command: 'ls' });
    expect(tracker.recent('s')).toEqual(['src/a.ts', 'src/api', 'src/b.ts']);
    expect(tracker.recent('other')).toEqual([]);
  });

  it('should merge paths found later as older than the recorded ones', () => {
    const tracker = createWorkingSetTracker('/w');
    tracker.record('s', 'read', { filePath: 'live.ts' });
    tracker.merge('s', ['newest-found.ts', 'older-found.ts', 'live.ts']);
    expect(tracker.recent('s')).toEqual(['live.ts', 'newest-found.ts', 'older-found.ts']);
  });

  it('should stay bounded and forget deleted sessions', () => {
    const tracker = createWorkingSetTracker('/w');
    for (let index = 0; index < MAX_PATHS_PER_SESSION + 50; index++) tracker.record('s', 'read', { filePath: `f${index}.ts` });
    expect(tracker.recent('s')).toHaveLength(MAX_PATHS_PER_SESSION);
    expect(tracker.recent('s', 2)).toEqual([`f${MAX_PATHS_PER_SESSION + 49}.ts`, `f${MAX_PATHS_PER_SESSION + 48}.ts`]);
    for (let index = 0; index < MAX_TRACKED_SESSIONS + 10; index++) tracker.record(`s${index}`, 'read', { filePath: 'a.ts' });
    expect(tracker.sessions).toBe(MAX_TRACKED_SESSIONS);
    tracker.forget(`s${MAX_TRACKED_SESSIONS + 9}`);
    expect(tracker.recent(`s${MAX_TRACKED_SESSIONS + 9}`)).toEqual([]);
  });

  it('should ignore malformed calls', () => {
    const tracker = createWorkingSetTracker(null);
    for (const args of [null, 'x', 42, { filePath: 7 }, {}]) tracker.record('s', 'read', args);
    expect(tracker.recent('s')).toEqual([]);
  });
});
