import { spawn } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createDoubleRoot, runDouble, type DoubleRoot, type DoubleRun } from '../../support/maenifold-double.js';

interface Envelope {
  success: boolean;
  data: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
}

const roots: DoubleRoot[] = [];

afterAll(async () => {
  await Promise.all(roots.map((root) => root.cleanup()));
});

async function newRoot(): Promise<DoubleRoot> {
  const root = await createDoubleRoot();
  roots.push(root);
  return root;
}

function call(root: DoubleRoot, tool: string, payload: unknown, json = false, env: Record<string, string> = {}): Promise<DoubleRun> {
  const args = ['--tool', tool, '--payload', typeof payload === 'string' ? payload : JSON.stringify(payload)];
  if (json) args.push('--json');
  return runDouble(args, { ...root.env, ...env });
}

/** Parses the single-line envelope, checking the exit code is 0 on the way. */
function envelope(run: DoubleRun): Envelope {
  expect(run.code).toBe(0);
  const lines = run.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '') as Envelope;
}

function errorCode(run: DoubleRun): string | undefined {
  return envelope(run).error?.code;
}

const linked = 'Notes on [[Compaction]] and [[token-budget]].';

describe('maenifold double: invocation and output modes', () => {
  it('should exit 0 on errors and print the envelope only with --json and only for envelope tools', async () => {
    const root = await newRoot();
    const refused = await call(root, 'WriteMemory', { title: 'x', content: 'no links' }, true);
    expect(envelope(refused)).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    const text = await call(root, 'WriteMemory', { title: 'x', content: 'no links' });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ERROR: /);
    const context = await call(root, 'BuildContext', { conceptName: 'x' }, true);
    expect(context.stdout).toMatch(/^Context for CONCEPT: x\n/);
    const bad = await call(root, 'SearchMemories', '{not json', true);
    expect(errorCode(bad)).toBe('INVALID_PAYLOAD');
    expect((await call(root, 'BuildContext', '[1]')).stdout).toMatch(/^Error invoking BuildContext: /);
  });

  it('should match tool names case-insensitively, reject snake_case and tools the contract leaves out, and record every call', async () => {
    const root = await newRoot();
    expect(envelope(await runDouble(['--json', '--payload', JSON.stringify({ title: 'A', content: linked }), '--tool', 'writememory'], root.env)).success).toBe(true);
    expect(errorCode(await call(root, 'write_memory', {}, true))).toBe('UNKNOWN_TOOL');
    expect(errorCode(await call(root, 'DeleteMemory', {}, true))).toBe('UNKNOWN_TOOL');
    const calls = await root.calls();
    expect(calls.map((c) => [c.tool, c.json])).toEqual([['writememory', true], ['write_memory', true], ['DeleteMemory', true]]);
    expect(calls[0]?.payload).toEqual({ title: 'A', content: linked });
  });
});

describe('maenifold double: its record of calls', () => {
  it('should read only the calls whose line is written whole, not one still being appended', async () => {
    const root = await newRoot();
    await call(root, 'Sync', {});
    const whole = await readFile(root.logPath, 'utf8');
    // Another process's call, caught half written.
    await writeFile(root.logPath, `${whole}{"argv":["--tool","WriteMem`);
    expect((await root.calls()).map((c) => c.tool)).toEqual(['Sync']);
  });
});

describe('maenifold double: WriteMemory and ReadMemory', () => {
  it('should ignore WikiLinks inside fenced, indented and inline code', async () => {
    const root = await newRoot();
    const onlyCode = '```\n[[fenced]]\n```\n\n~~~\n[[tilde]]\n~~~\n\n    [[indented]]\n\nand `[[inline]]` here';
    expect(errorCode(await call(root, 'WriteMemory', { title: 'Code', content: onlyCode }, true))).toBe('VALIDATION_ERROR');
    expect(envelope(await call(root, 'WriteMemory', { title: 'Code', content: `${onlyCode}\n\nbut [[real]]` }, true)).success).toBe(true);
  });

  it('should sanitise the title, slug it, write the frontmatter and read the note back by URI', async () => {
    const root = await newRoot();
    const written = envelope(await call(root, 'WriteMemory', { title: 'Plan: cache & [queue] #1', content: linked, folder: 'tech', tags: ['x y'] }, true));
    expect(written.data).toMatchObject({ uri: 'memory://tech/plan-cache-queue-1', title: 'Plan cache queue 1', folder: 'tech' });
    const file = await readFile(join(root.root, 'memory/tech/plan-cache-queue-1.md'), 'utf8');
    expect(file).toMatch(/^---\ntitle: Plan cache queue 1\npermalink: plan-cache-queue-1\ntype: memory\nstatus: saved\ncreated: "[^"]+"\nmodified: "[^"]+"\ntags:\n- x y\n---\n\n# Plan cache queue 1\n\nNotes on/);
    const read = envelope(await call(root, 'ReadMemory', { identifier: 'memory://tech/plan-cache-queue-1' }, true));
    expect(read.data).toMatchObject({ uri: 'memory://tech/plan-cache-queue-1', title: 'Plan cache queue 1' });
    expect(String(read.data?.['content'])).toContain(linked);
    expect(errorCode(await call(root, 'ReadMemory', { identifier: 'memory://tech/none' }, true))).toBe('NOT_FOUND');
  });

  it('should reject long titles, unsafe folders and block-listed WikiLinks', async () => {
    const root = await newRoot();
    await writeFile(join(root.root, 'memory/.wikilink-filter.json'), JSON.stringify({ Secret: 'internal' }));
    expect(errorCode(await call(root, 'WriteMemory', { title: 'x'.repeat(200), content: linked }, true))).toBe('PATH_TOO_LONG');
    expect(errorCode(await call(root, 'WriteMemory', { title: 'x', content: linked, folder: '../out' }, true))).toBe('PATH_VALIDATION_ERROR');
    expect(errorCode(await call(root, 'WriteMemory', { title: 'x', content: 'a [[secret]]' }, true))).toBe('FILTERED_WIKILINKS');
    expect(await readdir(join(root.root, 'memory'))).toEqual(['.wikilink-filter.json']);
  });
});

describe('maenifold double: reads', () => {
  it('should search files, and answer in plain text for stop-word queries and empty folders', async () => {
    const root = await newRoot();
    await root.seed({ 'tech/redis': `# Redis\n\n${'x'.repeat(300)} [[redis]] backs the cache.`, 'tech/other': '# Other\n\n[[other]] topic.' });
    const found = envelope(await call(root, 'SearchMemories', { query: 'redis cache', mode: 'Hybrid', pageSize: 5 }, true));
    const results = found.data?.['results'] as { path: string; snippet: string }[];
    expect(results.map((r) => r.path)).toEqual(['memory://tech/redis']);
    expect(results[0]?.snippet.length).toBe(200);
    expect((await call(root, 'SearchMemories', { query: 'the and' }, true)).stdout).toMatch(/^ERROR: Query contains no informative keywords/);
    expect((await call(root, 'SearchMemories', { query: 'redis', folder: 'none' }, true)).stdout).toBe('No memories found in specified folder\n');
  });

  it('should count co-occurrences and list recent activity from the last Sync only', async () => {
    const root = await newRoot();
    expect((await call(root, 'RecentActivity', { limit: 5, timespan: '1.00:00:00' })).stdout).toContain('No database found');
    await root.seed({ 'a': '# A\n\n## Setup\n[[redis]] and [[cache-layer]].', 'b': '# B\n\n[[Redis]] with the [[cache layer]].' });
    await call(root, 'WriteMemory', { title: 'C', content: '[[redis]] and [[cache-layer]] again.' });
    const context = (await call(root, 'BuildContext', { conceptName: 'Redis', depth: 1, maxEntities: 3 })).stdout;
    expect(context).toBe('Context for CONCEPT: redis\n\nDirect relations (1 CONCEPTS):\n  \u2022 cache-layer (co-occurs in 2 files) [community 0]\n    Files: memory://a, memory://b\n');
    await root.seed({});
    expect((await call(root, 'BuildContext', { conceptName: 'redis' })).stdout).toContain('co-occurs in 3 files');
    const recent = (await call(root, 'RecentActivity', { limit: 5, timespan: '03:00:00', includeContent: true })).stdout;
    expect(recent).toContain('**a** (memory)\n');
    expect(recent).toContain('  First H2: Setup\n  First H2 Content: [[redis]] and [[cache-layer]].');
    expect((await call(root, 'RecentActivity', { limit: 5, timespan: '24:00:00' })).stdout).toMatch(/^ERROR: Invalid timespan/);
  });
});

describe('maenifold double: SequentialThinking', () => {
  const think = (root: DoubleRoot, payload: Record<string, unknown>): Promise<DoubleRun> => call(root, 'SequentialThinking', payload, true, { AGENT_ID: 'agent' });

  it('should enforce the session rules and write thought sections', async () => {
    const root = await newRoot();
    const open = { response: 'About [[redis]].', nextThoughtNeeded: true, totalThoughts: 2 };
    expect(errorCode(await think(root, { ...open, response: 'no links', thoughtNumber: 0 }))).toBe('WIKILINK_REQUIRED');
    expect(errorCode(await think(root, { ...open, thoughtNumber: 1 }))).toBe('SESSION_MISSING');
    expect(errorCode(await think(root, { ...open, thoughtNumber: 0, sessionId: 'nope' }))).toBe('INVALID_SESSION_ID');
    expect(errorCode(await think(root, { ...open, thoughtNumber: 0, sessionId: 'session-1-1' }))).toBe('SESSION_NOT_FOUND');
    const started = envelope(await think(root, { ...open, thoughtNumber: 0 }));
    const sessionId = String(started.data?.['sessionId']);
    expect(sessionId).toMatch(/^session-\d+-\d{5}$/);
    expect(errorCode(await think(root, { ...open, thoughtNumber: 0, sessionId }))).toBe('SESSION_EXISTS');
    expect(errorCode(await think(root, { ...open, thoughtNumber: 1, sessionId, nextThoughtNeeded: false }))).toBe('CONCLUSION_REQUIRED');
    expect(errorCode(await think(root, { ...open, thoughtNumber: 1, sessionId, nextThoughtNeeded: false, conclusion: 'done' }))).toBe('CONCLUSION_WIKILINK_REQUIRED');
    const closed = envelope(await think(root, { ...open, thoughtNumber: 1, sessionId, nextThoughtNeeded: false, conclusion: 'Done with [[redis]].' }));
    expect(closed.data).toMatchObject({ sessionId, thoughtNumber: 1, status: 'completed', nextThoughtNeeded: false });
    const day = new Date(Number(sessionId.split('-')[1])).toISOString().slice(0, 10).split('-');
    const file = await readFile(join(root.root, 'memory/thinking/sequential', ...day, `${sessionId}.md`), 'utf8');
    expect(file.match(/^## Thought \d\/2 \[agent\]$/gm)).toEqual(['## Thought 0/2 [agent]', '## Thought 1/2 [agent]']);
    expect(file).toMatch(/^status: completed$/m);
    expect((await call(root, 'ListMemories', { path: `thinking/sequential/${day.join('/')}` })).stdout).toContain(`memory://thinking/sequential/${day.join('/')}/${sessionId}`);
  });
});

describe('maenifold double: fault injection', () => {
  it('should print garbage, cut-off JSON and error envelopes, crash with 134, slow down and flood on request', async () => {
    const root = await newRoot();
    const write = { title: 'Fault', content: linked };
    const [garbage, crash, slow, scoped, huge, cutoff, failed] = await Promise.all([
      call(root, 'WriteMemory', write, true, { MAENIFOLD_DOUBLE_FAULT: 'garbage' }),
      call(root, 'WriteMemory', write, true, { MAENIFOLD_DOUBLE_FAULT: 'crash' }),
      call(root, 'WriteMemory', write, true, { MAENIFOLD_DOUBLE_FAULT: 'slow:50' }),
      call(root, 'WriteMemory', write, true, { MAENIFOLD_DOUBLE_FAULT: 'crash', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'BuildContext,Sync' }),
      call(root, 'Sync', {}, false, { MAENIFOLD_DOUBLE_FAULT: 'huge' }),
      call(root, 'WriteMemory', write, true, { MAENIFOLD_DOUBLE_FAULT: 'cutoff' }),
      call(root, 'WriteMemory', write, true, { MAENIFOLD_DOUBLE_FAULT: 'error:INTERNAL_ERROR' }),
    ]);
    expect(cutoff.code).toBe(0);
    expect(cutoff.stdout.startsWith('{"success":true')).toBe(true);
    expect(() => JSON.parse(cutoff.stdout) as unknown).toThrow();
    expect(errorCode(failed)).toBe('INTERNAL_ERROR');
    expect(garbage.code).toBe(0);
    expect(() => JSON.parse(garbage.stdout) as unknown).toThrow();
    expect(crash.code).toBe(134);
    expect(crash.stdout).toBe('');
    expect(crash.stderr).toContain('Unhandled exception.');
    expect(envelope(slow).success).toBe(true);
    expect(envelope(scoped).success).toBe(true);
    expect(huge.code).toBe(0);
    expect(huge.stdout.length).toBe(50 * 1024 * 1024);
    expect(await root.calls()).toHaveLength(7);
  });

  it('should hang until killed', async () => {
    const root = await newRoot();
    const child = spawn(root.cliPath, ['--tool', 'Sync', '--payload', '{}'], {
      env: { ...process.env, ...root.env, MAENIFOLD_DOUBLE_FAULT: 'hang' },
      stdio: 'ignore',
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.on('exit', (code, signal) => resolve({ code, signal }));
    });
    // Once the call is recorded the double is past start-up and inside the fault.
    await vi.waitFor(async () => expect(await root.calls()).toHaveLength(1), { timeout: 20_000, interval: 20 });
    // A whole run of the double without the fault, started after the hanging one had recorded its call:
    // had the hanging one gone on to answer, it would have exited by the time this one did.
    expect(await call(root, 'Sync', {})).toMatchObject({ code: 0 });
    expect(child.exitCode).toBeNull();
    expect(child.signalCode).toBeNull();
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
  });
});
