import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateCli } from '../../../../src/main/memory/cli/cli-locator.js';
import { createMaenifoldClient, MAX_PAYLOAD_BYTES, type MaenifoldClient } from '../../../../src/main/memory/cli/maenifold-client.js';
import { createDoubleRoot, type DoubleRoot } from '../../../support/maenifold-double.js';

let double: DoubleRoot;
let client: MaenifoldClient;
const timing = { timeoutMs: 10_000 };

function withFault(fault: string): MaenifoldClient {
  return createMaenifoldClient(locateCli('', double.env), { ...process.env, ...double.env, MAENIFOLD_DOUBLE_FAULT: fault });
}

beforeAll(async () => {
  double = await createDoubleRoot();
  client = createMaenifoldClient(locateCli('', { ...double.env, PATH: '' }), { ...process.env, ...double.env });
});
afterAll(async () => {
  await double.cleanup();
});

describe('locateCli', () => {
  it('should prefer the option, then MAENIFOLD_CLI, then PATH, then ~/maenifold/bin', () => {
    expect(locateCli(double.cliPath, { PATH: '' })).toMatchObject({ found: true, source: 'option' });
    expect(locateCli('', { MAENIFOLD_CLI: double.cliPath, PATH: '' })).toMatchObject({ found: true, source: 'MAENIFOLD_CLI' });
    expect(locateCli('', { PATH: join(double.cliPath, '..') })).toMatchObject({ found: true, source: 'PATH' });
    const missing = locateCli('', { PATH: '/nowhere', HOME: '/nohome' });
    expect(missing).toEqual({ found: false, tried: ['/nowhere/maenifold', '/nohome/maenifold/bin/maenifold'] });
  });
});

describe('createMaenifoldClient', () => {
  it('should return the envelope data of a JSON tool and write a real file', async () => {
    const result = await client.callJson('WriteMemory', { title: 'Client check', content: 'About [[redis]] "quoted" and $(not run)', folder: 'checks' }, timing);
    expect(result.ok).toBe(true);
    const uri = (result as { value: { uri: string } }).value.uri;
    expect(uri).toMatch(/^memory:\/\/checks\//);
    const file = await readFile(join(double.root, 'memory', `${uri.slice('memory://'.length)}.md`), 'utf8');
    expect(file).toContain('"quoted" and $(not run)');
    const [call] = await double.calls();
    expect(call).toMatchObject({ tool: 'WriteMemory', json: true });
  });

  it('should classify a tool error from the envelope, never from the exit code', async () => {
    const result = await client.callJson('WriteMemory', { title: 'No links', content: 'only `[[in-code]]` here' }, timing);
    expect(result).toMatchObject({ ok: false, error: { code: 'TOOL_ERROR', toolCode: 'VALIDATION_ERROR' } });
  });

  it('should return text tools as text and their ERROR lines as errors', async () => {
    const built = await client.callText('BuildContext', { conceptName: 'redis', depth: 1, maxEntities: 3 }, timing);
    expect(built.ok && built.value).toMatch(/^Context for CONCEPT: redis/);
    const bad = await client.callText('RecentActivity', { limit: 5, timespan: 'yesterday' }, timing);
    expect(bad).toMatchObject({ ok: false, error: { code: 'TOOL_ERROR' } });
  });

  it('should map a plain-text answer of a JSON tool only when asked to', async () => {
    const payload = { query: 'redis', mode: 'Hybrid', folder: 'nothing-here' };
    expect(await client.callJson('SearchMemories', payload, timing)).toMatchObject({ ok: false, error: { code: 'BAD_OUTPUT' } });
    const mapped = await client.callJson('SearchMemories', payload, timing, (text) => (/^No memories found/.test(text) ? { results: [] } : undefined));
    expect(mapped).toEqual({ ok: true, value: { results: [] } });
  });

  it('should refuse a payload over the argv limit in UTF-8 bytes without spawning', async () => {
    const before = (await double.calls()).length;
    // 50,000 characters but 150,000 bytes.
    const result = await client.callJson('WriteMemory', { title: 't', content: `[[a]] ${'€'.repeat(50_000)}` }, timing);
    expect(result).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect((await double.calls()).length).toBe(before);
    expect(MAX_PAYLOAD_BYTES).toBe(131_071);
  });

  it('should report a missing CLI as a value', async () => {
    const missing = createMaenifoldClient({ found: false, tried: [] });
    expect(missing.available).toBe(false);
    expect(await missing.callText('Sync', {}, timing)).toMatchObject({ ok: false, error: { code: 'CLI_MISSING' } });
  });

  it('should turn hangs, garbage, crashes and floods into error values', async () => {
    const [hang, garbage, crash, huge] = await Promise.all([
      withFault('hang').callText('BuildContext', { conceptName: 'x' }, { timeoutMs: 800 }),
      withFault('garbage').callJson('WriteMemory', { title: 't', content: '[[a]]' }, timing),
      withFault('crash').callJson('SequentialThinking', { response: '[[a]]' }, timing),
      withFault('huge').callText('ListMemories', {}, timing),
    ]);
    expect(hang).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(garbage).toMatchObject({ ok: false, error: { code: 'BAD_OUTPUT' } });
    expect(crash).toMatchObject({ ok: false, error: { code: 'CRASHED' } });
    expect(huge).toMatchObject({ ok: false, error: { code: 'OUTPUT_TOO_LARGE' } });
  });
});
