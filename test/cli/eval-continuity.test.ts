import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliFixture, type CliRun } from '../../support/fixture-process.js';
import { scratchFolders } from '../support/scratch.js';

const CLI = fileURLToPath(new URL('../../src/cli/eval.ts', import.meta.url));

/** One worker thread for the extraction, not warmed up: the scores do not depend on how the pool ran. */
const runEvalCli = (args: string[]): Promise<CliRun> => runCliFixture(CLI, [...args, '--threads', '1', '--no-warm-up']);

let corpus: string;
let sequenceCorpus: string;

const scratch = scratchFolders('eval-continuity-corpus', 'all');
beforeAll(async () => {
  // A truth without its session: the continuity run fails it without starting a scenario, and with no
  // session that can run, it starts no process at all (not even the empty-memory baseline).
  corpus = await scratch();
  await mkdir(join(corpus, 'sessions'));
  await mkdir(join(corpus, 'truth'));
  const truth = {
    session: 'vanished',
    decisions: [{ text: 'use SQLite', keywords: ['sqlite'] }],
    files: ['src/store.ts'],
    problems: [{ text: 'jobs lost on restart', keywords: ['restart'] }],
    topics: ['sqlite'],
    next: [{ text: 'migrate', keywords: ['migrat'] }],
  };
  await writeFile(join(corpus, 'truth', 'vanished.json'), JSON.stringify(truth));
  // A project whose earlier session is missing: the sequence run fails it without starting a process.
  sequenceCorpus = await scratch();
  await mkdir(join(sequenceCorpus, 'truth'), { recursive: true });
  await writeFile(join(sequenceCorpus, 'truth', 'gone.next.json'), JSON.stringify({ project: 'gone', earlier: ['vanished'], later: 'after', needed: truth.decisions }));
});

describe.concurrent('npm run eval -- --sequence', () => {
  it('should print one sequence object, the project that could not run counted as all missed', async () => {
    const { code, stdout } = await runEvalCli(['--corpus', sequenceCorpus, '--sequence', '--json']);
    expect(code).toBe(0);
    const { sequence } = JSON.parse(stdout) as { sequence: Record<string, unknown> };
    expect(sequence).toMatchObject({ host: 'v1', projects: 1, ok: 0, sessions: 1, needed_recall: 0, injected_precision: 0, tokens_mean: 0 });
    expect(sequence['per_project']).toEqual({ gone: { sessions: 1, ok: false, needed_recall: 0, needed: '0/1', injected_precision: 0, injected_lines: 0, tokens: null, block_tokens: null } });
  });

  it('should print the table and why a project failed, and refuse to run without a corpus', async () => {
    const [table, bare] = await Promise.all([runEvalCli(['--corpus', sequenceCorpus, '--sequence']), runEvalCli(['--sequence'])]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^gone\s+FAILED\s+1\b/m);
    expect(table.stdout).toContain('gone: vanished: no sessions/vanished.json or .json.gz');
    expect([bare.code, bare.stderr]).toEqual([2, expect.stringContaining('--sequence needs --corpus DIR')]);
  });
});

describe.concurrent('npm run eval -- --continuity', () => {
  it('should add a continuity object to the one JSON object it prints', async () => {
    const { code, stdout, stderr } = await runEvalCli(['--corpus', corpus, '--continuity', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const report = JSON.parse(stdout) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(['sessions', 'ok', 'metrics', 'baselines', 'context_tokens_mean', 'extract_ms_p50', 'continuity']);
    const continuity = report['continuity'] as Record<string, unknown>;
    expect(Object.keys(continuity).sort()).toEqual(
      ['block_tokens_mean', 'decision_recall', 'host', 'injected_lines', 'injected_precision', 'leaked_items', 'next_recall', 'ok', 'problem_recall', 'received', 'same_process', 'sessions', 'summary_carried', 'tokens_mean', 'topic_rate'].sort(),
    );
    expect(continuity).toMatchObject({ host: 'v1', sessions: 1, ok: 0, decision_recall: 0, injected_precision: 0, injected_lines: 0, leaked_items: 0, tokens_mean: 0, received: { vanished: null } });
  });

  it('should run through the host --host names, and refuse a line it does not know or a host without --continuity', async () => {
    const [{ code, stdout }, unknown, alone] = await Promise.all([
      runEvalCli(['--corpus', corpus, '--continuity', '--host', 'v2', '--json']),
      runEvalCli(['--corpus', corpus, '--continuity', '--host', 'v3']),
      runEvalCli(['--corpus', corpus, '--compare-hosts']),
    ]);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { continuity: unknown }).continuity).toMatchObject({ host: 'v2', sessions: 1, received: { vanished: null } });
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('--host must be v1 or v2 (got "v3")')]);
    expect([alone.code, alone.stderr]).toEqual([2, expect.stringContaining('--compare-hosts is taken only with --continuity')]);
  });

  it('should print both hosts and how they compare with --compare-hosts', async () => {
    const { code, stdout } = await runEvalCli(['--corpus', corpus, '--continuity', '--compare-hosts', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Record<string, unknown>;
    expect(report['continuity']).toMatchObject({ host: 'v1', sessions: 1 });
    expect(report['continuity_v2']).toMatchObject({ host: 'v2', sessions: 1 });
    expect(report['continuity_hosts']).toEqual({ identical: 0, differences: [{ session: 'vanished', kind: 'failed', only_v1: [], only_v2: [] }] });
  });

  it('should print the continuity table with the failed session and why, and its misses with --verbose', async () => {
    const { code, stdout } = await runEvalCli(['--corpus', corpus, '--continuity', '--verbose']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^continuity: session\s+run\s+Q\s+ms\s+tokens\s+decisions\s+problems\s+next\s+topics\s+precision\s+summary\s+leaked$/m);
    expect(stdout).toMatch(/^vanished\s+FAILED\s+vanished\s+\d+\s+-\s+0\/1\s+0\/1\s+0\/1\s+0\/1\s+0\/0\s+no\s+-$/m);
    expect(stdout).toMatch(/^injected-line precision\s+0\.00\s+0\.00$/m);
    expect(stdout).toContain('vanished: no sessions/vanished.json or .json.gz');
    expect(stdout).toContain('continuity vanished (failed: no sessions/vanished.json or .json.gz)\n  missed decision: use SQLite');
    expect(stdout).toContain('0/1 sessions ok; Project Memory block 0.0 tokens on average; 0 leaked lines (OpenCode 1.x host)');
  });
});
