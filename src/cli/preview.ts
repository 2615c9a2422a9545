/**
 * `npm start`: runs the extraction through the worker pool on a session export
 * (a generated one by default) and shows what a compaction would preserve.
 * On the generated demo (or with `--store`) it then runs the rest of the
 * pipeline against the built-in file store in a temporary root, removed on
 * exit: the notes and summary thoughts written, and the graph context the
 * next session receives.
 */
import { parseSize } from '../synth/session-size.js';
import { report } from './report.js';
import { asUsageError, parseCliArgs, POOL_FLAGS, poolOptionsOf, runCli, UsageError, userPath } from './run-cli.js';

const USAGE = `Usage: npm start --silent -- [--session FILE] [--size 1MB] [--seed N] [--json] [--store | --no-store] [--root DIR] [--keep] [--threads N] [--no-warm-up]

Runs the extraction engine through the worker pool and shows what a compaction
would preserve: concepts, decisions by category, the working set, the
preservation context with its exact token count, and per-stage timings. On the
generated session (or with --store) it then keeps three compactions of the
session in the built-in file store (maenifold's file layout, no maenifold
needed) and shows the notes, the summary chain, and the graph context a next
session's system prompt receives.

  --session FILE  a session export (\`opencode export <id>\`) or a message list (JSON);
                  a relative path is read from the folder npm was run in
  --size SIZE     size of the generated session when no file is given (default 1MB)
  --seed N        seed of the generated session (default 1)
  --json          print one JSON object on stdout and nothing else
  --store         with --session: run the file-store walkthrough too
  --no-store      stop after the extraction
  --root DIR      the store's MAENIFOLD_ROOT, kept (default: a temporary folder, removed on exit)
  --keep          keep the temporary folder and name it on stderr
  --threads N     worker threads (default: the plugin's)
  --no-warm-up    start extracting without warming the workers up first: less work in all,
                  and the timings show a cold worker's first extraction
  --help          show this text

Progress of long runs goes to stderr when it is a terminal.`;

async function main(argv: string[]): Promise<number> {
  const args = parseCliArgs(
    argv,
    {
      session: { type: 'string' },
      size: { type: 'string', default: '1MB' },
      seed: { type: 'string', default: '1' },
      json: { type: 'boolean', default: false },
      root: { type: 'string' },
      store: { type: 'boolean', default: false },
      'no-store': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      ...POOL_FLAGS,
    },
    USAGE,
  );
  if (!args) return 0;
  if (args.store && args['no-store']) throw new UsageError('--store and --no-store exclude each other');
  const seed = Number(args.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer (got "${args.seed}")`);
  const targetBytes = asUsageError(() => parseSize(args.size ?? '1MB'));
  const pool = poolOptionsOf(args);
  const sessionFile = args.session !== undefined ? userPath(args.session) : undefined;
  const output = await report({
    session: sessionFile !== undefined ? { file: sessionFile } : { generate: { size: args.size ?? '1MB', targetBytes, seed } },
    json: args.json ?? false,
    // The walkthrough writes three notes of its own: a demo of the generated session, or asked for.
    store: sessionFile === undefined ? !args['no-store'] : (args.store ?? false),
    ...(args.root !== undefined ? { root: userPath(args.root) } : {}),
    keep: args.keep ?? false,
    pool,
  });
  process.stdout.write(output);
  return 0;
}

runCli('opencode-maenifold', main);
