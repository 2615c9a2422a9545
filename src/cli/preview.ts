/**
 * `npm start`: runs the extraction through the worker pool on a session export
 * (a generated one by default) and shows what a compaction would preserve.
 * On the generated demo (or with `--store`) it then runs the rest of the
 * pipeline against the built-in file store in a temporary root, removed on
 * exit: the notes and summary thoughts written, and the graph context the
 * next session receives.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatWalkthrough, runStoreWalkthrough, type Walkthrough } from './store-walkthrough.js';
import { createWorkerPool } from '../main/pool/worker-pool.js';
import { createExtractionEngine, type Extraction } from '../main/compaction/extraction-engine.js';
import { messagesOf } from '../main/compaction/session-units.js';
import { generateSession } from '../synth/session-generator.js';
import { parseSize } from '../synth/session-size.js';
import { formatExtraction } from './format-extraction.js';
import { asUsageError, parseCliArgs, progressLine, runCli, UsageError, userPath } from './run-cli.js';

const USAGE = `Usage: npm start --silent -- [--session FILE] [--size 1MB] [--seed N] [--json] [--store | --no-store] [--root DIR] [--keep]

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
  --help          show this text

Progress of long runs goes to stderr when it is a terminal.`;

/** The temporary store root of this run while it exists and is to be removed. */
let temporaryRoot: string | null = null;

/** Removes the temporary root, synchronously: it also runs from `exit` and signal handlers. */
function removeTemporaryRoot(): void {
  if (temporaryRoot === null) return;
  const root = temporaryRoot;
  temporaryRoot = null;
  try {
    rmSync(root, { recursive: true, force: true });
  } catch {
    // Nothing more can be done on the way out; the folder's name was under the system's temporary folder.
  }
}

process.once('exit', removeTemporaryRoot);
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.once(signal, () => {
    removeTemporaryRoot();
    process.exit(code);
  });
}

async function loadSession(path: string): Promise<unknown> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`cannot read ${path} (${code})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${path} is not JSON: expected a session export or a message list`);
  }
  const messages = messagesOf(parsed);
  if (!messages) throw new Error(`${path} is not a session export: expected { "messages": [...] } or an array of messages`);
  if (!messages.some(hasText)) throw new Error(`${path} is not a session export: none of its ${messages.length} messages has a text part`);
  return parsed;
}

/** Whether a message of an export has a text part with some text: a session has at least one. */
function hasText(message: unknown): boolean {
  const parts = (message as { parts?: unknown } | null)?.parts;
  return Array.isArray(parts) && parts.some((part) => (part as { type?: unknown } | null)?.type === 'text' && typeof (part as { text?: unknown }).text === 'string' && (part as { text: string }).text.trim() !== '');
}

/** The session's own directory (`info.directory` of an export), the root its paths are relative to; `null` when it has none. */
function sessionDirectory(session: unknown): string | null {
  const info = typeof session === 'object' && session !== null ? (session as { info?: unknown }).info : undefined;
  const directory = typeof info === 'object' && info !== null ? (info as { directory?: unknown }).directory : undefined;
  return typeof directory === 'string' && directory.trim().length > 0 ? directory : null;
}

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
    },
    USAGE,
  );
  if (!args) return 0;
  if (args.store && args['no-store']) throw new UsageError('--store and --no-store exclude each other');
  const seed = Number(args.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer (got "${args.seed}")`);
  const targetBytes = asUsageError(() => parseSize(args.size ?? '1MB'));
  const progress = progressLine();
  const sessionFile = args.session !== undefined ? userPath(args.session) : undefined;
  if (sessionFile === undefined) progress(`generating a ${args.size} session (seed ${seed}) …`);
  const session = sessionFile !== undefined ? await loadSession(sessionFile) : generateSession({ seed, targetBytes });
  const source = sessionFile ?? `generated session (${args.size}, seed ${seed})`;
  // The walkthrough writes three notes of its own: a demo of the generated session, or asked for.
  const walk = sessionFile === undefined ? !args['no-store'] : args.store;

  const pool = createWorkerPool();
  try {
    const ready = await pool.ready;
    if (!ready.ok) throw new Error(`the worker pool did not start: ${ready.error.message}`);
    progress(`extracting with ${pool.options.threads} worker threads …`);
    // Like the hook's worktree: without one, the final pass infers the root from the session's paths.
    const engine = createExtractionEngine(pool, { projectRoot: sessionDirectory(session) });
    const result = await engine.extract(session);
    if (!result.ok) throw new Error(`extraction failed (${result.error.code}): ${result.error.message}`);
    const extraction: Extraction = result.value;
    let store: Walkthrough | null = null;
    let removed = false;
    if (walk) {
      let root: string;
      if (args.root !== undefined) root = userPath(args.root);
      else {
        root = await mkdtemp(join(tmpdir(), 'maenifold-preview-'));
        if (!args.keep) temporaryRoot = root;
        removed = !args.keep;
      }
      const stateDir = join(root, '.preview-state');
      await mkdir(stateDir, { recursive: true });
      progress('keeping three compactions in the file store …');
      store = await runStoreWalkthrough({ extraction, runner: pool, engine, root, stateDir, project: 'preview-project', sessionID: 'ses_preview0001' });
      if (args.keep && args.root === undefined) process.stderr.write(`kept: ${root}\n`);
    }
    process.stdout.write(
      args.json
        ? `${JSON.stringify({ source, ...extraction, ...(store ? { store: { ...store, removed } } : {}) })}\n`
        : formatExtraction(source, extraction) + (store ? formatWalkthrough(store, removed) : ''),
    );
    return 0;
  } finally {
    await pool.destroy();
    if (temporaryRoot !== null) {
      const root = temporaryRoot;
      temporaryRoot = null;
      await rm(root, { recursive: true, force: true });
    }
  }
}

runCli('opencode-maenifold', main);
