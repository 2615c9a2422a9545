/**
 * `npm start`: runs the extraction through the worker pool on a session export
 * (a generated one by default) and shows what a compaction would preserve,
 * then the rest of the pipeline against the built-in file store in a
 * temporary root: the notes and summary thoughts written, and the graph
 * context the next session receives.
 */
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { formatWalkthrough, runStoreWalkthrough, type Walkthrough } from './store-walkthrough.js';
import { createWorkerPool } from '../main/worker-pool.js';
import { createExtractionEngine, type Extraction } from '../main/extraction-engine.js';
import { messagesOf } from '../main/session-units.js';
import { generateSession, parseSize } from '../synth/session-generator.js';
import { formatExtraction } from './format-extraction.js';
import { asUsageError, parseCliArgs, runCli, UsageError } from './run-cli.js';

const USAGE = `Usage: npm start [-- --session FILE] [--size 1MB] [--seed N] [--json] [--root DIR] [--no-store]

Runs the extraction engine through the worker pool and shows what a compaction
would preserve: concepts, decisions by category, the working set, the
preservation context with its exact token count, and per-stage timings. Then
keeps three compactions of the session in the built-in file store (maenifold's
file layout, no maenifold needed) and shows the notes, the summary chain, and
the graph context a next session's system prompt receives.

  --session FILE  a session export (\`opencode export <id>\`) or a message list (JSON)
  --size SIZE     size of the generated session when no file is given (default 1MB)
  --seed N        seed of the generated session (default 1)
  --json          print one JSON object instead of the report
  --root DIR      the store's MAENIFOLD_ROOT (default: a new temporary folder)
  --no-store      stop after the extraction
  --help          show this text`;

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
      'no-store': { type: 'boolean', default: false },
    },
    USAGE,
  );
  if (!args) return 0;
  const seed = Number(args.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer (got "${args.seed}")`);
  const targetBytes = asUsageError(() => parseSize(args.size ?? '1MB'));
  const session = args.session ? await loadSession(args.session) : generateSession({ seed, targetBytes });
  const source = args.session ?? `generated session (${args.size}, seed ${seed})`;

  const pool = createWorkerPool();
  try {
    const ready = await pool.ready;
    if (!ready.ok) throw new Error(`the worker pool did not start: ${ready.error.message}`);
    // Like the hook's worktree: without one, the final pass infers the root from the session's paths.
    const engine = createExtractionEngine(pool, { projectRoot: sessionDirectory(session) });
    const result = await engine.extract(session);
    if (!result.ok) throw new Error(`extraction failed (${result.error.code}): ${result.error.message}`);
    const extraction: Extraction = result.value;
    let store: Walkthrough | null = null;
    if (!args['no-store']) {
      const root = args.root ? resolve(args.root) : await mkdtemp(join(tmpdir(), 'maenifold-preview-'));
      const stateDir = join(root, '.preview-state');
      await mkdir(stateDir, { recursive: true });
      store = await runStoreWalkthrough({ extraction, runner: pool, engine, root, stateDir, project: 'preview-project', sessionID: 'ses_preview0001' });
    }
    process.stdout.write(
      args.json ? `${JSON.stringify({ source, ...extraction, ...(store ? { store } : {}) })}\n` : formatExtraction(source, extraction) + (store ? formatWalkthrough(store) : ''),
    );
    return 0;
  } finally {
    await pool.destroy();
  }
}

runCli('opencode-maenifold', main);
