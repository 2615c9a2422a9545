import { describe, expect, it } from 'vitest';
import type { FileTouch } from '../../../../src/workers/protocol.js';
import { inferProjectRoot, rankWorkingSet, relativeTo } from '../../../../src/core/extraction/working-set/working-set-rank.js';

const touch = (path: string, action: FileTouch['action'], order: number): FileTouch => ({ path, tool: 't', order, action });

describe('inferProjectRoot', () => {
  it('should take the shallowest folder commands ran in that holds the changed files', () => {
    const touches = [touch('/home/dev/repo', 'cwd', 1), touch('/home/dev/repo/tests/e2e/a.bats', 'write', 2), touch('/home/dev/repo/src/x.ts', 'read', 3)];
    expect(inferProjectRoot(touches)).toBe('/home/dev/repo');
  });

  it('should take the common folder when a project file lies in it', () => {
    const touches = [touch('/home/dev/web/src/a.ts', 'edit', 1), touch('/home/dev/web/src/b/c.ts', 'edit', 2), touch('/home/dev/web/package.json', 'read', 3)];
    expect(inferProjectRoot(touches)).toBe('/home/dev/web');
  });

  it('should otherwise keep the common folder in the paths', () => {
    const touches = [touch('/home/dev/os/iso/etc/a.conf', 'edit', 1), touch('/home/dev/os/iso/usr/b.py', 'write', 2), touch('/tmp/scratch.txt', 'write', 3)];
    expect(inferProjectRoot(touches)).toBe('/home/dev/os');
  });

  it('should read Windows paths without regard to case', () => {
    const touches = [touch('C:/Users/Dev/Shop', 'cwd', 0), touch('C:/Users/dev/shop/app/a.py', 'edit', 1)];
    expect(inferProjectRoot(touches)).toBe('C:/Users/Dev/Shop');
    expect(relativeTo('C:/Users/dev/shop/app/a.py', 'C:/Users/Dev/Shop')).toBe('app/a.py');
  });

  it('should give up on relative paths and on paths sharing no folder', () => {
    expect(inferProjectRoot([touch('src/a.ts', 'edit', 1)])).toBeNull();
    expect(inferProjectRoot([touch('/srv/a.ts', 'edit', 1), touch('/opt/b.ts', 'edit', 2)])).toBeNull();
  });
});

describe('rankWorkingSet', () => {
  it('should rank changed files above run and read ones, then by count and recency', () => {
    const touches = [
      touch('/w/notes.md', 'read', 1),
      touch('/w/notes.md', 'read', 2),
      touch('/w/notes.md', 'read', 3),
      touch('/w/src/old.ts', 'edit', 1),
      touch('/w/src/hot.ts', 'edit', 5),
      touch('/w/src/hot.ts', 'edit', 9),
      touch('/w/src/new.ts', 'write', 9),
      touch('/w/scripts/run.py', 'run', 9),
      touch('/w', 'cwd', 9),
      touch('/w/node_modules/x/index.js', 'read', 9),
      touch('/tmp/out.log', 'write', 9),
    ];
    expect(rankWorkingSet(touches, 10, '/w').map((entry) => `${entry.action} ${entry.path}`)).toEqual([
      'edit src/hot.ts',
      'write src/new.ts',
      'edit src/old.ts',
      'run scripts/run.py',
      'read notes.md',
    ]);
    expect(rankWorkingSet(touches, 2, '/w')).toHaveLength(2);
  });

  it('should prefer an edit to a write of the same age', () => {
    const ranked = rankWorkingSet([touch('b.ts', 'write', 4), touch('a.ts', 'edit', 4)], 5, null);
    expect(ranked.map((entry) => entry.path)).toEqual(['a.ts', 'b.ts']);
  });
});
