import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateCli } from '../../../../src/main/memory/cli/cli-locator.js';
import { createMaenifoldClient, MAX_PAYLOAD_BYTES, type MaenifoldClient } from '../../../../src/main/memory/cli/maenifold-client.js';
import { createDoubleRoot, type DoubleRoot } from '../../../../support/maenifold-double.js';
import { sessionUri } from '../../../../src/core/memory/memory-format.js';

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
  it('should write a note with the payload maenifold takes and return its URI', async () => {
    const result = await client.writeNote({ title: 'Client check', content: 'About [[redis]] "quoted" and $(not run)', folder: 'checks' }, timing);
    expect(result.ok).toBe(true);
    const uri = (result as { value: { uri: string } }).value.uri;
    expect(uri).toMatch(/^memory:\/\/checks\//);
    const file = await readFile(join(double.root, 'memory', `${uri.slice('memory://'.length)}.md`), 'utf8');
    expect(file).toContain('"quoted" and $(not run)');
    const [call] = await double.calls();
    expect(call).toMatchObject({ tool: 'WriteMemory', json: true, payload: { title: 'Client check', content: 'About [[redis]] "quoted" and $(not run)', folder: 'checks' } });
  });

  it("should classify a tool error from the envelope, never from the exit code, keeping maenifold's code", async () => {
    const result = await client.writeNote({ title: 'No links', content: 'only `[[in-code]]` here' }, timing);
    expect(result).toMatchObject({ ok: false, error: { code: 'TOOL_ERROR', toolCode: 'VALIDATION_ERROR' } });
    const thought = await client.appendThought({ response: 'no links', nextThoughtNeeded: true, thoughtNumber: 0, totalThoughts: 1 }, timing);
    expect(thought).toMatchObject({ ok: false, error: { code: 'TOOL_ERROR', toolCode: 'WIKILINK_REQUIRED' } });
  });

  it('should start and continue a thought session, read it back and find it in its folder', async () => {
    const base = { nextThoughtNeeded: false, conclusion: 'Done with [[redis]].', analysisType: 'retrospective' };
    const first = await client.appendThought({ ...base, response: 'First [[redis]] thought.', thoughts: 'Delivery abc.', thoughtNumber: 0, totalThoughts: 1 }, timing);
    expect(first).toMatchObject({ ok: true, value: { thoughtNumber: 0 } });
    const sessionId = first.ok ? (first.value.sessionId as string) : '';
    const calls = await double.calls();
    expect(Object.keys((calls.at(-1)?.payload ?? {}) as object)).toEqual(['response', 'thoughts', 'nextThoughtNeeded', 'conclusion', 'analysisType', 'thoughtNumber', 'totalThoughts']);
    const uri = sessionUri(sessionId) as string;
    const read = await client.readNote(uri, timing);
    expect(read.ok && read.value.content).toContain('Delivery abc.');
    const listed = await client.listNotes(uri.slice(0, uri.lastIndexOf('/')), timing);
    expect(listed.ok && listed.value).toContain(uri);
  });

  it('should answer the reads as data parsed from what the tools print', async () => {
    // The graph sees files only after Sync; seeding runs it.
    await double.seed({ 'one.md': '# One\n\n[[redis]] and [[cache-layer]]' });
    const related = await client.related({ concept: 'redis', depth: 1, maxEntities: 3 }, timing);
    expect(related.ok && related.value.find((relation) => relation.name === 'cache-layer')).toMatchObject({ cooccurrence: 1 });
    const recent = await client.recent({ limit: 5, withinMs: 86_400_000, includeContent: true }, timing);
    expect(recent.ok && recent.value.map((item) => item.id)).toContain('one');
    const calls = await double.calls();
    expect(calls.find((call) => call.tool === 'RecentActivity')?.payload).toEqual({ limit: 5, timespan: '1.00:00:00', includeContent: true });
    const search = await client.search({ query: 'redis', mode: 'Hybrid', pageSize: 5 }, timing);
    expect(search.ok && search.value.map((hit) => hit.path)).toContain('memory://one');
  });

  it('should read "No memories found" as no hits, and an answer of no known shape as BAD_OUTPUT', async () => {
    expect(await client.search({ query: 'redis', mode: 'Hybrid' }, timing)).toMatchObject({ ok: true });
    const garbage = await withFault('garbage').related({ concept: 'redis' }, timing);
    expect(garbage).toMatchObject({ ok: false });
  });

  it('should refuse a payload over the argv limit in UTF-8 bytes without spawning', async () => {
    const before = (await double.calls()).length;
    // 50,000 characters but 150,000 bytes.
    const result = await client.writeNote({ title: 't', content: `[[a]] ${'€'.repeat(50_000)}` }, timing);
    expect(result).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect((await double.calls()).length).toBe(before);
    expect(MAX_PAYLOAD_BYTES).toBe(131_071);
  });

  it('should report a missing CLI as a value', async () => {
    const missing = createMaenifoldClient({ found: false, tried: [] });
    expect(missing.available).toBe(false);
    expect(await missing.listNotes('', timing)).toMatchObject({ ok: false, error: { code: 'CLI_MISSING' } });
  });

  it('should take garbage from ListMemories for an answer not understood, never for an empty folder', async () => {
    expect(await withFault('garbage').listNotes('sessions', timing)).toMatchObject({ ok: false, error: { code: 'BAD_OUTPUT' } });
  });

  it('should turn hangs, garbage, crashes and floods into error values', async () => {
    const [hang, garbage, crash, huge] = await Promise.all([
      withFault('hang').related({ concept: 'x' }, { timeoutMs: 800 }),
      withFault('garbage').writeNote({ title: 't', content: '[[a]]' }, timing),
      withFault('crash').appendThought({ response: '[[a]]', nextThoughtNeeded: true, thoughtNumber: 0, totalThoughts: 1 }, timing),
      withFault('huge').listNotes('', timing),
    ]);
    expect(hang).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(garbage).toMatchObject({ ok: false, error: { code: 'BAD_OUTPUT' } });
    expect(crash).toMatchObject({ ok: false, error: { code: 'CRASHED' } });
    expect(huge).toMatchObject({ ok: false, error: { code: 'OUTPUT_TOO_LARGE' } });
  });
});
