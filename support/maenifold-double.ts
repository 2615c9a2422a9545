import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The executable test double (a POSIX sh wrapper that execs the .mjs, so its pid is node's):
 * maenifold's CLI contract as far as the plugin uses it, plus injectable faults
 * (`MAENIFOLD_DOUBLE_FAULT`: hang, garbage, cutoff, crash, huge, slow:<ms>, error:<CODE>).
 */
export const doubleCliPath = fileURLToPath(new URL('./maenifold-double/maenifold', import.meta.url));

/** One invocation of the double, as appended to `MAENIFOLD_DOUBLE_LOG`. */
export interface RecordedCall {
  /** Every argument after the executable. */
  argv: string[];
  /** The `--tool` value as given (not canonicalised), or null when absent. */
  tool: string | null;
  /** The parsed `--payload`, or its raw text when it was not valid JSON, or null when absent. */
  payload: unknown;
  /** Whether `--json` was passed. */
  json: boolean;
  /** ISO timestamp of the call. */
  at: string;
}

/** Environment that points a spawned CLI at one double root. */
export interface DoubleEnv {
  MAENIFOLD_ROOT: string;
  MAENIFOLD_DOUBLE_LOG: string;
  MAENIFOLD_CLI: string;
  [name: string]: string;
}

/** What a run of the double produced; `code` is the exit code (null when killed by a signal). */
export interface DoubleRun {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** A throwaway `MAENIFOLD_ROOT` wired to the double. */
export interface DoubleRoot {
  /** The temporary `MAENIFOLD_ROOT`; markdown lives under `<root>/memory`. */
  root: string;
  /** Path of the double's executable. */
  cliPath: string;
  /** Path of the call log (exists after the first call). */
  logPath: string;
  /** Variables to merge into a child's environment. */
  env: DoubleEnv;
  /** The calls recorded so far, oldest first. */
  calls(): Promise<RecordedCall[]>;
  /**
   * Writes markdown files under `memory/` (keys are relative paths; `.md` is
   * added when missing) and then runs `--tool Sync` so the graph sees them.
   */
  seed(files: Record<string, string>): Promise<DoubleRun>;
  /** Deletes the root and everything in it. */
  cleanup(): Promise<void>;
}

/**
 * Runs the double with `args` and `env` merged over the current environment.
 * Resolves for every exit code and for a kill by timeout (`code: null`); rejects only
 * when the child cannot be spawned or prints more than 64 MiB.
 * @param args  the CLI arguments, e.g. `['--tool', 'Sync', '--payload', '{}']`
 * @param env  extra environment, usually `DoubleRoot.env`
 * @param timeoutMs  kill the child (SIGKILL) after this long; 0 waits forever
 */
export function runDouble(args: string[], env: Record<string, string>, timeoutMs = 0): Promise<DoubleRun> {
  return new Promise((resolve, reject) => {
    execFile(
      doubleCliPath,
      args,
      { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error && typeof error.code === 'string') {
          reject(error);
          return;
        }
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ stdout, stderr, code });
      },
    );
  });
}

/** Creates a temporary root with an empty `memory/` folder. Call `cleanup()` when done. */
export async function createDoubleRoot(): Promise<DoubleRoot> {
  const root = await mkdtemp(join(tmpdir(), 'maenifold-double-'));
  await mkdir(join(root, 'memory'), { recursive: true });
  const logPath = join(root, 'calls.jsonl');
  const env: DoubleEnv = { MAENIFOLD_ROOT: root, MAENIFOLD_DOUBLE_LOG: logPath, MAENIFOLD_CLI: doubleCliPath };

  return {
    root,
    cliPath: doubleCliPath,
    logPath,
    env,
    async calls() {
      let text: string;
      try {
        text = await readFile(logPath, 'utf8');
      } catch {
        // No log yet: nothing was called.
        return [];
      }
      // A call being appended while this reads is not a call yet: only lines that end are read.
      return text
        .slice(0, text.lastIndexOf('\n') + 1)
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as RecordedCall);
    },
    async seed(files) {
      for (const [relative, content] of Object.entries(files)) {
        const path = join(root, 'memory', relative.endsWith('.md') ? relative : `${relative}.md`);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, content);
      }
      return runDouble(['--tool', 'Sync', '--payload', '{}'], env);
    },
    async cleanup() {
      await rm(root, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
