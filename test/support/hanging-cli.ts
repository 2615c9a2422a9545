/**
 * A maenifold CLI that never answers, in the two shapes that held hooks past
 * their deadline, and a frames file whose read never completes; with the
 * scenarios that drive the process runner and every hook of the real plugin
 * through them. Shared by the Node test (vitest) and the probe that runs
 * under OpenCode's own Bun, so both runtimes are checked the same way.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, writeSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess, type ProcessOutcome } from '../../src/main/memory/cli/process-runner.js';
import { frameFileFor } from '../../src/main/frames/frame-store.js';
import { FRAME_CONTEXT_DEADLINE_MS } from '../../src/main/frames/frame-context.js';
import { FRAME_COMPACTING_DEADLINE_MS } from '../../src/main/frames/frame-compaction.js';
import { FRAME_TOOL_DEADLINE_MS } from '../../src/main/frames/frame-tools.js';
import { TASK_FIT_RESERVE_MS } from '../../src/main/graph/task-augmentation.js';
import { startHarness, type HarnessShared } from './plugin-harness.js';
import { message } from '../../support/fake-host.js';

/** A wrapper that starts the program without exec; the program hangs, and both hold stdout. */
export const WRAPPER_HANGS = fileURLToPath(new URL('../fixtures/hanging-cli/wrapper-hangs', import.meta.url));
/** A wrapper that answers and exits, leaving a background process that holds stdout. */
export const GRANDCHILD_HOLDS_STDOUT = fileURLToPath(new URL('../fixtures/hanging-cli/grandchild-holds-stdout', import.meta.url));

/** Whether a process runs or sleeps; a zombie (killed, not yet reaped by init) does not count. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** The pids the wrappers wrote to `file`, and those of them still running. */
export async function leftRunning(file: string): Promise<{ started: number[]; running: number[] }> {
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch {
    // No wrapper started.
  }
  const started = text.split('\n').filter(Boolean).map(Number);
  // A killed process ends a moment after its signal: wait for that, up to a bound, rather than a fixed time.
  const deadline = Date.now() + 5_000;
  let running = started.filter(alive);
  while (running.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    running = running.filter(alive);
  }
  return { started, running };
}

/** One run of the process runner against a wrapper. */
export interface RunnerFigure {
  script: 'wrapper-hangs' | 'grandchild-holds-stdout';
  timeoutMs: number;
  kind: ProcessOutcome['kind'];
  stdout: string;
  ms: number;
  started: number;
  running: number[];
}

const SCRIPTS = { 'wrapper-hangs': WRAPPER_HANGS, 'grandchild-holds-stdout': GRANDCHILD_HOLDS_STDOUT } as const;

/**
 * Runs wrappers through the process runner.
 *
 * @param dir - a scratch folder for the pid files.
 * @param timeoutMs - the runner's deadline; the stdout holder answers long before it.
 * @param scripts - which wrappers; both by default.
 */
export async function runnerScenarios(dir: string, timeoutMs: number, scripts: readonly RunnerFigure['script'][] = ['wrapper-hangs', 'grandchild-holds-stdout']): Promise<RunnerFigure[]> {
  const figures: RunnerFigure[] = [];
  for (const script of scripts) {
    const path = SCRIPTS[script];
    const pids = join(dir, `${script}.pids`);
    const start = performance.now();
    const outcome = await runProcess(path, ['--tool', 'BuildContext', '--payload', '{}'], {
      timeoutMs,
      maxStdoutBytes: 1024 * 1024,
      env: { ...process.env, HANGING_CLI_PIDS: pids },
    });
    const ms = Math.round(performance.now() - start);
    const { started, running } = await leftRunning(pids);
    figures.push({ script, timeoutMs, kind: outcome.kind, stdout: 'stdout' in outcome ? outcome.stdout : '', ms, started: started.length, running });
  }
  return figures;
}

/** One hook call of the plugin with a hanging CLI or a hung frames read. */
export interface HookFigure {
  hook: string;
  /** The hook's deadline: the sum of its parts' (session start then frame context; compaction then frame instructions). */
  deadlineMs: number;
  ms: number;
  /** What the hook left in its output, as a short description. */
  result: string;
}

/** The plugin options of {@link hookScenarios}: short budgets, so a hang shows at once. */
export const HOOK_OPTIONS = {
  store: 'maenifold',
  contextTimeoutMs: 1_000,
  contextTotalTimeoutMs: 2_000,
  compactionDeadlineMs: 3_000,
  persistTimeoutMs: 1_000,
  rules: false,
} as const;

/** Task augmentation's deadline: the context calls' total plus its fitting reserve. */
const TASK_DEADLINE_MS = HOOK_OPTIONS.contextTotalTimeoutMs + TASK_FIT_RESERVE_MS;

const conversation = [
  message('m1', 'user', 'Please add caching to the [[API Gateway]] of the shop, with a shared store for every node.', { model: { providerID: 'fake', modelID: 'm' } }),
  message('m2', 'assistant', '## Plan\nWe decided to use [[Redis]] for the [[cache layer]] because every node shares it.', { providerID: 'fake', modelID: 'm' }),
];

type Tool = { execute(args: Record<string, unknown>, context: { sessionID: string }): Promise<string> };

async function timed(figures: HookFigure[], hook: string, deadlineMs: number, call: () => Promise<string>): Promise<void> {
  const start = performance.now();
  const result = await call();
  figures.push({ hook, deadlineMs, ms: Math.round(performance.now() - start), result });
}

/**
 * Starts the real plugin on `cli` and calls every hook once; with
 * `hungFrames`, the frames file is a FIFO nobody writes, so its read never
 * completes. Returns the figures and the wrapper processes left running
 * after the plugin was disposed.
 *
 * @param dir - a scratch folder for the pid file.
 * @param cli - the wrapper the plugin runs as maenifold.
 * @param hungFrames - make the frames file's read hang.
 * @param shared - a worker pool shared by the scenarios of one test file; by default the plugin starts its own.
 */
export async function hookScenarios(dir: string, cli: string, hungFrames = false, shared: HarnessShared = {}): Promise<{ figures: HookFigure[]; started: number; running: number[] }> {
  const pids = join(dir, `hooks-${hungFrames ? 'fifo' : 'cli'}.pids`);
  const harness = await startHarness({ ...HOOK_OPTIONS, cli }, { HANGING_CLI_PIDS: pids }, undefined, shared);
  const figures: HookFigure[] = [];
  let unblock: (() => void) | undefined;
  try {
    if (hungFrames) {
      const file = frameFileFor(harness.stateDir, '/work/acme-shop');
      await mkdir(join(file, '..'), { recursive: true });
      execFileSync('mkfifo', [file]);
      // Writing to it lets the blocked read finish when the run is over (ENXIO: nobody is reading).
      unblock = () => {
        try {
          const fd = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
          writeSync(fd, '{}');
          closeSync(fd);
        } catch {
          // No reader waiting.
        }
      };
    }
    const { hooks } = harness.plugin;
    harness.host.setMessages('ses_hang', conversation);
    await timed(figures, 'experimental.chat.system.transform', HOOK_OPTIONS.contextTotalTimeoutMs + FRAME_CONTEXT_DEADLINE_MS, async () => {
      const output = { system: ['You are the build agent.'] };
      await hooks['experimental.chat.system.transform']?.({ sessionID: 'ses_hang', model: { id: 'm' } } as never, output);
      return output.system.length === 1 && output.system[0] === 'You are the build agent.' ? 'system unchanged' : 'system changed';
    });
    await timed(figures, 'tool.execute.before (task)', TASK_DEADLINE_MS, async () => {
      const output = { args: { prompt: 'Refactor the [[redis]] client of the [[cache-layer]].' } as Record<string, unknown> };
      await hooks['tool.execute.before']?.({ tool: 'task', sessionID: 'ses_hang', callID: 'c1' }, output);
      return output.args['prompt'] === 'Refactor the [[redis]] client of the [[cache-layer]].' ? 'prompt unchanged' : 'prompt changed';
    });
    await timed(figures, 'experimental.session.compacting', HOOK_OPTIONS.compactionDeadlineMs + FRAME_COMPACTING_DEADLINE_MS, async () => {
      const output = { context: [] as string[] };
      await hooks['experimental.session.compacting']?.({ sessionID: 'ses_hang' }, output);
      return `${output.context.length} context blocks`;
    });
    await timed(figures, 'event (session.compacted)', 0, async () => {
      await hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID: 'ses_hang' } } });
      return 'returned';
    });
    await timed(figures, 'tool.execute.after (task)', 0, async () => {
      const output = { title: 't', output: 'Done. ConfessionReport: none.', metadata: { sessionId: 'ses_sub' } };
      await hooks['tool.execute.after']?.({ tool: 'task', sessionID: 'ses_hang', callID: 'c1', args: {} }, output);
      return output.output === 'Done. ConfessionReport: none.' ? 'result unchanged' : 'result changed';
    });
    const tools = hooks.tool as Record<string, Tool> | undefined;
    if (tools) {
      await timed(figures, 'tool flame_push', FRAME_TOOL_DEADLINE_MS, () => tools['flame_push']!.execute({ goal: 'Add a [[redis]] cache' }, { sessionID: 'ses_hang' }));
      await timed(figures, 'tool flame_status', FRAME_TOOL_DEADLINE_MS, () => tools['flame_status']!.execute({}, { sessionID: 'ses_hang' }));
      await timed(figures, 'tool flame_pop', FRAME_TOOL_DEADLINE_MS, () => tools['flame_pop']!.execute({ status: 'completed' }, { sessionID: 'ses_hang' }));
    }
  } finally {
    unblock?.();
    await harness.close();
  }
  const { started, running } = await leftRunning(pids);
  return { figures, started: started.length, running };
}
