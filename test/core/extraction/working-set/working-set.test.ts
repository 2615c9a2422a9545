import { describe, expect, it } from 'vitest';
import { filesFromToolInput, normalizeToolPath, pathArguments, touchesFromToolCall } from '../../../../src/core/extraction/working-set/working-set.js';

describe('normalizeToolPath', () => {
  it('should make paths under the project root relative', () => {
    expect(normalizeToolPath('/home/u/proj/src/a.ts', '/home/u/proj')).toBe('src/a.ts');
    expect(normalizeToolPath('/home/u/proj', '/home/u/proj/')).toBe('.');
  });

  it('should keep paths outside the root and clean separators', () => {
    expect(normalizeToolPath('/etc/hosts', '/home/u/proj')).toBe('/etc/hosts');
    expect(normalizeToolPath('./src//b.ts', null)).toBe('src/b.ts');
    expect(normalizeToolPath('src\\win\\c.ts', null)).toBe('src/win/c.ts');
    expect(normalizeToolPath('/home/u/project-other/x', '/home/u/proj')).toBe('/home/u/project-other/x');
  });

  it('should reject what cannot be a path', () => {
    expect(normalizeToolPath('', null)).toBeNull();
    expect(normalizeToolPath('a\0b', null)).toBeNull();
    expect(normalizeToolPath('line one\nline two', null)).toBeNull();
    expect(normalizeToolPath('x'.repeat(2_000), null)).toBeNull();
  });
});

describe('filesFromToolInput', () => {
  it('should read filePath and path arguments of file tools', () => {
    expect(filesFromToolInput('read', { filePath: '/p/src/a.ts' }, '/p')).toEqual(['src/a.ts']);
    expect(filesFromToolInput('list', { path: '/p/src' }, '/p')).toEqual(['src']);
  });

  it('should not take the search root of glob and grep for a worked-on file', () => {
    expect(filesFromToolInput('grep', { pattern: 'TODO', path: '/p' }, '/p')).toEqual([]);
    expect(filesFromToolInput('glob', { pattern: '**/*.ts', path: '/p/src' }, '/p')).toEqual([]);
  });

  it('should read every file an apply-patch body names', () => {
    const patchText = ['*** Begin Patch', '*** Update File: /p/src/a.ts', '@@', '-x', '+y', '*** Add File: docs/new.md', '*** Move to: docs/moved.md', '*** End Patch'].join('\n');
    expect(filesFromToolInput('patch', { patchText }, '/p')).toEqual(['src/a.ts', 'docs/new.md', 'docs/moved.md']);
  });

  it('should ignore arguments of the wrong type', () => {
    expect(filesFromToolInput('read', { filePath: 42, path: null }, null)).toEqual([]);
  });
});

describe('pathArguments', () => {
  it('should copy only the arguments that name files, flat and bounded', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    const kept = pathArguments({ filePath: 'src/a.ts', content: 'x'.repeat(1_000), data: deep, paths: ['b.ts', 7, 'c.ts'], patchText: '*** Add File: d.ts' });
    expect(kept).toEqual({ filePath: 'src/a.ts', paths: ['b.ts', 'c.ts'], patchText: '*** Add File: d.ts' });
    // What it keeps can cross to a worker.
    expect(structuredClone(kept)).toEqual(kept);
    expect(filesFromToolInput('edit', kept, null)).toEqual(['src/a.ts', 'b.ts', 'c.ts', 'd.ts']);
  });

  it('should keep nothing from inputs that are not records', () => {
    expect(pathArguments(null)).toEqual({});
    expect(pathArguments(['src/a.ts'])).toEqual({});
    expect(pathArguments('src/a.ts')).toEqual({});
    expect(pathArguments({ filePath: { evil: true }, paths: 'x' })).toEqual({});
  });
});

describe('pathArguments (commands and edits)', () => {
  it('should let a bounded shell command, its workdir and the heads of an edit cross', () => {
    const kept = pathArguments({
      command: `npm test ${'x'.repeat(10_000)}`,
      workdir: '/w/app',
      description: 'runs tests',
      oldString: 'a'.repeat(5_000),
      newString: 'b',
      edits: [{ oldString: 'c', newString: 'd', extra: { deep: true } }, 42, ...Array.from({ length: 20 }, () => ({ oldString: 'e', newString: 'f' }))],
    });
    expect((kept['command'] as string).length).toBe(8_192);
    expect(kept['workdir']).toBe('/w/app');
    expect(kept['description']).toBeUndefined();
    expect((kept['oldString'] as string).length).toBe(2_048);
    expect(kept['newString']).toBe('b');
    expect(kept['edits']).toHaveLength(7);
    expect((kept['edits'] as unknown[])[0]).toEqual({ oldString: 'c', newString: 'd' });
    expect(structuredClone(kept)).toEqual(kept);
  });
});

describe('touchesFromToolCall', () => {
  it('should say how each tool touched its file', () => {
    expect(touchesFromToolCall('edit', { filePath: '/w/src/a.ts' }, '/w')).toEqual([{ path: 'src/a.ts', action: 'edit' }]);
    expect(touchesFromToolCall('write', { filePath: '/w/src/b.ts' }, '/w')).toEqual([{ path: 'src/b.ts', action: 'write' }]);
    expect(touchesFromToolCall('read', { filePath: 'C:\\W\\src\\c.ts' }, 'C:/w')).toEqual([{ path: 'src/c.ts', action: 'read' }]);
    const patchText = '*** Begin Patch\n*** Update File: src/x.py\n*** Add File: src/y.py\n*** Delete File: src/z.py\n*** End Patch';
    expect(touchesFromToolCall('apply_patch', { patchText }, null)).toEqual([
      { path: 'src/x.py', action: 'edit' },
      { path: 'src/y.py', action: 'write' },
      { path: 'src/z.py', action: 'delete' },
    ]);
  });

  it('should read a shell command with the shell parser, relative to the project root', () => {
    expect(touchesFromToolCall('bash', { command: 'rm src/old.ts && git add src/new.ts', workdir: '/w' }, '/w')).toEqual([
      { path: '.', action: 'cwd' },
      { path: 'src/old.ts', action: 'delete' },
      { path: 'src/new.ts', action: 'write' },
    ]);
  });
});
