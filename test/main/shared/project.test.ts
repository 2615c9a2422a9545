import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProjectUri, resolveProject } from '../../../src/main/shared/project.js';
import { noteLocation } from '../../../src/core/memory/memory-format.js';
import { buildCompactionNote } from '../../../src/main/compaction/compaction-note.js';
import type { Extraction } from '../../../src/main/compaction/extraction-engine.js';
import { scratchFolders } from '../../support/scratch.js';
import { bindMount } from '../../support/scratch-mount.js';

const scratch = scratchFolders('project');

describe('resolveProject', () => {
  it('should tell apart two folders of one name, and join two routes to one folder', async () => {
    const root = await scratch();
    await mkdir(join(root, 'a', 'api'), { recursive: true });
    await mkdir(join(root, 'b', 'api'), { recursive: true });
    await symlink(join(root, 'a', 'api'), join(root, 'link'));
    const a = resolveProject('', join(root, 'a', 'api'));
    const b = resolveProject('', join(root, 'b', 'api'));
    expect(a.name).toBe('api');
    expect(b.name).toBe('api');
    expect(a.key).not.toBe(b.key);
    expect(a.key).toMatch(/^api-[0-9a-f]{8}$/);
    expect(resolveProject('', join(root, 'link')).key).toBe(a.key);
  });

  it('should give a folder reached through a bind mount, and through a link to that mount, the key of its first route', async (context) => {
    const root = await scratch();
    const first = join(root, 'src', 'acme');
    const second = join(root, 'mnt', 'acme');
    await mkdir(first, { recursive: true });
    await mkdir(second, { recursive: true });
    const before = resolveProject('', first);
    const unmount = bindMount(first, second);
    // Mounting needs root and a kernel that allows it in this container.
    if (!unmount) return context.skip();
    try {
      await symlink(second, join(root, 'link'));
      expect(resolveProject('', second).key).toBe(before.key);
      expect(resolveProject('', join(root, 'link')).key).toBe(before.key);
      // The first route keeps the key it had before the second existed.
      expect(resolveProject('', first)).toEqual(before);
      // A folder of the same name beside it is still another project.
      await mkdir(join(root, 'other', 'acme'), { recursive: true });
      expect(resolveProject('', join(root, 'other', 'acme')).key).not.toBe(before.key);
    } finally {
      unmount();
    }
  });

  it('should give every folder named alike by the project option one memory', async () => {
    const root = await scratch();
    const one = resolveProject('Shop Front', join(root, 'x'));
    const two = resolveProject('Shop Front', join(root, 'y'));
    expect(one.key).toBe(two.key);
    expect(one.name).toBe('Shop Front');
    expect(one.noteFolder).toBe(`sessions/compaction/${one.key}`);
  });

  it("should file each compaction note where its project's reads find it, under the slug prefix", async () => {
    const project = resolveProject('', join(await scratch(), 'my-app'));
    const extraction = { concepts: [{ name: 'sqlite' }], decisions: [], observations: [], next: [], files: [] } as unknown as Extraction;
    const note = buildCompactionNote(project, 'ses_4f2a91c07ffeYb3LqP0aZt2mQw', extraction, new Date(2026, 10, 28, 9, 5, 7, 42));
    const { uri } = noteLocation(note.folder, note.title);
    expect(note.folder).toBe(project.noteFolder);
    expect(uri.slice(uri.lastIndexOf('/') + 1).startsWith(project.noteSlugPrefix)).toBe(true);
    expect(isProjectUri(project, uri, null)).toBe(true);
    const other = resolveProject('', join(await scratch(), 'my-app'));
    expect(isProjectUri(other, uri, null)).toBe(false);
    expect(isProjectUri(project, 'memory://thinking/sequential/2026/11/28/session-1-1', 'session-1-1')).toBe(true);
  });
});
