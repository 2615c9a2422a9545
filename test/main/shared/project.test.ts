import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveProject, sessionMemoryOwner } from '../../../src/main/shared/project.js';
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
    const owner = { kind: 'project', key: project.key };
    expect(sessionMemoryOwner(uri)).toEqual(owner);
    // RecentActivity names a note by its slug alone: the slug tells its project too.
    expect(sessionMemoryOwner(uri.slice(uri.lastIndexOf('/') + 1))).toEqual(owner);
  });
});

describe('sessionMemoryOwner', () => {
  it("should tell a project's session memory by folder and slug, and nothing else", () => {
    const key = 'my-app-1a2b3c4d';
    const owner = { kind: 'project', key };
    expect(sessionMemoryOwner(`memory://sessions/compaction/${key}/memory-digest-${key}`)).toEqual(owner);
    expect(sessionMemoryOwner(`memory-digest-${key}`)).toEqual(owner);
    expect(sessionMemoryOwner(`memory://sessions/compaction/${key}/anything-else`)).toEqual(owner);
    // A key whose name has digit segments of its own still comes back whole.
    expect(sessionMemoryOwner('compaction-build-12345678-87654321-20261128-090507042-ses4f2a')).toEqual({ kind: 'project', key: 'build-12345678-87654321' });
    // The first releases' notes name their project by its name alone.
    expect(sessionMemoryOwner('memory://sessions/compaction/2026/11/28/compaction-my-app-20261128-090507042-ses4f2a')).toEqual({ kind: 'unkeyed' });
    expect(sessionMemoryOwner('compaction-my-app-20261128-090507042-ses4f2a')).toEqual({ kind: 'unkeyed' });
    // A person's notes, another tool's beside the folders, a thinking session, a note naming a key in its title.
    for (const uri of ['memory://projects/my-app/auth-notes', 'memory://sessions/compaction/session-compaction-20261128-0905', `memory://notes/about-${key}`, 'memory://thinking/sequential/2026/11/28/session-1-1'])
      expect(sessionMemoryOwner(uri)).toEqual({ kind: 'none' });
  });
});
