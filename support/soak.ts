/**
 * The cross-process soak: rounds of plugin processes (support/submit-thought.ts)
 * submitting summaries of one project at once to one state folder, killed
 * with SIGKILL and stopped with SIGSTOP (then resumed with SIGCONT, often
 * after another process took their lock over) at random points, then a
 * final drain; counts what reached the chains. Used by `npm run soak`
 * (20 rounds) and, shorter, by the tests.
 *
 * With `fullDisk`, the state folder is a small tmpfs (mounting needs root)
 * that a filler file takes whole for a few seconds of each round while the
 * senders deliver, then frees: summaries then go out on chains kept in
 * memory, are held in memory, and are spilled at shutdown.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createChainStore } from '../src/main/memory/delivery/chain-store.js';
import { createDelivery, idempotencyKey } from '../src/main/memory/delivery/delivery.js';
import { createFileStore } from '../src/main/memory/files/file-store.js';
import { lazyInlineRunner } from '../src/main/pool/inline-runner.js';
import { locateCli } from '../src/main/memory/cli/cli-locator.js';
import { createLogger, type LogClient } from '../src/main/shared/logger.js';
import { errorCode } from '../src/main/shared/disk-refusals.js';
import { defaultSpillDir } from '../src/main/memory/delivery/spill.js';
import { mountTmpfs, type Mount } from '../test/support/scratch-mount.js';
import { createMaenifoldClient } from '../src/main/memory/cli/maenifold-client.js';
import type { MemoryPort } from '../src/main/memory/memory-port.js';
import { createOutbox } from '../src/main/memory/delivery/outbox.js';
import { createPrng } from '../src/synth/prng.js';
import { createDoubleRoot } from './maenifold-double.js';

const SENDER = fileURLToPath(new URL('./submit-thought.ts', import.meta.url));
const PROJECT = 'soak';

/** What a soak runs. */
export interface SoakSettings {
  rounds: number;
  /** Processes started at once in each round. @default 2 */
  processes?: number;
  /** Summaries each process submits. @default 5 */
  sessions?: number;
  /** `cli`: the maenifold double, slowed down; `files`: the built-in file store. */
  store: 'cli' | 'files';
  /** Chance that a process is killed during a round. @default 0.6 */
  killChance?: number;
  /** A killed process dies within this many milliseconds of starting to send. @default 3000 */
  killWithinMs?: number;
  /**
   * What the kill is counted from: `started` (its summaries may not be stored yet) or `stored` (they
   * are on disk, so each kill cuts a delivery that is owed, however slowly the machine starts it).
   * @default 'started'
   */
  killFrom?: 'started' | 'stored';
  /** Chance that a process (alone, or with the CLI it started) is stopped during a round, then resumed. @default 0 */
  stopChance?: number;
  /** A stopped process stays stopped up to this long: past the lock's 2 s, another process takes its lock over. @default 5000 */
  stopForMs?: number;
  seed?: number;
  /**
   * The state folder on a tmpfs of `sizeKb` that a filler file takes whole once a round, from a random
   * point within `fillWithinMs` of the senders' start, for `fillForMs[0]` to `fillForMs[1]` ms.
   * @default none: the state folder is on the system's temporary folder
   */
  fullDisk?: { sizeKb?: number; fillWithinMs?: number; fillForMs?: [number, number] };
}

/** What the full-disk soak counts besides; every figure from the senders' log lines and the files. */
export interface FullDiskCounts {
  /** Times the filler took the state folder whole. */
  fills: number;
  /** Submissions the outbox refused: held in memory. */
  heldInMemory: number;
  /**
   * Deliveries whose lock or chain state the disk refused, sent on a chain kept in memory instead (each logs a
   * line); one that follows an unsettled call on that chain goes there too without a line, and is not counted.
   */
  inMemoryChainSends: number;
  /** Entries written to the outbox at shutdown. */
  writtenAtShutdown: number;
  /** Entries spilled at shutdown, and taken back into the outbox by a later process or the drain. */
  spilled: number;
  takenBack: number;
  /** Entries a shutdown could write nowhere (its log says lost). */
  lostAtShutdown: number;
  /** Summaries held only in memory by a process killed before it delivered them: the documented cost, not owed. */
  killedInMemory: number;
  /** Entries left in the spill folder after the drain. */
  leftInSpill: number;
}

/** What a soak found. */
export interface SoakResult {
  store: 'cli' | 'files';
  rounds: number;
  processes: number;
  /** Processes killed with SIGKILL (alone, or with the CLI it had started). */
  kills: number;
  /** Processes stopped with SIGSTOP and resumed with SIGCONT. */
  stops: number;
  /** Summaries submitted by processes that said they were stored (on disk) before they died or finished. */
  owed: number;
  delivered: number;
  lost: number;
  duplicated: number;
  chains: number;
  chainsWithRepeatedNumbers: number;
  parked: number;
  leftInOutbox: number;
  seconds: number;
  fullDisk?: FullDiskCounts;
}

/** Whether every process of a process group has exited. */
export function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch {
    return true;
  }
}

async function until(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path)));
    else if (entry.name.endsWith('.md')) found.push(path);
  }
  return found;
}

/**
 * How a sender starts: under vitest, from the bundle its global setup built (about 0.1 s of CPU instead of
 * 0.5 s through tsx); `npm run soak` runs outside vitest, so the vitest import of fixture-process.ts stays out of it.
 */
async function senderArgv(): Promise<string[]> {
  if (!process.env['VITEST']) return ['--import', 'tsx', SENDER];
  const { fixtureArgv } = await import('./fixture-process.js');
  return fixtureArgv(SENDER);
}

/** What happens to one process of a round, counted from when it starts to send. */
interface Fate {
  killAfterMs: number | null;
  killFrom: 'started' | 'stored';
  stop: { afterMs: number; forMs: number } | null;
  /** Whether the signals reach its whole group (the CLI it started) or the process alone. */
  wholeGroup: boolean;
}

/** What one sender did. */
interface SenderOutcome {
  stored: boolean;
  killed: boolean;
  stopped: boolean;
  /** Keys it wrote to the outbox (printed with SOAK_TRACE=1). */
  durable: Set<string>;
  /** Its log lines (SOAK_TRACE=1). */
  logs: string[];
}

/** One process of a round: started in its own group, stopped and resumed, killed, or left to finish. */
async function runSender(args: string[], env: NodeJS.ProcessEnv, fate: Fate, live: Set<number>): Promise<SenderOutcome> {
  const proc = spawn(process.execPath, [...(await senderArgv()), ...args], { env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  live.add(proc.pid as number);
  const target = fate.wholeGroup ? -(proc.pid as number) : (proc.pid as number);
  const signal = (name: NodeJS.Signals): boolean => {
    try {
      process.kill(target, name);
      return true;
    } catch {
      return false; // It finished first.
    }
  };
  let stored = false;
  let started = false;
  let killed = false;
  let stopped = false;
  let output = '';
  const armKill = (): void => {
    if (fate.killAfterMs === null) return;
    setTimeout(() => {
      killed = signal('SIGKILL');
    }, fate.killAfterMs).unref();
  };
  // 'close', not 'exit': a process that prints its last line and exits at once can exit before that line is
  // read from its pipe, and a sender whose 'stored' went unread would not count as owed.
  const exited = new Promise<void>((resolve) => proc.once('close', () => resolve()));
  proc.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (!stored && output.includes('stored\n')) {
      stored = true;
      if (fate.killFrom === 'stored') armKill();
    }
    if (started || !output.includes('started\n')) return;
    started = true;
    if (fate.stop) {
      const { afterMs, forMs } = fate.stop;
      setTimeout(() => {
        if (!signal('SIGSTOP')) return;
        stopped = true;
        setTimeout(() => signal('SIGCONT'), forMs).unref();
      }, afterMs).unref();
    }
    if (fate.killFrom === 'started') armKill();
  });
  await exited;
  // A group stopped with its leader killed: what is left of it is resumed, so it can finish.
  if (fate.wholeGroup) signal('SIGCONT');
  await until(() => groupGone(proc.pid as number), 30_000);
  live.delete(proc.pid as number);
  const lines = output.split('\n');
  const durable = new Set(lines.filter((line) => line.startsWith('durable ')).map((line) => line.slice('durable '.length)));
  return { stored, killed: killed && !output.includes('delivered\n'), stopped, durable, logs: lines.filter((line) => line.startsWith('log ')) };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes every free byte of the mount for `forMs`, topping up every 50 ms what deletions free, then frees it.
 *
 * @returns whether the disk was full at least once.
 */
async function fillFor(mountDir: string, forMs: number): Promise<boolean> {
  const path = join(mountDir, 'filler');
  const chunk = Buffer.alloc(64 * 1024, 1);
  const until = Date.now() + forMs;
  let full = false;
  const file = await open(path, 'a');
  try {
    while (Date.now() < until) {
      try {
        for (;;) await file.write(chunk);
      } catch (error) {
        if (errorCode(error) !== 'ENOSPC') throw error;
        full = true;
      }
      await sleep(50);
    }
  } finally {
    await file.close();
    await rm(path, { force: true });
  }
  return full;
}

/** Counts a log line of a sender or the drain. */
function countLine(line: string, counts: FullDiskCounts): void {
  if (line.includes('the state folder refuses the chain state')) counts.inMemoryChainSends += 1;
  else if (/outbox: the disk refused the (thought|note)/.test(line)) counts.heldInMemory += 1;
  else if (/^log \w+ shutdown: .* held in memory is in the outbox/.test(line)) counts.writtenAtShutdown += 1;
  else if (/shutdown: the outbox refuses .* spilled to/.test(line)) counts.spilled += 1;
  else if (/shutdown: .* could not be written anywhere/.test(line)) counts.lostAtShutdown += 1;
  const took = /outbox: took (\d+) entries spilled/.exec(line);
  if (took) counts.takenBack += Number(took[1]);
}

/**
 * @param settings - see {@link SoakSettings}.
 */
export async function runSoak(settings: SoakSettings): Promise<SoakResult> {
  const started = Date.now();
  const random = createPrng(settings.seed ?? 14);
  const processes = settings.processes ?? 2;
  const sessions = settings.sessions ?? 5;
  let mount: Mount | null = null;
  if (settings.fullDisk) {
    mount = await mountTmpfs(settings.fullDisk.sizeKb ?? 1024);
    if (!mount) throw new Error('the full-disk soak mounts a tmpfs for its state folder, which needs root and a kernel that lets this machine mount');
  }
  const double = await createDoubleRoot();
  const helpers = await mkdtemp(join(tmpdir(), 'soak-bin-'));
  const stateDir = mount ? join(mount.dir, 'state') : await mkdtemp(join(tmpdir(), 'soak-state-'));
  const spillDir = defaultSpillDir(join(stateDir, 'outbox'));
  const live = new Set<number>();
  const counts: FullDiskCounts = { fills: 0, heldInMemory: 0, inMemoryChainSends: 0, writtenAtShutdown: 0, spilled: 0, takenBack: 0, lostAtShutdown: 0, killedInMemory: 0, leftInSpill: 0 };
  // Interrupted, the soak still ends its senders and unmounts.
  const interrupted = (): void => {
    for (const pid of live) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    if (mount) {
      try {
        execFileSync('umount', ['-l', mount.dir], { stdio: 'ignore' });
      } catch {
        // Not mounted any more.
      }
    }
    process.exit(130);
  };
  if (mount) {
    process.once('SIGINT', interrupted);
    process.once('SIGTERM', interrupted);
  }
  try {
    if (mount) await mkdir(join(stateDir, 'outbox'), { recursive: true });
    const slow = join(helpers, 'slow-maenifold');
    await writeFile(slow, `#!/bin/sh\nexec "${double.cliPath}" "$@"\n`);
    await chmod(slow, 0o755);
    const cliArg = settings.store === 'files' ? 'files' : slow;
    const owed = new Set<string>();
    // Held only in memory by a process killed before it finished: owed only if it landed before the kill.
    const atRisk = new Set<string>();
    let kills = 0;
    let stops = 0;
    for (let round = 0; round < settings.rounds; round++) {
      const runs = Array.from({ length: processes }, (_, index) => {
        const label = `r${round}p${index}`;
        const killAfterMs = random() < (settings.killChance ?? 0.6) ? Math.floor(random() * (settings.killWithinMs ?? 3_000)) : null;
        const stop = random() < (settings.stopChance ?? 0) ? { afterMs: Math.floor(random() * 2_000), forMs: 500 + Math.floor(random() * ((settings.stopForMs ?? 5_000) - 500)) } : null;
        const env = {
          ...process.env,
          ...double.env,
          DELIVERY_TIMEOUT_MS: '4000',
          MAENIFOLD_DOUBLE_FAULT: `slow:${100 + Math.floor(random() * 600)}`,
          MAENIFOLD_DOUBLE_FAULT_TOOLS: 'SequentialThinking',
          ...(mount ? { SOAK_TRACE: '1' } : {}),
        };
        return runSender([stateDir, cliArg, PROJECT, String(sessions), label], env, { killAfterMs, killFrom: settings.killFrom ?? 'started', stop, wholeGroup: random() < 0.5 }, live).then((outcome) => {
          for (const line of outcome.logs) countLine(line, counts);
          for (let n = 0; n < sessions; n++) {
            const key = idempotencyKey('thought', PROJECT, `${label}:${n}`);
            // On the full disk, a killed process owes only what reached its outbox; one that finished spilled the rest.
            if (outcome.durable.has(key)) owed.add(key);
            else if (mount && outcome.killed) {
              if (outcome.stored) atRisk.add(key);
            } else if (outcome.stored) owed.add(key);
          }
          if (outcome.killed) kills += 1;
          if (outcome.stopped) stops += 1;
        });
      });
      if (mount && settings.fullDisk) {
        const { fillWithinMs = 2_000, fillForMs = [3_000, 6_000] } = settings.fullDisk;
        const after = Math.floor(random() * fillWithinMs);
        const forMs = fillForMs[0] + Math.floor(random() * (fillForMs[1] - fillForMs[0]));
        const dir = mount.dir;
        runs.push(sleep(after).then(async () => {
          if (await fillFor(dir, forMs)) counts.fills += 1;
        }));
      }
      await Promise.all(runs);
    }
    // The drain: a later start of the plugin, once every call of a dead process has settled.
    let later = 3_600_000 * 3;
    const drainLines: LogClient = {
      app: {
        log: async ({ body }) => countLine(`log ${body.level} ${body.message}`, counts),
      },
    };
    const logger = createLogger(mount ? drainLines : undefined);
    // As in the senders: the file store's tasks are loaded when it first runs one, and the drain runs none.
    const runner = lazyInlineRunner();
    const store: MemoryPort =
      settings.store === 'files'
        ? createFileStore({ root: double.root, stateDir, runner, logger })
        : createMaenifoldClient(locateCli(double.cliPath, process.env), { ...process.env, ...double.env });
    const delivery = createDelivery({
      memory: store,
      outbox: createOutbox(join(stateDir, 'outbox'), { now: () => Date.now() + later }),
      chains: createChainStore(stateDir, { timing: { staleMs: 2_000 } }),
      logger,
      timeoutMs: 4_000,
      now: () => Date.now() + later,
      lockTiming: { staleMs: 2_000 },
    });
    const outboxNames = async (): Promise<string[]> => (await readdir(join(stateDir, 'outbox')).catch(() => [] as string[])).filter((name) => /\.json(\.claim-[-0-9a-f]+)?$/.test(name));
    // Each pass an hour later than the one before, as later hooks would come: an entry that failed once in the
    // drain (a call past its deadline on a loaded machine) is due again, past the longest backoff. A round that
    // passes its deadline goes on beside the next pass, which waits for its lock.
    // What the last senders spilled at their shutdown counts as pending too: the drain's flush takes it back.
    const spilledNames = async (): Promise<string[]> => (await readdir(spillDir).catch(() => [] as string[])).filter((name) => name.endsWith('.json'));
    for (let pass = 0; pass < 8 && (await outboxNames()).length + (await spilledNames()).length > 0; pass++) {
      await delivery.flush();
      later += 3_600_000;
    }
    const seen = new Map<string, number>();
    let chains = 0;
    let repeated = 0;
    for (const file of await filesUnder(join(double.root, 'memory', 'thinking', 'sequential'))) {
      const text = await readFile(file, 'utf8');
      chains += 1;
      const numbers = [...text.matchAll(/^## Thought (\d+)\//gm)].map((match) => match[1]);
      if (new Set(numbers).size !== numbers.length) repeated += 1;
      for (const match of text.matchAll(/Delivery ([0-9a-f]{32}) of/g)) seen.set(match[1] as string, (seen.get(match[1] as string) ?? 0) + 1);
    }
    const parked = (await readdir(join(stateDir, 'outbox', 'failed')).catch(() => [] as string[])).length;
    await logger.flush();
    counts.killedInMemory = [...atRisk].filter((key) => !seen.has(key)).length;
    // Entries, and entries being taken; a temporary file of a write its killed writer never finished is none.
    counts.leftInSpill = (await readdir(spillDir).catch(() => [] as string[])).filter((name) => name.endsWith('.json') || name.includes('.json.adopting-')).length;
    return {
      store: settings.store,
      rounds: settings.rounds,
      processes,
      kills,
      stops,
      owed: owed.size,
      delivered: seen.size,
      lost: [...owed].filter((key) => !seen.has(key)).length,
      duplicated: [...seen.values()].reduce((sum, count) => sum + count - 1, 0),
      chains,
      chainsWithRepeatedNumbers: repeated,
      parked,
      leftInOutbox: (await outboxNames()).length,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      ...(mount ? { fullDisk: counts } : {}),
    };
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await double.cleanup();
    await rm(helpers, { recursive: true, force: true });
    await rm(spillDir, { recursive: true, force: true });
    if (mount) await mount.unmount().catch(() => execFileSync('umount', ['-l', (mount as Mount).dir], { stdio: 'ignore' }));
    else await rm(stateDir, { recursive: true, force: true });
  }
}
