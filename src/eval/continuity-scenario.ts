/**
 * One session's continuity run, in a process of its own: project P compacts
 * the session through the plugin's default export and a new plugin instance
 * (a new OpenCode process) starts P's next session; then project Q compacts
 * another session in the same memory, and P's next session, and the
 * never-compacted project R's, are started again. Every instance runs on one
 * OpenCode line, 1.x or 2.x (continuity-instances.ts); whichever it is, a
 * compaction is waited for until its summary is in memory and the outbox is
 * empty. What each received is returned as text; scoring is the caller's.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HostLine } from '../main/host/host-port.js';
import { withDeadline } from '../main/shared/deadline.js';
import { carriesSummary } from './continuity-score.js';
import type { CapturedLog, MessageStore } from './continuity-host.js';
import { readV2Log, startInstance, type BoundedStep, type ScenarioInstance } from './continuity-instances.js';

/** A project that compacts a session. */
export interface CompactingProject {
  /** The project's folder, given as `directory` and `worktree`. */
  directory: string;
  sessionID: string;
  /** The session's messages before the compaction, `{ info, parts }`. */
  messages: unknown[];
  /** The summary the compaction stores. */
  summary: string;
  /** Identifies the summary in a memory file (`summaryProbe`). */
  probe: string;
}

/** What a child process runs. */
export interface ScenarioSpec {
  /** `$MAENIFOLD_ROOT` of every plugin instance. */
  root: string;
  /** The `stateDir` option of every plugin instance. */
  stateDir: string;
  /** P and Q; without them, only R's session runs (the empty-memory baseline). */
  p: CompactingProject | null;
  q: CompactingProject | null;
  /** R's folder. */
  untouched: string;
  /** Options given to every plugin instance besides `store: 'files'` and `stateDir`. */
  pluginOptions?: Record<string, unknown>;
  /** Longest wait for one hook call or one plugin start, in ms. */
  stepMs: number;
  /** Longest wait for a compaction's background work to land in memory, in ms. */
  settleMs: number;
  /** The OpenCode line whose entry and hooks every instance runs through. @default 'v1' */
  host?: HostLine;
}

/** A plugin instance's log lines, named after its role. */
export interface InstanceLog extends CapturedLog {
  instance: string;
}

/** What a child process reports. */
export interface ScenarioResult {
  /** P's next session in a new instance, after P compacted and before Q did. */
  pAlone: string | null;
  /** P's next session in a new instance, after Q compacted too: the headline. */
  pNext: string | null;
  /** P's next session in the instance that compacted, when it is still open. */
  pSame: string | null;
  /** R's session in the memory this run left. */
  untouched: string;
  /** What went wrong on the way without stopping the run. */
  notes: string[];
  logs: InstanceLog[];
}

/** The new session's id in every next-session call, so two runs differ only in memory. */
export const NEXT_SESSION_ID = 'ses_continuity_next';

async function memoryFiles(folder: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.md')).map((entry) => join(entry.parentPath, entry.name));
}

async function pendingOutbox(stateDir: string): Promise<number> {
  try {
    return (await readdir(join(stateDir, 'outbox'))).filter((name) => name !== 'failed' && !name.startsWith('.')).length;
  } catch {
    return 0;
  }
}

async function summaryLanded(root: string, probe: string): Promise<boolean> {
  for (const file of await memoryFiles(root)) {
    try {
      if (carriesSummary(await readFile(file, 'utf8'), probe)) return true;
    } catch {
      // A file renamed away while listed: the next poll sees its new name.
    }
  }
  return false;
}

/**
 * A {@link BoundedStep} that waits at most `stepMs` and notes a step that did not finish.
 *
 * @param stepMs - longest wait for one step.
 * @param notes - where a step that timed out or threw is noted.
 */
export function boundedStep(stepMs: number, notes: string[]): BoundedStep {
  return async (what, work) => {
    const done = await withDeadline(Promise.resolve().then(work), stepMs);
    if (!done.done) notes.push(`${what}: ${done.reason === 'timeout' ? `no answer within ${stepMs} ms` : `threw: ${String((done.error as Error)?.message ?? done.error)}`}`);
    return done.done;
  };
}

/**
 * Compacts a project's session through an instance and waits until its summary is in memory and the
 * outbox is empty, as a person would before starting the next session; notes what did not land in time.
 *
 * @param where - the memory root, the state folder and the longest wait.
 * @param step - the instance (named for the notes) and the project whose session it compacts.
 * @param notes - the scenario's notes.
 */
export async function compactAndSettle(where: { root: string; stateDir: string; settleMs: number }, step: { instance: string; plugin: ScenarioInstance; project: CompactingProject }, notes: string[]): Promise<void> {
  const { instance, plugin, project } = step;
  await plugin.compact(project);
  const deadline = Date.now() + where.settleMs;
  let landed = false;
  let pending = 0;
  while (Date.now() < deadline) {
    landed = await summaryLanded(where.root, project.probe);
    pending = await pendingOutbox(where.stateDir);
    if (landed && pending === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!landed) notes.push(`${instance}: the summary was not in memory after ${where.settleMs} ms`);
  else if (pending > 0) notes.push(`${instance}: ${pending} outbox entries still pending after ${where.settleMs} ms`);
}

/**
 * Runs the scenario.
 *
 * @param spec - see {@link ScenarioSpec}.
 */
export async function runScenario(spec: ScenarioSpec): Promise<ScenarioResult> {
  const store: MessageStore = new Map();
  const notes: string[] = [];
  const logs: InstanceLog[] = [];
  const hostLogs: { instance: string; lines: CapturedLog[] }[] = [];

  const bounded = boundedStep(spec.stepMs, notes);

  const line: HostLine = spec.host ?? 'v1';
  const started: ScenarioInstance[] = [];
  const note = (text: string): void => void notes.push(text);

  async function start(instance: string, directory: string): Promise<ScenarioInstance> {
    // The store's root is read from the environment when the plugin is created.
    process.env['MAENIFOLD_ROOT'] = spec.root;
    const options = { store: 'files', stateDir: spec.stateDir, ...spec.pluginOptions };
    const { instance: plugin, logs: lines } = await startInstance(line, { name: instance, directory, options, bounded, note, store });
    hostLogs.push({ instance, lines });
    started.push(plugin);
    return plugin;
  }

  const compact = (instance: string, plugin: ScenarioInstance, project: CompactingProject): Promise<void> => compactAndSettle(spec, { instance, plugin, project }, notes);

  const result: ScenarioResult = { pAlone: null, pNext: null, pSame: null, untouched: '', notes, logs };
  if (spec.p) {
    const first = await start('P compacting', spec.p.directory);
    await compact('P compacting', first, spec.p);
    result.pAlone = await (await start('P new process', spec.p.directory)).system(NEXT_SESSION_ID);
    if (spec.q) await compact('Q compacting', await start('Q compacting', spec.q.directory), spec.q);
    result.pNext = await (await start('P new process after Q', spec.p.directory)).system(NEXT_SESSION_ID);
    // The instance that compacted is still open: its next session is the same process's.
    result.pSame = await first.system(NEXT_SESSION_ID);
  }
  result.untouched = await (await start('R new process', spec.untouched)).system(`${NEXT_SESSION_ID}_r`);
  // Each instance is shut down as OpenCode shuts a plugin down: its background work and pool end.
  for (const plugin of started) await plugin.dispose();
  if (line === 'v2') hostLogs.push({ instance: 'every instance (maenifold.log)', lines: await readV2Log(spec.stateDir) });
  for (const { instance, lines } of hostLogs) logs.push(...lines.map((entry) => ({ instance, ...entry })));
  return result;
}
