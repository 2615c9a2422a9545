/**
 * One project's sequence run, in a process of its own (the continuity
 * scenario's child runs it): the project's sessions are compacted in order,
 * each by a plugin instance of its own (a new OpenCode process per session,
 * as a person works), each compaction waited for until its summary is in
 * memory and the outbox is empty; then a new instance starts the project's
 * next session, and what its system prompt received is returned. Scoring is
 * the caller's.
 */
import type { HostLine } from '../main/host/host-port.js';
import type { CapturedLog, MessageStore } from './continuity-host.js';
import { readV2Log, startInstance, type ScenarioInstance } from './continuity-instances.js';
import { boundedStep, compactAndSettle, NEXT_SESSION_ID, type CompactingProject, type InstanceLog } from './continuity-scenario.js';

/** What a sequence child process runs. */
export interface SequenceSpec {
  kind: 'sequence';
  /** `$MAENIFOLD_ROOT` of every plugin instance. */
  root: string;
  /** The `stateDir` option of every plugin instance. */
  stateDir: string;
  /** The project's folder, given as `directory` and `worktree` to every instance. */
  directory: string;
  /** The project's earlier sessions, oldest first; each `directory` is the project's. */
  sessions: CompactingProject[];
  /** Options given to every plugin instance besides `store: 'files'` and `stateDir`. */
  pluginOptions?: Record<string, unknown>;
  /** Longest wait for one hook call or one plugin start, in ms. */
  stepMs: number;
  /** Longest wait for a compaction's background work to land in memory, in ms. */
  settleMs: number;
  /** The OpenCode line whose entry and hooks every instance runs through. @default 'v1' */
  host?: HostLine;
}

/** What a sequence child process reports. */
export interface SequenceResult {
  /** What the project's next session received after every earlier session was compacted; `null` when it could not start. */
  received: string | null;
  /** What went wrong on the way without stopping the run. */
  notes: string[];
  logs: InstanceLog[];
}

/**
 * Whether a spec read from a file is a sequence's.
 *
 * @param spec - the parsed spec.
 */
export function isSequenceSpec(spec: unknown): spec is SequenceSpec {
  return typeof spec === 'object' && spec !== null && (spec as { kind?: unknown }).kind === 'sequence';
}

/**
 * Runs the sequence.
 *
 * @param spec - see {@link SequenceSpec}.
 */
export async function runSequenceScenario(spec: SequenceSpec): Promise<SequenceResult> {
  const store: MessageStore = new Map();
  const notes: string[] = [];
  const hostLogs: { instance: string; lines: CapturedLog[] }[] = [];
  const bounded = boundedStep(spec.stepMs, notes);
  const line: HostLine = spec.host ?? 'v1';
  const note = (text: string): void => void notes.push(text);

  async function start(instance: string): Promise<ScenarioInstance> {
    // The store's root is read from the environment when the plugin is created.
    process.env['MAENIFOLD_ROOT'] = spec.root;
    const options = { store: 'files', stateDir: spec.stateDir, ...spec.pluginOptions };
    const { instance: plugin, logs } = await startInstance(line, { name: instance, directory: spec.directory, options, bounded, note, store });
    hostLogs.push({ instance, lines: logs });
    return plugin;
  }

  for (const [index, session] of spec.sessions.entries()) {
    const instance = `session ${index + 1} (${session.sessionID})`;
    const plugin = await start(instance);
    await compactAndSettle(spec, { instance, plugin, project: session }, notes);
    // The session's process ends before the next one starts, as OpenCode shuts a plugin down.
    await plugin.dispose();
  }
  const next = await start('next session');
  const received = await next.system(NEXT_SESSION_ID);
  await next.dispose();
  const logs: InstanceLog[] = [];
  if (line === 'v2') hostLogs.push({ instance: 'every instance (maenifold.log)', lines: await readV2Log(spec.stateDir) });
  for (const { instance, lines } of hostLogs) logs.push(...lines.map((entry) => ({ instance, ...entry })));
  return { received, notes, logs };
}
