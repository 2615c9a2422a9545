/**
 * The real `opencode serve`, isolated: its own HOME and XDG folders, no
 * update checks, model fetches or sharing, loopback only, a free port, and
 * stopped by PID (then reaped) whatever happens to the test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { linkConfigDir } from './runtime.js';

/** A running server. */
export interface OpenCodeServer {
  url: string;
  pid: number;
  /** Everything it printed (logs included: it runs with --print-logs). */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with how long the exit took. */
  stop(graceMs?: number): Promise<{ exitedAfterMs: number; killed: boolean }>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The isolated environment of a run rooted at `root`.
 *
 * @param root - holds the run's HOME and XDG folders.
 * @param extra - variables to add or override.
 * @param template - from `prepareRuntime`: for a server, its global config
 *   folder links the template's plugin API install (see `linkConfigDir`).
 */
export async function isolatedEnv(root: string, extra: Record<string, string>, template?: string): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'xdg', 'config'),
    XDG_DATA_HOME: join(root, 'xdg', 'data'),
    XDG_CACHE_HOME: join(root, 'xdg', 'cache'),
    XDG_STATE_HOME: join(root, 'xdg', 'state'),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_SHARE: '1',
    ...extra,
  };
  for (const key of ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME']) await mkdir(env[key] as string, { recursive: true });
  if (template) await linkConfigDir(join(env['XDG_CONFIG_HOME'] as string, 'opencode'), template);
  return env;
}

/**
 * @param binary - the OpenCode binary.
 * @param cwd - where the server starts.
 * @param env - from {@link isolatedEnv}.
 * @param startTimeoutMs - how long to wait for "listening on".
 */
export async function startOpenCode(binary: string, cwd: string, env: NodeJS.ProcessEnv, startTimeoutMs = 60_000): Promise<OpenCodeServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(binary, ['serve', '--hostname', '127.0.0.1', '--port', String(port), '--print-logs', '--log-level', 'INFO'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`opencode serve did not listen within ${startTimeoutMs} ms:\n${printed.slice(-2000)}`)), startTimeoutMs);
    const check = (): void => {
      if (/listening on/.test(printed)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`opencode serve exited with ${code} before listening:\n${printed.slice(-2000)}`));
    });
  });
  const stop = async (graceMs = 5_000): Promise<{ exitedAfterMs: number; killed: boolean }> => {
    const start = Date.now();
    if (child.exitCode !== null || child.signalCode !== null) return { exitedAfterMs: 0, killed: false };
    child.kill('SIGTERM');
    const graceful = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs))]);
    if (!graceful) {
      child.kill('SIGKILL');
      await exited;
    }
    return { exitedAfterMs: Date.now() - start, killed: !graceful };
  };
  try {
    await listening;
  } catch (error) {
    await stop(1_000);
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? -1, output: () => printed, stop };
}
