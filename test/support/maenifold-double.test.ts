import { spawn } from 'node:child_process';
import { readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createDoubleRoot, runDouble, type DoubleRoot, type DoubleRun } from './maenifold-double.js';

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
const daysAgo = (days: number): Date => new Date(Date.now() - days * 86_400_000);

describe('maenifold double: invocation and output modes', () => {
  it('should exit 0 on errors and print the envelope only with --json and only for the five envelope tools', async () => {
    const root = await newRoot();
    const noLink = { title: 'No link', content: 'plain text' };
    const [writeJson, writeText, readJson, deleteJson, searchJson, thinkJson, build, recent, list] = await Promise.all([
      call(root, 'WriteMemory', noLink, true),
      call(root, 'WriteMemory', noLink),
      call(root, 'ReadMemory', { identifier: 'memory://missing' }, true),
      call(root, 'DeleteMemory', { identifier: 'missing', confirm: true }, true),
      call(root, 'SearchMemories', { query: 'compaction', mode: 'Hybrid' }, true),
      call(root, 'SequentialThinking', { response: 'no link', nextThoughtNeeded: true, thoughtNumber: 0, totalThoughts: 1 }, true),
      call(root, 'BuildContext', { conceptName: 'compaction' }, true),
      call(root, 'RecentActivity', { limit: 5 }, true),
      call(root, 'ListMemories', {}, true),
    ]);
    // After the others: RecentActivity above must run before any graph exists.
    const sync = await call(root, 'Sync', {}, true);
    expect(errorCode(writeJson)).toBe('VALIDATION_ERROR');
    expect(writeText.code).toBe(0);
    expect(writeText.stdout).toMatch(/^ERROR: .*WikiLink/);
    expect(errorCode(readJson)).toBe('NOT_FOUND');
    expect(errorCode(deleteJson)).toBe('NOT_FOUND');
    expect(envelope(searchJson)).toMatchObject({ success: true, error: null, data: { results: [] } });
    expect(errorCode(thinkJson)).toBe('WIKILINK_REQUIRED');
    for (const run of [build, recent, list, sync]) {
      expect(run.code).toBe(0);
      expect(run.stdout.trimStart().startsWith('{')).toBe(false);
    }
    expect(build.stdout).toMatch(/^Context for CONCEPT: compaction\n/);
    expect(recent.stdout).toContain('No database found');
    expect(sync.stderr).toContain('[SYNC TELEMETRY]');
  });

  it('should report INVALID_PAYLOAD in the tool’s output mode', async () => {
    const root = await newRoot();
    const [badJson, badText, badBuild, missing, notObject] = await Promise.all([
      call(root, 'WriteMemory', '{bad', true),
      call(root, 'WriteMemory', '{bad'),
      call(root, 'BuildContext', '{bad', true),
      runDouble(['--tool', 'ReadMemory', '--json'], root.env),
      call(root, 'ReadMemory', '[1,2]', true),
    ]);
    expect(errorCode(badJson)).toBe('INVALID_PAYLOAD');
    expect(badText.stdout).toMatch(/^Error invoking WriteMemory: /);
    expect(badBuild.code).toBe(0);
    expect(badBuild.stdout).toMatch(/^Error invoking BuildContext: /);
    expect(errorCode(missing)).toBe('INVALID_PAYLOAD');
    expect(errorCode(notObject)).toBe('INVALID_PAYLOAD');
  });

  it('should match tool names case-insensitively, reject snake_case, and take flags in any order', async () => {
    const root = await newRoot();
    const payload = JSON.stringify({ title: 'Flags', content: linked });
    const [lower, upper, reordered, snake, snakeText] = await Promise.all([
      call(root, 'writememory', { title: 'Lower', content: linked }, true),
      call(root, 'WRITEMEMORY', { title: 'Upper', content: linked }, true),
      runDouble(['--json', '--payload', payload, '--tool', 'WriteMemory'], root.env),
      call(root, 'write_memory', { title: 'Snake', content: linked }, true),
      call(root, 'write_memory', { title: 'Snake', content: linked }),
    ]);
    expect(envelope(lower).data?.uri).toBe('memory://lower');
    expect(envelope(upper).data?.uri).toBe('memory://upper');
    expect(envelope(reordered).data?.uri).toBe('memory://flags');
    expect(errorCode(snake)).toBe('UNKNOWN_TOOL');
    expect(snakeText.code).toBe(0);
    expect(snakeText.stdout).toMatch(/^ERROR: Unknown tool: write_memory/);
  });

  it('should record every invocation in MAENIFOLD_DOUBLE_LOG', async () => {
    const root = await newRoot();
    await call(root, 'Sync', {});
    await call(root, 'WriteMemory', '{not json', true);
    const calls = await root.calls();
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ argv: ['--tool', 'Sync', '--payload', '{}'], tool: 'Sync', payload: {}, json: false });
    expect(calls[1]).toMatchObject({ tool: 'WriteMemory', payload: '{not json', json: true });
    expect(Number.isNaN(Date.parse(calls[1]?.at ?? ''))).toBe(false);
  });
});

describe('maenifold double: WriteMemory, ReadMemory, DeleteMemory', () => {
  it('should ignore WikiLinks inside fenced, tilde, indented and inline code', async () => {
    const root = await newRoot();
    const onlyInCode = [
      'Intro\n\n```ts\nconst x = "[[fenced]]";\n```\n',
      'Intro\n\n~~~\n[[tilde]]\n~~~\n',
      'Intro\n\n    [[indented]]\n',
      'Use `[[inline]]` or ``a [[double]] b`` here.',
      'Triple [[[brackets]]] do not count.',
    ];
    const runs = await Promise.all(
      onlyInCode.map((content, i) => call(root, 'WriteMemory', { title: `Code ${i}`, content }, true)),
    );
    for (const run of runs) {
      const result = envelope(run);
      expect(result.error?.code).toBe('VALIDATION_ERROR');
      expect(result.error?.message).toMatch(/WikiLink/);
    }
    const ok = await call(root, 'WriteMemory', { title: 'Mixed', content: '`[[code]]` then [[prose]]\n\n    [[indented]]' }, true);
    expect(envelope(ok).success).toBe(true);
  });

  it('should sanitise titles, slug them, write frontmatter and silently overwrite the same slug', async () => {
    const root = await newRoot();
    const first = envelope(
      await call(root, 'WriteMemory', { title: 'Decision: use [[x]] - A/B #1 (v2)!', content: linked, folder: 'sessions/compaction', tags: ['t1'] }, true),
    );
    expect(first.data).toMatchObject({ uri: 'memory://sessions/compaction/decision-use-x-ab-1-v2', title: 'Decision use x AB 1 v2', folder: 'sessions/compaction' });
    expect(first.data?.checksum).toEqual(expect.any(String));

    const stamped = envelope(await call(root, 'WriteMemory', { title: 'Compaction 2026-02-20 12:30', content: linked }, true));
    expect(stamped.data).toMatchObject({ title: 'Compaction 20260220 1230', uri: 'memory://compaction-20260220-1230' });

    const second = envelope(
      await call(root, 'WriteMemory', { title: 'Decision use x AB 1 v2', content: '# Own heading\n\nReplaced [[y]]', folder: 'sessions/compaction' }, true),
    );
    expect(second.data?.uri).toBe(first.data?.uri);
    const folder = join(root.root, 'memory', 'sessions', 'compaction');
    expect(await readdir(folder)).toEqual(['decision-use-x-ab-1-v2.md']);
    const text = await readFile(join(folder, 'decision-use-x-ab-1-v2.md'), 'utf8');
    expect(text).toMatch(/^---\ntitle: Decision use x AB 1 v2\npermalink: decision-use-x-ab-1-v2\ntype: memory\nstatus: saved\ncreated: .+\nmodified: .+\ntags: \[\]\n---\n\n# Own heading\n\nReplaced \[\[y\]\]$/);

    const firstText = await readFile(join(root.root, 'memory', 'compaction-20260220-1230.md'), 'utf8');
    expect(firstText).toContain('\n---\n\n# Compaction 20260220 1230\n\nNotes on [[Compaction]]');

    const [byUri, bySlug, noConfirm, byRawTitle] = await Promise.all([
      call(root, 'ReadMemory', { identifier: 'memory://sessions/compaction/decision-use-x-ab-1-v2' }, true),
      call(root, 'ReadMemory', { identifier: 'Compaction 20260220 1230' }, true),
      call(root, 'DeleteMemory', { identifier: 'memory://compaction-20260220-1230' }, true),
      // The slug of the unsanitised title keeps its hyphens, so it names no file.
      call(root, 'ReadMemory', { identifier: 'Compaction 2026-02-20 12:30' }, true),
    ]);
    expect(envelope(byUri).data).toMatchObject({ title: 'Decision use x AB 1 v2', content: '# Own heading\n\nReplaced [[y]]' });
    expect(envelope(bySlug).data?.uri).toBe('memory://compaction-20260220-1230');
    expect(errorCode(noConfirm)).toBe('VALIDATION_ERROR');
    expect(errorCode(byRawTitle)).toBe('NOT_FOUND');
    const deleted = await call(root, 'DeleteMemory', { identifier: 'memory://compaction-20260220-1230', confirm: true }, true);
    expect(envelope(deleted).data).toMatchObject({ deleted: true });
    expect(errorCode(await call(root, 'ReadMemory', { identifier: 'memory://compaction-20260220-1230' }, true))).toBe('NOT_FOUND');
  });

  it('should reject long titles, unsafe folders and block-listed WikiLinks', async () => {
    const root = await newRoot();
    await writeFile(join(root.root, 'memory', '.wikilink-filter.json'), JSON.stringify({ 'Hub Concept': 'too generic' }));
    const [tooLong, justFits, parent, absolute, filtered, allowed] = await Promise.all([
      call(root, 'WriteMemory', { title: 'x'.repeat(200), content: linked }, true),
      call(root, 'WriteMemory', { title: 'x'.repeat(199), content: linked }, true),
      call(root, 'WriteMemory', { title: 'P', content: linked, folder: '../outside' }, true),
      call(root, 'WriteMemory', { title: 'A', content: linked, folder: '/etc' }, true),
      call(root, 'WriteMemory', { title: 'F', content: 'About [[hub_concept]] and [[fine]]' }, true),
      call(root, 'WriteMemory', { title: 'G', content: 'About `[[hub concept]]` and [[fine]]' }, true),
    ]);
    expect(errorCode(tooLong)).toBe('PATH_TOO_LONG');
    expect(envelope(justFits).success).toBe(true);
    expect(errorCode(parent)).toBe('PATH_VALIDATION_ERROR');
    expect(errorCode(absolute)).toBe('PATH_VALIDATION_ERROR');
    const blocked = envelope(filtered);
    expect(blocked.error?.code).toBe('FILTERED_WIKILINKS');
    expect(blocked.error?.message).toContain('hub-concept');
    expect(envelope(allowed).success).toBe(true);
  });
});

describe('maenifold double: SearchMemories', () => {
  it('should score files, cap snippets, and answer in plain text for stop-word queries and empty folders', async () => {
    const root = await newRoot();
    await root.seed({
      'notes/a': `# A\n\n${'filler '.repeat(30)}The [[compaction]] pipeline keeps [[decisions]].`,
      'notes/b': 'Nothing relevant about [[other]].',
    });
    const [hit, stop, emptyFolder, badMode] = await Promise.all([
      call(root, 'SearchMemories', { query: 'compaction pipeline', mode: 'FullText', pageSize: 5 }, true),
      call(root, 'SearchMemories', { query: 'the and of', mode: 'Hybrid' }, true),
      call(root, 'SearchMemories', { query: 'compaction', mode: 'Hybrid', folder: 'nowhere' }, true),
      call(root, 'SearchMemories', { query: 'compaction', mode: 'Fuzzy' }, true),
    ]);
    const results = envelope(hit).data?.results as Array<Record<string, unknown>>;
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ title: 'A', path: 'memory://notes/a' });
    expect(Object.keys(results[0] ?? {}).sort()).toEqual(['fusedScore', 'path', 'semanticScore', 'snippet', 'textScore', 'title']);
    expect(String(results[0]?.snippet).length).toBeLessThanOrEqual(200);
    expect(stop.stdout).toMatch(/^ERROR: Query contains no informative keywords/);
    expect(emptyFolder.stdout.trim()).toBe('No memories found in specified folder');
    expect(errorCode(badMode)).toBe('INVALID_ARGUMENT');
  });
});

describe('maenifold double: BuildContext and Sync', () => {
  it('should count co-occurrences from the last Sync only', async () => {
    const root = await newRoot();
    const before = await call(root, 'BuildContext', { conceptName: 'alpha', depth: 1 });
    expect(before.stdout).toBe('Context for CONCEPT: alpha\n\nDirect relations (0 CONCEPTS):\n');

    const synced = await root.seed({
      'notes/a': '# A\n\n[[Alpha]] with [[beta]] and [[gamma]].',
      'notes/b': '[[alpha]] and [[Beta]] again.',
      'notes/c': '[[alpha]] meets [[delta]].\n\n```\n[[gamma]]\n```\n',
      'notes/d': 'Unrelated [[epsilon]] and [[zeta]].',
    });
    expect(synced.stdout).toContain('Files processed: 4');

    const context = await call(root, 'BuildContext', { conceptName: 'Alpha', depth: 1 }, true);
    expect(context.stdout).toBe(
      [
        'Context for CONCEPT: alpha',
        '',
        'Direct relations (3 CONCEPTS):',
        '  \u2022 beta (co-occurs in 2 files) [community 0]',
        '    Files: memory://notes/a, memory://notes/b',
        '  \u2022 delta (co-occurs in 1 files) [community 0]',
        '    Files: memory://notes/c',
        '  \u2022 gamma (co-occurs in 1 files) [community 0]',
        '    Files: memory://notes/a',
        '',
      ].join('\n'),
    );

    await call(root, 'WriteMemory', { title: 'Fresh', content: '[[alpha]] and [[beta]] once more.' }, true);
    const stale = await call(root, 'BuildContext', { conceptName: 'alpha', depth: 1, maxEntities: 1 });
    expect(stale.stdout).toContain('Direct relations (1 CONCEPTS):\n  \u2022 beta (co-occurs in 2 files)');

    await call(root, 'Sync', {});
    const [fresh, unknown, deep] = await Promise.all([
      call(root, 'BuildContext', { conceptName: 'alpha', depth: 1, maxEntities: 1 }),
      call(root, 'BuildContext', { conceptName: 'nothing here' }),
      call(root, 'BuildContext', { conceptName: 'beta', depth: 2 }),
    ]);
    expect(fresh.stdout).toContain('  \u2022 beta (co-occurs in 3 files) [community 0]\n    Files: memory://fresh, memory://notes/a, memory://notes/b');
    expect(unknown.stdout).toContain('Context for CONCEPT: nothing-here\n\nDirect relations (0 CONCEPTS):');
    expect(deep.stdout).toContain('Expanded relations (2 hops):');
    expect(deep.stdout).not.toContain('epsilon');
  });
});

describe('maenifold double: RecentActivity', () => {
  it('should need a Sync, parse .NET TimeSpans and reject invalid ones as ERROR text', async () => {
    const root = await newRoot();
    expect((await call(root, 'RecentActivity', { limit: 10, timespan: '1.00:00:00' })).stdout).toContain(
      'No database found. Run the `Sync` command first',
    );
    await writeFile(join(root.root, 'memory', 'old.md'), '# Old\n\n## Problem\n\nAn old [[issue]].\n');
    await utimes(join(root.root, 'memory', 'old.md'), daysAgo(2), daysAgo(2));
    await root.seed({ fresh: '# Fresh\n\n## Start\n\nFirst [[topic]].\n\n## End\n\nLast [[topic]].\n' });

    const recent = (payload: Record<string, unknown>): Promise<DoubleRun> => call(root, 'RecentActivity', payload, true);
    const [oneDay, threeHours, twentyFourDays, withContent, invalidHours, garbage, negative] = await Promise.all([
      recent({ limit: 10, timespan: '1.00:00:00' }),
      recent({ limit: 10, timespan: '03:00:00' }),
      recent({ limit: 10, timespan: '24.00:00:00' }),
      recent({ limit: 1, timespan: '1.00:00:00', includeContent: true, filter: 'memory' }),
      recent({ limit: 10, timespan: '24:00:00' }),
      recent({ limit: 10, timespan: 'yesterday' }),
      recent({ limit: 10, timespan: '-1.00:00:00' }),
    ]);
    expect(oneDay.stdout).toContain('**fresh** (memory)');
    expect(oneDay.stdout).toContain('  First: "First [[topic]]."\n  Last: "Last [[topic]]."');
    expect(oneDay.stdout).not.toContain('**old**');
    expect(threeHours.stdout).not.toContain('**old**');
    expect(twentyFourDays.stdout).toContain('**old** (memory)');
    expect(withContent.stdout).toContain('  First H2: Start\n  First H2 Content: First [[topic]].');
    for (const run of [invalidHours, garbage, negative]) {
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^ERROR: /);
    }
  });
});

describe('maenifold double: SequentialThinking', () => {
  const thought = (extra: Record<string, unknown>): Record<string, unknown> => ({
    response: 'Thinking about [[compaction]]',
    nextThoughtNeeded: true,
    totalThoughts: 2,
    ...extra,
  });

  it('should enforce the session rules and write thought sections', async () => {
    const root = await newRoot();
    const [noLink, badId, notFound, missing, noIdContinuing] = await Promise.all([
      call(root, 'SequentialThinking', thought({ response: 'only `[[code]]`', thoughtNumber: 0 }), true),
      call(root, 'SequentialThinking', thought({ thoughtNumber: 1, sessionId: 'my-session' }), true),
      call(root, 'SequentialThinking', thought({ thoughtNumber: 0, sessionId: 'session-1700000000000-12345' }), true),
      call(root, 'SequentialThinking', thought({ thoughtNumber: 1, sessionId: 'session-1700000000000-12345' }), true),
      call(root, 'SequentialThinking', thought({ thoughtNumber: 1 }), true),
    ]);
    expect(errorCode(noLink)).toBe('WIKILINK_REQUIRED');
    expect(errorCode(badId)).toBe('INVALID_SESSION_ID');
    expect(errorCode(notFound)).toBe('SESSION_NOT_FOUND');
    expect(errorCode(missing)).toBe('SESSION_MISSING');
    expect(errorCode(noIdContinuing)).toBe('SESSION_MISSING');

    const started = envelope(await call(root, 'SequentialThinking', thought({ thoughtNumber: 0, thoughts: 'meta [[budget]]' }), true));
    expect(started.data).toMatchObject({ thoughtNumber: 0, totalThoughts: 2, status: 'active', nextThoughtNeeded: true });
    const sessionId = String(started.data?.sessionId);
    expect(sessionId).toMatch(/^session-\d{13}-\d{5}$/);

    const [exists, next] = await Promise.all([
      call(root, 'SequentialThinking', thought({ thoughtNumber: 0, sessionId }), true),
      call(root, 'SequentialThinking', thought({ thoughtNumber: 1, sessionId }), true),
    ]);
    expect(errorCode(exists)).toBe('SESSION_EXISTS');
    expect(envelope(next).data).toMatchObject({ sessionId, thoughtNumber: 1, status: 'active' });

    const closing = { thoughtNumber: 2, sessionId, nextThoughtNeeded: false };
    expect(errorCode(await call(root, 'SequentialThinking', thought(closing), true))).toBe('CONCLUSION_REQUIRED');
    expect(errorCode(await call(root, 'SequentialThinking', thought({ ...closing, conclusion: 'no links' }), true))).toBe(
      'CONCLUSION_WIKILINK_REQUIRED',
    );
    const closed = envelope(await call(root, 'SequentialThinking', thought({ ...closing, conclusion: 'Settled on [[summary-chain]]' }), true));
    expect(closed.data).toMatchObject({ sessionId, status: 'completed', nextThoughtNeeded: false });

    await call(root, 'Sync', {});
    const activity = await call(root, 'RecentActivity', { limit: 5, filter: 'thinking', timespan: '1.00:00:00' });
    expect(activity.stdout).toContain(`**${sessionId}** (sequential)`);
    expect(activity.stdout).toContain('  Thoughts: 3\n  Status: completed');

    const day = new Date(Number(sessionId.split('-')[1])).toISOString().slice(0, 10).split('-');
    const file = join(root.root, 'memory', 'thinking', 'sequential', ...day, `${sessionId}.md`);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('status: completed');
    expect(text.match(/^## .*$/gm)).toEqual(['## Thought 0/2 [agent]', '## Thought 1/2 [agent]', '## Thought 2/2 [agent]', '## Conclusion']);
  });

  it('should let Sync mark sessions idle for over 30 minutes as abandoned', async () => {
    const root = await newRoot();
    const started = envelope(await call(root, 'SequentialThinking', thought({ thoughtNumber: 0 }), true));
    const sessionId = String(started.data?.sessionId);
    const day = new Date(Number(sessionId.split('-')[1])).toISOString().slice(0, 10).split('-');
    const file = join(root.root, 'memory', 'thinking', 'sequential', ...day, `${sessionId}.md`);
    const idle = new Date(Date.now() - 31 * 60_000);
    await utimes(file, idle, idle);
    await call(root, 'Sync', {});
    expect(await readFile(file, 'utf8')).toContain('status: abandoned');
  });
});

describe('maenifold double: fault injection', () => {
  it('should print garbage, crash with 134, slow down and flood on request', async () => {
    const root = await newRoot();
    const write = { title: 'Fault', content: linked };
    const [garbage, crash, slow, scoped, huge] = await Promise.all([
      call(root, 'WriteMemory', write, true, { MAENIFOLD_DOUBLE_FAULT: 'garbage' }),
      call(root, 'WriteMemory', write, true, { MAENIFOLD_DOUBLE_FAULT: 'crash' }),
      call(root, 'WriteMemory', write, true, { MAENIFOLD_DOUBLE_FAULT: 'slow:50' }),
      call(root, 'WriteMemory', write, true, { MAENIFOLD_DOUBLE_FAULT: 'crash', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'BuildContext,Sync' }),
      call(root, 'Sync', {}, false, { MAENIFOLD_DOUBLE_FAULT: 'huge' }),
    ]);
    expect(garbage.code).toBe(0);
    expect(() => JSON.parse(garbage.stdout) as unknown).toThrow();
    expect(crash.code).toBe(134);
    expect(crash.stdout).toBe('');
    expect(crash.stderr).toContain('Unhandled exception.');
    expect(envelope(slow).success).toBe(true);
    expect(envelope(scoped).success).toBe(true);
    expect(huge.code).toBe(0);
    expect(huge.stdout.length).toBe(50 * 1024 * 1024);
    expect(await root.calls()).toHaveLength(5);
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
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(child.exitCode).toBeNull();
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
  });
});
