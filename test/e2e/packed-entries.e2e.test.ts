/**
 * Both entry points of the packed tarball, as OpenCode's loaders take them: the 1.x entry file every
 * other end-to-end file runs in the real server, and here the folder 2.x names (`dist/plugin`, its
 * index), booted by the 2.x contract host under Node as 2.x's service would: it starts, keeps a
 * compaction and gives the next session its memory, from the built files alone.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { startV2Service, type V2Service } from '../../support/opencode-v2/service.js';
import { LEAN_POOL } from '../../support/opencode/runtime.js';

let scratch = '';
let service: V2Service | undefined;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'maenifold-packed-'));
  service = await startV2Service();
});

afterAll(async () => {
  await service?.close();
  vi.unstubAllEnvs();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('loads through the folder 2.x names and through the 1.x entry file, one default export for both', async () => {
    const { template } = inject('e2eRuntime');
    const packed = join(template, 'node_modules', 'opencode-maenifold', 'dist', 'plugin');
    const folder = (await import(pathToFileURL(join(packed, 'index.js')).href)) as Record<string, unknown>;
    const file = (await import(pathToFileURL(join(packed, 'maenifold.js')).href)) as Record<string, unknown>;
    expect(Object.keys(folder)).toEqual(['default']);
    expect(folder['default']).toBe(file['default']);
    const plugin = folder['default'] as { id?: unknown; server?: unknown; setup?: unknown };
    expect([plugin.id, typeof plugin.server, typeof plugin.setup]).toEqual(['opencode-maenifold', 'function', 'function']);

    const root = join(scratch, 'maenifold');
    const stateDir = join(scratch, 'state');
    const directory = join(scratch, 'shop');
    await mkdir(directory, { recursive: true });
    vi.stubEnv('MAENIFOLD_ROOT', root);
    const shop = await (service as V2Service).boot(folder, { directory, options: { store: 'files', stateDir, pool: LEAN_POOL } });
    const log = async () => (await readFile(join(stateDir, 'maenifold.log'), 'utf8').catch(() => '')).split('\n');
    shop.turn('ses_p1', 'The cart total is wrong.', 'We decided to use integer cents instead of floats because rounding broke the totals.');
    await shop.compact('ses_p1', { summary: '## Goal\nFix the cart total.\n\n## Progress\n- PACKED-MARK: totals kept in cents.' });
    await vi.waitFor(async () => expect((await log()).some((line) => line.includes(' INFO summary: thought 0 of chain'))).toBe(true), { timeout: 20_000, interval: 50 });
    const next = await shop.modelCall('ses_p2', 'primary');
    expect(next.added.join('\n')).toContain('PACKED-MARK');
    const lines = await log();
    expect(lines.find((line) => line.includes(' INFO store: '))).toContain('; OpenCode 2.0.24 (2.x plugin API)');
    await shop.unload();
  });
});
