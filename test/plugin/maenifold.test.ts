import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as entry from '../../plugin/maenifold.js';
import * as folderEntry from '../../plugin/index.js';
import { createFakeHost } from '../../support/fake-host.js';

describe('plugin entry', () => {
  it('should export only default: an id, the 1.x server and the 2.x setup', () => {
    expect(Object.keys(entry)).toEqual(['default']);
    expect(entry.default.id).toBe('opencode-maenifold');
    expect(typeof entry.default.server).toBe('function');
    expect(typeof entry.default.setup).toBe('function');
  });

  it('should be the folder entry 2.x loads, which exports only the same default', () => {
    expect(Object.keys(folderEntry)).toEqual(['default']);
    expect(folderEntry.default).toBe(entry.default);
  });

  it('should return no hooks when disabled', async () => {
    const host = createFakeHost();
    expect(await entry.default.server({ client: host.client }, { enabled: false })).toEqual({});
  });

  it('should do nothing in setup when the context has no sessions, as the 1.18.33 preview loader calls it', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'maenifold-preview-'));
    try {
      const cleanup = await entry.default.setup({ options: { stateDir }, app: { name: 'opencode', version: '1.18.33' } });
      expect(typeof cleanup).toBe('function');
      await (cleanup as () => Promise<void> | void)();
      // No instance: no log file, no state.
      expect(await readdir(stateDir)).toEqual([]);
    } finally {
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});
