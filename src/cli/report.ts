/**
 * What `npm start` and `opencode-maenifold report` share: run the extraction
 * through the worker pool on a session export (or a generated session) and,
 * when asked, the rest of the pipeline against the built-in file store in a
 * temporary root that is removed on exit.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatWalkthrough, runStoreWalkthrough, type Walkthrough } from './store-walkthrough.js';
import { createWorkerPool } from '../main/pool/worker-pool.js';
import { createExtractionEngine, type Extraction } from '../main/compaction/extraction-engine.js';
import { exportHead, messagesOf } from '../main/session/session-export.js';
import { readMessage } from '../main/session/message-view.js';
import { generateSession } from '../synth/session-generator.js';
import { formatExtraction } from './format-extraction.js';
import { progressLine } from './run-cli.js';

/** What to report on and how. */
export interface ReportRequest {
  /** An absolute path to a session export, or a generated session. */
  session: { file: string } | { generate: { size: string; targetBytes: number; seed: number } };
  /** One JSON object instead of the text report. */
  json: boolean;
  /** Run the file-store walkthrough after the extraction. */
  store: boolean;
  /** The store's root, kept; without it, a temporary folder. */
  root?: string;
  /** Keep the temporary folder and name it on stderr. */
  keep: boolean;
  /** Options of the worker pool (threads, warm-up); what is not given is the plugin's default. */
  pool?: { threads?: number; warmUp?: boolean };
}

/** The temporary store root of this run while it exists and is to be removed. */
let temporaryRoot: string | null = null;
let cleanupInstalled = false;

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

/** Removes the temporary root however the process ends; installed once, when there is a root to remove. */
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
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
  return readMessage(message)?.texts.some(({ text }) => text.trim() !== '') ?? false;
}

/** The session's own directory (`info.directory` of an export), the root its paths are relative to; `null` when it has none. */
function sessionDirectory(session: unknown): string | null {
  return exportHead(session).directory;
}

/**
 * Runs the extraction (and the walkthrough when asked) and returns what to print on stdout.
 *
 * @param request - the session and the form of the report.
 * @throws Error with a one-line message when the session cannot be read or the pool cannot run.
 */
export async function report(request: ReportRequest): Promise<string> {
  const progress = progressLine();
  const { session: wanted } = request;
  if ('generate' in wanted) progress(`generating a ${wanted.generate.size} session (seed ${wanted.generate.seed}) …`);
  const session = 'file' in wanted ? await loadSession(wanted.file) : generateSession({ seed: wanted.generate.seed, targetBytes: wanted.generate.targetBytes });
  const source = 'file' in wanted ? wanted.file : `generated session (${wanted.generate.size}, seed ${wanted.generate.seed})`;

  const pool = createWorkerPool(request.pool ?? {});
  try {
    const ready = await pool.ready;
    if (!ready.ok) throw new Error(`the worker pool did not start: ${ready.error.message}`);
    const { threads } = pool.options;
    progress(`extracting with ${threads} worker thread${threads === 1 ? '' : 's'} …`);
    // Like the hook's worktree: without one, the final pass infers the root from the session's paths.
    const engine = createExtractionEngine(pool, { projectRoot: sessionDirectory(session) });
    const result = await engine.extract(session);
    if (!result.ok) throw new Error(`extraction failed (${result.error.code}): ${result.error.message}`);
    const extraction: Extraction = result.value;
    let store: Walkthrough | null = null;
    let removed = false;
    if (request.store) {
      let root: string;
      if (request.root !== undefined) root = request.root;
      else {
        // The handlers first, then the folder made and registered in one synchronous step: a signal is
        // handled between two turns of the loop, so it finds either no folder or a registered one.
        if (!request.keep) installCleanup();
        root = mkdtempSync(join(tmpdir(), 'maenifold-preview-'));
        if (!request.keep) temporaryRoot = root;
        removed = !request.keep;
      }
      const stateDir = join(root, '.preview-state');
      await mkdir(stateDir, { recursive: true });
      progress('keeping three compactions in the file store …');
      store = await runStoreWalkthrough({ extraction, runner: pool, engine, root, stateDir, project: 'preview-project', sessionID: 'ses_preview0001' });
      if (request.keep && request.root === undefined) process.stderr.write(`kept: ${root}\n`);
    }
    return request.json
      ? `${JSON.stringify({ source, ...extraction, ...(store ? { store: { ...store, removed } } : {}) })}\n`
      : formatExtraction(source, extraction) + (store ? formatWalkthrough(store, removed) : '');
  } finally {
    await pool.destroy();
    if (temporaryRoot !== null) {
      const root = temporaryRoot;
      temporaryRoot = null;
      await rm(root, { recursive: true, force: true });
    }
  }
}
