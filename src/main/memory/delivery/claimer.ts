/**
 * Who made an outbox claim, and whether this process can tell that the
 * claimer stopped running.
 *
 * A pid names a process only inside one PID namespace of one boot: two
 * containers sharing a state folder, or two machines sharing it over the
 * network, each have a process 4242 of their own. A claim therefore carries
 * its claimer's scope, a hash of the boot id and the PID namespace, beside
 * the pid and the process's start time; only a claim of this process's own
 * scope is judged by its pid. Where the pid cannot be judged (another scope,
 * a claim of an earlier version that names none, a `/proc` that is missing
 * or belongs to another namespace, pid 0 or 1: `kill(0, 0)` signals one's
 * own group, and pid 1 is some namespace's init), the claim's age decides.
 */
import { createHash } from 'node:crypto';
import { readFile, readlink } from 'node:fs/promises';

/** What a claim says of the process that made it. */
export interface Claimer {
  pid: number;
  /** The kernel's start time of the pid, in clock ticks since boot; `'0'` where it could not be read. */
  start: string;
  /** {@link claimerScope} of the claimer; `'0'` where it had none. */
  scope: string;
}

/** The scope of a process that cannot tell its PID namespace: no claim is judged by its pid. */
export const NO_SCOPE = '0';

/**
 * When the process `pid` started, in clock ticks since boot (Linux's /proc/<pid>/stat, field 22), as
 * text; `'0'` where it cannot be read. With the pid it names one process: a pid reused later differs.
 *
 * @param pid - the process.
 * @param proc - where the process table is mounted.
 */
export async function processStart(pid: number, proc = '/proc'): Promise<string> {
  try {
    const text = await readFile(`${proc}/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    const start = text.slice(text.lastIndexOf(')') + 2).split(' ')[19];
    return start && /^\d+$/.test(start) ? start : '0';
  } catch {
    return '0';
  }
}

/**
 * This process's scope: 12 hex digits of a hash of the boot id and the PID namespace, or
 * {@link NO_SCOPE} where `proc` is missing, unreadable, or another namespace's (its `self` is not
 * this process's pid, so the pids it lists are not the ones `kill` reaches).
 *
 * @param proc - where the process table is mounted.
 */
export async function claimerScope(proc = '/proc'): Promise<string> {
  try {
    if ((await readlink(`${proc}/self`)) !== String(process.pid)) return NO_SCOPE;
    const boot = (await readFile(`${proc}/sys/kernel/random/boot_id`, 'utf8')).trim();
    const namespace = await readlink(`${proc}/self/ns/pid`);
    if (!boot || !/^pid:\[\d+\]$/.test(namespace)) return NO_SCOPE;
    return createHash('sha256').update(`${boot}\n${namespace}`).digest('hex').slice(0, 12);
  } catch {
    return NO_SCOPE;
  }
}

let own: Promise<Claimer> | null = null;

/** This process as its claims name it; read once. */
export function thisClaimer(): Promise<Claimer> {
  own ??= Promise.all([processStart(process.pid), claimerScope()]).then(([start, scope]) => ({ pid: process.pid, start, scope }));
  return own;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException)?.code === 'EPERM';
  }
}

/**
 * Whether the claimer surely no longer runs: its pid is gone, or names a process started at another
 * time. `false` where that cannot be told (see the module's comment): the claim's age decides then.
 *
 * @param claimer - what the claim names; `start` and `scope` are missing in claims of earlier versions.
 * @param ownScope - this process's scope. @default {@link thisClaimer}'s
 */
export async function claimerGone(claimer: { pid: number; start?: string | undefined; scope?: string | undefined }, ownScope?: string): Promise<boolean> {
  const scope = ownScope ?? (await thisClaimer()).scope;
  if (!Number.isSafeInteger(claimer.pid) || claimer.pid <= 1) return false;
  if (scope === NO_SCOPE || claimer.scope !== scope) return false;
  if (!alive(claimer.pid)) return true;
  if (claimer.start === undefined || claimer.start === '0') return false;
  const start = await processStart(claimer.pid);
  return start !== '0' && start !== claimer.start;
}
