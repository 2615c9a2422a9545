import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { generateSession, growSession } from '../../src/synth/session-generator.js';
import { runProfile, type ProfileReport } from '../../src/profile/run-profile.js';
import { formatProfileReport } from '../../src/profile/format-report.js';
import type { CpuProfile } from '../../src/profile/cpu-profile.js';
import { flameFrames, flameTree } from '../../src/profile/flame-tree.js';
import { xmlElements } from './xml-elements.js';
import { scratchFolders } from '../support/scratch.js';

let outDir: string;
let report: ProfileReport;

const scratch = scratchFolders('profile-test', 'all');
beforeAll(async () => {
  outDir = await scratch();
  const session = generateSession({ seed: 7, targetBytes: 64 * 1024 });
  const grown = growSession(session, 16 * 1024, 8);
  // The worker bundled once for the run (test-bundles.ts) when the global setup ran: about 0.5 s of CPU to
  // start instead of 1.7 s through tsx.
  const workerFile = inject('profiledWorkerBundle');
  report = await runProfile({ session, grown, outDir, runs: 1, projectRoot: null, threads: 1, svg: true, ...(workerFile ? { workerFile } : {}) });
});

/** The rows of every thread table in the text report, as [stage, share] pairs per table. */
function textTables(text: string): number[][] {
  const tables: number[][] = [];
  let current: number[] | null = null;
  for (const line of text.split('\n')) {
    if (/^ {2}\S.*self ms\s+share\s+calls$/.test(line)) {
      current = [];
      tables.push(current);
    } else if (current && /^ {4}total\s/.test(line)) current = null;
    else if (current) {
      const share = /\s(\d+\.\d)%\s+(?:\d+|–)$/.exec(line);
      if (share) current.push(Number(share[1]));
    }
  }
  return tables;
}

describe('runProfile', () => {
  it('should write a valid .cpuprofile for the hook thread and the worker, for both compactions', async () => {
    expect(report.profiles).toEqual({ available: true, reason: null });
    const names = (await readdir(outDir)).filter((name) => name.endsWith('.cpuprofile')).sort();
    expect(names).toEqual(['cold-hook.cpuprofile', 'cold-worker-1.cpuprofile', 'incremental-hook.cpuprofile', 'incremental-worker-1.cpuprofile']);
    for (const name of names) {
      const profile = JSON.parse(await readFile(join(outDir, name), 'utf8')) as Record<string, unknown>;
      const nodes = profile['nodes'] as { id: number; callFrame: { functionName: string } }[];
      const samples = profile['samples'] as number[];
      const timeDeltas = profile['timeDeltas'] as number[];
      expect(Array.isArray(nodes) && nodes.length > 1, name).toBe(true);
      expect(samples.length, name).toBeGreaterThan(0);
      expect(timeDeltas.length, name).toBe(samples.length);
      expect(timeDeltas.every((delta) => delta >= 0), name).toBe(true);
      const ids = new Set(nodes.map((node) => node.id));
      expect(samples.every((sample) => ids.has(sample)), name).toBe(true);
      expect(profile['endTime'] as number, name).toBeGreaterThanOrEqual(profile['startTime'] as number);
    }
  });

  it('should name each file in the report of its thread', () => {
    const files = report.phases.flatMap((phase) => phase.threads.map((thread) => thread.file?.replace(`${outDir}/`, '')));
    expect(files).toEqual(['cold-hook.cpuprofile', 'cold-worker-1.cpuprofile', 'incremental-hook.cpuprofile', 'incremental-worker-1.cpuprofile']);
    const drawings = report.phases.flatMap((phase) => phase.threads.map((thread) => thread.svg?.file.replace(`${outDir}/`, '')));
    expect(drawings).toEqual(['cold-hook.svg', 'cold-worker-1.svg', 'incremental-hook.svg', 'incremental-worker-1.svg']);
  });

  it('should draw each profile as a well-formed SVG flame graph with one box per frame it keeps', async () => {
    const names = (await readdir(outDir)).filter((name) => name.endsWith('.svg')).sort();
    expect(names).toEqual(['cold-hook.svg', 'cold-worker-1.svg', 'incremental-hook.svg', 'incremental-worker-1.svg']);
    const threads = report.phases.flatMap((phase) => phase.threads);
    for (const name of names) {
      const text = await readFile(join(outDir, name), 'utf8');
      const elements = xmlElements(text);
      expect(elements[0]?.name, name).toBe('svg');
      const frames = threads.find((thread) => thread.svg?.file === join(outDir, name))?.svg?.frames;
      // A drawing holds at least the thread's box; how many samples a short span gets depends on the
      // machine, but the cold worker reads the whole session and always shows frames below it.
      expect(frames, name).toBeGreaterThanOrEqual(name === 'cold-worker-1.svg' ? 2 : 1);
      expect(elements.filter((element) => element.name === 'rect' && element.attributes['class'] === 'frame'), name).toHaveLength(frames as number);
      // Every box but the root's names a function of the thread's profile.
      const profile = JSON.parse(await readFile(join(outDir, name.replace(/\.svg$/, '.cpuprofile')), 'utf8')) as CpuProfile;
      const known = new Set(flameFrames(flameTree(profile, { minShare: 0, maxDepth: Number.POSITIVE_INFINITY })).map((frame) => `${frame.name}${frame.location ? `  ${frame.location}` : ''}`));
      const tips = [...text.matchAll(/<title>([^\n<]*)\n/g)].map((match) => (match[1] as string).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
      expect(tips, name).toHaveLength(frames as number);
      expect(tips.slice(1).filter((tip) => !known.has(tip)), name).toEqual([]);
    }
  });

  it('should title each drawing with its thread and compaction', async () => {
    const svg = await readFile(join(outDir, 'cold-worker-1.svg'), 'utf8');
    expect(svg).toMatch(/>worker 1 · cold compaction · \d+\.\d ms sampled, idle excluded<\/text>/);
  });

  it('should place the worker\'s time on the labelled stages of both passes, hand-off and the rest', () => {
    const cold = report.phases.find((phase) => phase.phase === 'cold');
    const worker = cold?.threads.find((thread) => thread.thread === 'worker 1');
    const stages = worker?.rows.map((row) => row.stage) ?? [];
    expect(worker?.source).toBe('profile');
    expect(stages).toEqual(expect.arrayContaining(['decisions', 'notes', 'terms', 'language', 'final: budget', 'hand-off', 'task (other)']));
    // Each message runs the notes stage once.
    expect(worker?.rows.find((row) => row.stage === 'notes')?.calls).toBe(cold?.stats.units);
  });

  it('should give every thread stage shares that add up to 100%', () => {
    const threads = report.phases.flatMap((phase) => phase.threads);
    expect(threads.map((thread) => thread.thread)).toEqual(['hook', 'worker 1', 'hook', 'worker 1']);
    for (const thread of threads) {
      const total = thread.rows.reduce((sum, row) => sum + row.share, 0);
      expect(total, thread.thread).toBeCloseTo(100, 6);
      expect(thread.rows.every((row) => row.ms >= 0 && row.share >= 0)).toBe(true);
    }
  });

  it('should print tables whose shares add up to 100% give or take their rounding', () => {
    const tables = textTables(formatProfileReport('a test session', report));
    expect(tables).toHaveLength(4);
    for (const shares of tables) {
      const sum = shares.reduce((total, share) => total + share, 0);
      expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.05 * shares.length + 1e-9);
    }
  });
});
