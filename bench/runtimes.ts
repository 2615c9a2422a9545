/**
 * The bench under the runtime users run: OpenCode loads plugins into its own
 * Bun, so the same benchmark also runs under the Bun of the pinned OpenCode
 * binary (installed by the project's own files, as the e2e suite does), and
 * the two are shown side by side.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureOpenCode } from '../support/opencode/runtime.js';

/** Which runtimes a bench run measures. */
export type RuntimeChoice = 'node' | 'bun' | 'both';

/** The runtime this process runs on, with its version (`node 20.20.2`, `bun 1.3.14`). */
export function currentRuntime(): string {
  const bun = (globalThis as { Bun?: { version?: string } }).Bun;
  return bun ? `bun ${bun.version ?? 'unknown'}` : `node ${process.versions.node}`;
}

/** Whether this process runs on Bun. */
export function onBun(): boolean {
  return currentRuntime().startsWith('bun');
}

/**
 * How to start a TypeScript script of the bench as a child of this runtime: Bun runs TypeScript
 * itself (the OpenCode binary acts as Bun while `BUN_BE_BUN=1` is set, which the child inherits);
 * Node needs tsx.
 *
 * @param file - the script.
 * @param args - its arguments.
 */
export function scriptCommand(file: string, args: readonly string[]): { command: string; args: string[] } {
  return onBun() ? { command: process.execPath, args: [file, ...args] } : { command: process.execPath, args: ['--import', 'tsx', file, ...args] };
}

/**
 * Runs this bench again under OpenCode's Bun with `args`, its stderr passed through.
 *
 * @param args - the bench's arguments, without `--runtime`.
 * @returns its exit code and standard output.
 */
export async function benchUnderBun(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  const binary = await ensureOpenCode();
  const script = fileURLToPath(new URL('./run.ts', import.meta.url));
  return await new Promise((resolve, reject) => {
    const child = spawn(binary, ['run', script, ...args, '--runtime', 'bun'], {
      env: { ...process.env, BUN_BE_BUN: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

/** The figures compared across runtimes, at one size. */
const COMPARED = [
  'pool_p50_ms',
  'whole_pool_p50_ms',
  'inline_p50_ms',
  'incremental_p50_ms',
  'loop_delay_max_ms_pool',
  'loop_delay_max_ms_inline',
  'compacting_hook_p50_ms',
  'compacting_hook_repeat_p50_ms',
  'compacting_hook_stall_max_ms',
  'compacting_hook_repeat_stall_max_ms',
  'compacting_hook_stall_p50_ms',
  'compacting_hook_repeat_stall_p50_ms',
] as const;

/**
 * One row per figure: its value under each runtime, at one size.
 *
 * @param reports - each runtime's `sizes` figures, by runtime name.
 * @param size - the size compared (`10MB`).
 */
export function sideBySide(reports: Record<string, Record<string, object | undefined>>, size: string): Record<string, string | number | null>[] {
  return COMPARED.map((figure) => {
    const row: Record<string, string | number | null> = { [`${size} figure`]: figure };
    for (const [runtime, sizes] of Object.entries(reports)) {
      const value = (sizes[size] as Record<string, unknown> | undefined)?.[figure];
      row[runtime] = typeof value === 'number' ? Math.round(value * 10) / 10 : null;
    }
    return row;
  });
}
