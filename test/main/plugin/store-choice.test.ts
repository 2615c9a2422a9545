import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvePluginOptions } from '../../../src/main/options/plugin-options.js';
import { startHarness, type Harness } from '../../support/plugin-harness.js';
import { filePool } from '../../support/file-pool.js';
import { message } from '../../../support/fake-host.js';

const pool = filePool();
let harness: Harness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('resolvePluginOptions', () => {
  it('should default the store to auto and validate it', () => {
    expect(resolvePluginOptions({}, {}).options.store).toBe('auto');
    expect(resolvePluginOptions({}, { MAENIFOLD_STORE: 'files' }).options.store).toBe('files');
    const bad = resolvePluginOptions({ store: 'sqlite' }, {});
    expect(bad.options.store).toBe('auto');
    expect(bad.issues).toEqual([{ key: 'store', expected: 'one of auto, maenifold, files', actual: 'sqlite', used: { value: 'auto', from: 'the default' } }]);
  });
});

describe('createMaenifoldPlugin', () => {
  it('should use the file store when no CLI is found, say so in one line, and keep a note', async () => {
    harness = await startHarness({}, { MAENIFOLD_CLI: '' }, undefined, { pool: pool() });
    await harness.plugin.logger.flush();
    const chosen = harness.host.linesWith('store: built-in files under');
    expect(chosen).toHaveLength(1);
    expect(chosen[0]?.message).toContain('maenifold CLI not found');
    harness.host.setMessages('ses_a', [message('m1', 'user', '## Plan\nWe decided to use [[Redis]] for the [[cache layer]] because every node shares it, always, and every node reads it often.')]);
    await harness.plugin.hooks['experimental.session.compacting']?.({ sessionID: 'ses_a' }, { context: [] });
    await harness.plugin.background.idle();
    const notes = await readdir(join(harness.double.root, 'memory', 'sessions', 'compaction'), { recursive: true });
    // Beside the note, the project's memory digest.
    expect(notes.filter((name) => name.endsWith('.md') && !name.includes('memory-digest-'))).toHaveLength(1);
    expect((await harness.double.calls()).filter((call) => call.tool === 'WriteMemory')).toEqual([]);
  });

  it('should use the CLI when found and the store option is auto', async () => {
    // No session context: the line that names the store is the point, not the CLI calls it would make.
    harness = await startHarness({ sessionStart: false }, {}, undefined, { pool: pool() });
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('store: maenifold CLI')).toHaveLength(1);
    expect(harness.host.linesWith('store: built-in files')).toHaveLength(0);
  });

  it('should stay without a store when the option is maenifold and no CLI is found', async () => {
    harness = await startHarness({ store: 'maenifold' }, { MAENIFOLD_CLI: '' }, undefined, { pool: pool() });
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('maenifold CLI not found')).toHaveLength(1);
    expect(harness.host.linesWith('store: built-in files')).toHaveLength(0);
  });
});
