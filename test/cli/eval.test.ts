import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliFixture, type CliRun } from '../../support/fixture-process.js';
import { scratchFolders } from '../support/scratch.js';

const CLI = fileURLToPath(new URL('../../src/cli/eval.ts', import.meta.url));

/** One worker thread for the extraction, not warmed up: the scores do not depend on how the pool ran. */
const runEvalCli = (args: string[]): Promise<CliRun> => runCliFixture(CLI, [...args, '--threads', '1', '--no-warm-up']);

const part = (text: string): unknown => ({ type: 'text', text });
const tool = (name: string, input: unknown, output: string, status = 'completed'): unknown => ({ type: 'tool', tool: name, state: { status, input, output } });

/** A short repair session in the shape `opencode export` writes. */
function repairSession(id: string, root: string, file: string): unknown {
  return {
    info: { id, title: 'Fix the flaky rate limiter', directory: root },
    messages: [
      { info: { id: `${id}-1`, role: 'user' }, parts: [part(`The rate limiter in ${file} lets bursts through after a restart. Can you look?`)] },
      {
        info: { id: `${id}-2`, role: 'assistant' },
        parts: [
          part('Reading the limiter first.'),
          tool('read', { filePath: `${root}/${file}` }, 'export function allow() { /* ... */ }'),
          tool('edit', { filePath: `${root}/${file}`, oldString: 'new Map()', newString: 'loadBuckets()' }, 'Edit applied successfully.'),
          part('## Summary\nWe decided to persist the token buckets so that a restart keeps the limits. The burst came from buckets starting full.'),
        ],
      },
      { info: { id: `${id}-3`, role: 'user' }, parts: [part('Great. Next, add a test for the restart case.')] },
    ],
  };
}

let corpus: string;

const scratch = scratchFolders('eval-corpus', 'all');
beforeAll(async () => {
  corpus = await scratch();
  await mkdir(join(corpus, 'sessions'));
  await mkdir(join(corpus, 'truth'));
  await writeFile(join(corpus, 'sessions', 'limiter.json'), JSON.stringify(repairSession('ses_evallimiter01', '/srv/gateway', 'src/limiter.ts')));
  await writeFile(join(corpus, 'sessions', 'packed.json.gz'), gzipSync(JSON.stringify(repairSession('ses_evalpacked001', '/srv/api', 'lib/throttle.ts'))));
  const truth = (file: string): string =>
    JSON.stringify({
      session: 'x',
      decisions: [{ text: 'persist buckets across restarts', keywords: ['persist', 'bucket'] }],
      files: [file],
      problems: [{ text: 'bursts pass after restart', keywords: ['burst'] }],
      topics: ['rate limiting|rate-limiter'],
      next: [{ text: 'test the restart case', keywords: ['test', 'restart'] }],
    });
  await writeFile(join(corpus, 'truth', 'limiter.json'), truth('src/limiter.ts'));
  await writeFile(join(corpus, 'truth', 'packed.json'), truth('lib/throttle.ts'));
  // A truth whose session is missing: a run that failed.
  await writeFile(join(corpus, 'truth', 'vanished.json'), truth('src/gone.ts'));
});

// The three runs only read the corpus, and each is a process of its own with its own worker pool.
describe.concurrent('npm run eval', () => {
  it('should print exactly one JSON object of the documented shape with --json', async () => {
    const { code, stdout } = await runEvalCli(['--corpus', corpus, '--json']);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const report = JSON.parse(stdout) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(['sessions', 'ok', 'metrics', 'baselines', 'context_tokens_mean', 'extract_ms_p50']);
    expect(report['sessions']).toBe(3);
    expect(report['ok']).toBe(2);
    const keys = ['decision_recall', 'decision_precision', 'file_recall', 'problem_recall', 'next_recall', 'topic_concept_rate'];
    const metrics = report['metrics'] as Record<string, number>;
    const baselines = report['baselines'] as Record<string, Record<string, number>>;
    expect(Object.keys(metrics)).toEqual(keys);
    expect(Object.keys(baselines)).toEqual(['seed', 'tail']);
    expect(Object.keys(baselines['seed'] ?? {})).toEqual(keys);
    expect(Object.keys(baselines['tail'] ?? {})).toEqual(keys);
    // Both edited files are found, from the plain and the gzipped export; the missing session misses its own.
    expect(metrics['file_recall']).toBeCloseTo(2 / 3, 3);
    expect(baselines['seed']?.['file_recall']).toBeCloseTo(2 / 3, 3);
    expect(baselines['tail']?.['file_recall']).toBe(0);
    // The tail keeps the user's last request.
    expect(baselines['tail']?.['next_recall']).toBeCloseTo(2 / 3, 3);
    expect(report['context_tokens_mean']).toBeLessThanOrEqual(500);
    expect(report['extract_ms_p50']).toBeGreaterThan(0);
  });

  it('should print the per-session table and the pooled table, and what was missed with --verbose', async () => {
    const { code, stdout } = await runEvalCli(['--corpus', corpus, '--verbose']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^limiter\s+ok\s/m);
    expect(stdout).toMatch(/^packed\s+ok\s/m);
    expect(stdout).toMatch(/^vanished\s+FAILED\s/m);
    expect(stdout).toContain('vanished: no sessions/vanished.json or .json.gz');
    expect(stdout).toMatch(/^file recall\s+0\.67\s+0\.67\s+0\.00$/m);
    expect(stdout).toContain('  missed file: src/gone.ts');
  });

  it('should fail with one line and exit 1 when the corpus folder is missing', async () => {
    const missing = join(corpus, 'no-such-folder');
    const { code, stdout, stderr } = await runEvalCli(['--corpus', missing, '--json']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining(`opencode-maenifold eval: no corpus at ${missing}: a corpus is a folder of your own session exports`)]);
  });
});
