/**
 * What every command-line entry shares: strict flag parsing with `--help`,
 * usage errors that exit 2, and one-line messages for every failure.
 */
import { isAbsolute, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The flags a command accepts, as `node:util` `parseArgs` takes them. */
export type CliOptions = NonNullable<ParseArgsConfig['options']>;

/** The values of the flags in `O`, typed as `parseArgs` types them in strict mode. */
export type CliValues<O extends CliOptions> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true }>>['values'];

/** A mistake in how the command was called: exits 2 and points to `--help`. */
export class UsageError extends Error {}

/**
 * The folder the user ran the command in. `npm start` and `npm run` run a
 * script in the package's folder and set `INIT_CWD` to the folder npm was
 * started from; without it (the script run directly), the working directory.
 */
export function invocationDir(): string {
  const dir = process.env['INIT_CWD'];
  return dir !== undefined && isAbsolute(dir) ? dir : process.cwd();
}

/**
 * A path the user typed, made absolute against {@link invocationDir}.
 *
 * @param path - as given on the command line.
 */
export function userPath(path: string): string {
  return resolve(invocationDir(), path);
}

/**
 * Progress of a long run: one line on stderr when stderr is a terminal, and
 * nothing otherwise, so redirected output and logs hold only results.
 *
 * @param stream - where progress goes (stderr).
 */
export function progressLine(stream: NodeJS.WriteStream = process.stderr): (text: string) => void {
  return stream.isTTY ? (text) => void stream.write(`${text}\n`) : () => undefined;
}

/**
 * Runs `read`, turning anything it throws into a {@link UsageError} with the
 * same message: for flag values that a library function checks.
 *
 * @param read - reads or checks something the user typed.
 * @returns what `read` returns.
 */
export function asUsageError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * The value of a flag that counts something (runs, worker threads), as a number.
 *
 * @param flag - the flag's name, without its dashes.
 * @param text - its value as typed.
 * @throws UsageError when the value is not an integer of at least 1.
 */
export function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${flag} must be a positive integer (got "${text}")`);
  return value;
}

/** The flags of a command that starts a worker pool: how many threads, and whether they warm up first. */
export const POOL_FLAGS = {
  threads: { type: 'string' },
  'no-warm-up': { type: 'boolean', default: false },
} as const satisfies CliOptions;

/**
 * The pool options of {@link POOL_FLAGS} as given; what is not given is left to the plugin's defaults.
 *
 * @param values - the parsed flags.
 * @throws UsageError when `--threads` is not a positive integer.
 */
export function poolOptionsOf(values: { threads?: string | undefined; 'no-warm-up'?: boolean | undefined }): { threads?: number; warmUp?: boolean } {
  return {
    ...(values.threads !== undefined ? { threads: positiveInteger('threads', values.threads) } : {}),
    ...(values['no-warm-up'] ? { warmUp: false } : {}),
  };
}

/**
 * Parses `argv` strictly against `options` plus `--help`; for `--help` it
 * prints `usage` to stdout instead.
 *
 * @param argv - the arguments after the script's path.
 * @param options - the command's flags, without `help`.
 * @param usage - the text `--help` prints, without a final newline.
 * @returns the flag values, or `undefined` when `--help` was given and nothing else should run.
 * @throws UsageError for an unknown flag, a flag without its value, or an argument that is not a flag.
 */
export function parseCliArgs<const O extends CliOptions>(argv: string[], options: O, usage: string): CliValues<O> | undefined {
  return parseCliCommand(argv, options, usage, 0)?.values;
}

/**
 * {@link parseCliArgs} for a command that also takes up to `maxPositionals` arguments that are not flags (file names).
 *
 * @param argv - the arguments after the command's name.
 * @param options - the command's flags, without `help`.
 * @param usage - the text `--help` prints, without a final newline.
 * @param maxPositionals - how many other arguments the command takes at most.
 * @returns the flag values and the other arguments, or `undefined` after `--help`.
 * @throws UsageError for an unknown flag, a flag without its value, or too many other arguments.
 */
export function parseCliCommand<const O extends CliOptions>(
  argv: string[],
  options: O,
  usage: string,
  maxPositionals: number,
): { values: CliValues<O>; positionals: string[] } | undefined {
  const parsed = asUsageError(() =>
    parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', default: false } }, strict: true, allowPositionals: maxPositionals > 0 }),
  );
  const { help, ...values } = parsed.values as Record<string, unknown>;
  if (help) {
    process.stdout.write(`${usage}\n`);
    return undefined;
  }
  if (parsed.positionals.length > maxPositionals) throw new UsageError(`unexpected argument "${parsed.positionals[maxPositionals]}"`);
  return { values: values as CliValues<O>, positionals: parsed.positionals };
}

/**
 * Runs a command's `main` on the process arguments and sets the exit code:
 * what `main` returns, unless something already set one (a failed write to
 * stdout); 2 after a {@link UsageError}; 1 after any other error, which is
 * printed as one line, `<name>: message`, on stderr.
 *
 * @param name - the prefix of error messages.
 * @param main - the command; it gets the arguments after the script's path.
 */
export function runCli(name: string, main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      if (process.exitCode === undefined) process.exitCode = code;
    },
    (error: unknown) => {
      process.exitCode = reportFailure(name, error);
    },
  );
}

/**
 * Tells on stderr why a command failed, and gives its exit code: a {@link UsageError} in one line that points
 * to `--help` (2); any other error in one line (1), or with its stack when `stack` is set (a benchmark's
 * failure, where the stack says which step broke).
 *
 * @param name - the prefix of the message.
 * @param error - what the command threw.
 * @param stack - whether an error other than a usage error is told with its stack.
 */
export function reportFailure(name: string, error: unknown, stack = false): number {
  if (error instanceof UsageError) {
    process.stderr.write(`${name}: ${error.message} (see --help)\n`);
    return 2;
  }
  const message = error instanceof Error ? ((stack ? error.stack : undefined) ?? error.message) : String(error);
  process.stderr.write(`${name}: ${message}\n`);
  return 1;
}
