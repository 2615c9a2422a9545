/**
 * `npm run eval -- --long`: the generated project of long-memory-project.ts
 * run through the plugin's real path (its default export, the built-in file
 * store, the host's compaction and summary, `opencode-maenifold forget` at
 * its point), then session 60 started in a new instance; scored on what its
 * Project Memory block holds: every decision of session 1 not reversed or
 * forgotten must be there, and none that was.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetItem, readMemoryReport } from '../cli/memory-command.js';
import { PROJECT_MEMORY_HEADING } from '../core/memory/project-memory.js';
import type { HostLine } from '../main/host/host-port.js';
import { withDeadline } from '../main/shared/deadline.js';
import type { MessageStore } from './continuity-host.js';
import { startInstance, type ScenarioInstance } from './continuity-instances.js';
import { expectedAt, LONG_SESSIONS, longSession, SCHEDULE, type ScheduledDecision } from './long-memory-project.js';

/** What `--long` reports. */
export interface LongMemoryReport {
  sessions: number;
  /** Session 1's decisions that are neither reversed nor forgotten by session 60: how many its block holds. */
  session1_kept: { expected: number; found: number; missing: string[] };
  /** Every decision of the schedule still standing at session 60. */
  all_kept: { expected: number; found: number; missing: string[] };
  /** Decisions reversed or forgotten before session 60 that its block still holds. */
  gone_leaked: { expected: number; leaked: string[] };
  /** Tokens of session 60's Project Memory block. */
  block_tokens: number;
  /** What went wrong on the way without stopping the run. */
  notes: string[];
}

/** Step limits of a run. */
const STEP_MS = 60_000;
const SETTLE_MS = 20_000;

/** Letters and digits, lowercased, one space apart: what two texts share when the digest takes them as one. */
function words(text: string): string {
  return ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

/** Whether a text holds a decision whole (its reason included: a line that only names it, as a reversal does, does not count). */
function holds(text: string, decision: ScheduledDecision): boolean {
  return words(text).includes(words(decision.text));
}

async function pendingOutbox(stateDir: string): Promise<number> {
  try {
    return (await readdir(join(stateDir, 'outbox'))).filter((name) => name !== 'failed' && !name.startsWith('.')).length;
  } catch {
    return 0;
  }
}

/**
 * Runs the project and scores session 60's block.
 *
 * @param options - the OpenCode line, plugin options, and a progress callback.
 */
export async function runLongMemory(options: { host?: HostLine; pluginOptions?: Record<string, unknown>; onSession?: (index: number, total: number) => void } = {}): Promise<{ report: LongMemoryReport; block: string }> {
  const base = await mkdtemp(join(tmpdir(), 'maenifold-long-'));
  const [root, stateDir, directory] = [join(base, 'root'), join(base, 'state'), join(base, 'shop')];
  await Promise.all([root, stateDir, directory].map((dir) => mkdir(dir, { recursive: true })));
  const notes: string[] = [];
  const store: MessageStore = new Map();
  const bounded = async (what: string, work: () => Promise<unknown>): Promise<boolean> => {
    const done = await withDeadline(Promise.resolve().then(work), STEP_MS);
    if (!done.done) notes.push(`${what}: ${done.reason === 'timeout' ? `no answer within ${STEP_MS} ms` : `threw: ${String((done.error as Error)?.message ?? done.error)}`}`);
    return done.done;
  };
  const previousRoot = process.env['MAENIFOLD_ROOT'];
  process.env['MAENIFOLD_ROOT'] = root;
  const start = async (name: string): Promise<ScenarioInstance> =>
    (await startInstance(options.host ?? 'v1', { name, directory, options: { store: 'files', stateDir, pool: { threads: 1 }, ...options.pluginOptions }, bounded, note: (text) => void notes.push(text), store })).instance;
  const request = { dir: directory, store: 'files' as const, stateDir, env: { ...process.env, MAENIFOLD_ROOT: root } };
  try {
    let instance = await start('sessions');
    const day = Date.UTC(2026, 0, 1);
    for (let index = 1; index < LONG_SESSIONS; index += 1) {
      options.onSession?.(index, LONG_SESSIONS);
      for (const decision of SCHEDULE.filter((entry) => entry.forgottenBefore === index)) {
        // What the user does: look the item up, and forget it by its id.
        await instance.dispose();
        const shown = await readMemoryReport(request);
        const ids = shown.items.filter((item) => item.kind === 'decision' && holds(item.text, decision)).map((item) => item.id);
        if (ids.length === 0) notes.push(`session ${index}: "${decision.text}" was not in memory to forget`);
        for (const id of ids) await forgetItem(id, request).catch((error: unknown) => notes.push(`forget ${id}: ${String((error as Error).message)}`));
        instance = await start(`sessions from ${index}`);
      }
      const session = longSession(index, day + index * 86_400_000);
      await instance.compact(session);
      const deadline = Date.now() + SETTLE_MS;
      while ((await pendingOutbox(stateDir)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Shutting down waits for the last digest pass; session 60 starts in a new process.
    await instance.dispose();
    const next = await start('session 60');
    const received = await next.system(`ses_long${String(LONG_SESSIONS).padStart(3, '0')}`);
    await next.dispose();
    const block = received.includes(PROJECT_MEMORY_HEADING) ? received.slice(received.indexOf(PROJECT_MEMORY_HEADING)).split('\n\n## Knowledge Graph Context')[0] ?? '' : '';
    const { kept, gone } = expectedAt(LONG_SESSIONS);
    const firstKept = kept.filter((decision) => decision.madeIn === 1);
    const tokens = (await readMemoryReport(request)).tokens;
    const report: LongMemoryReport = {
      sessions: LONG_SESSIONS,
      session1_kept: { expected: firstKept.length, found: firstKept.filter((decision) => holds(block, decision)).length, missing: firstKept.filter((decision) => !holds(block, decision)).map((decision) => decision.text) },
      all_kept: { expected: kept.length, found: kept.filter((decision) => holds(block, decision)).length, missing: kept.filter((decision) => !holds(block, decision)).map((decision) => decision.text) },
      gone_leaked: { expected: gone.length, leaked: gone.filter((decision) => holds(block, decision)).map((decision) => decision.text) },
      block_tokens: tokens,
      notes,
    };
    return { report, block };
  } finally {
    if (previousRoot === undefined) delete process.env['MAENIFOLD_ROOT'];
    else process.env['MAENIFOLD_ROOT'] = previousRoot;
    await rm(base, { recursive: true, force: true });
  }
}

/**
 * The report as text.
 *
 * @param report - as {@link runLongMemory} gave it.
 */
export function formatLongMemory(report: LongMemoryReport): string {
  const lines = [
    `Long memory: ${report.sessions} sessions of one generated project, session ${report.sessions}'s block (${report.block_tokens} tokens)`,
    `  session 1's decisions standing: ${report.session1_kept.found} of ${report.session1_kept.expected} reach it`,
    `  every decision standing:        ${report.all_kept.found} of ${report.all_kept.expected} reach it`,
    `  reversed or forgotten:          ${report.gone_leaked.leaked.length} of ${report.gone_leaked.expected} still in it`,
    ...report.all_kept.missing.map((text) => `  missing: ${text}`),
    ...report.gone_leaked.leaked.map((text) => `  leaked: ${text}`),
    ...report.notes.map((text) => `  note: ${text}`),
  ];
  return `${lines.join('\n')}\n`;
}
