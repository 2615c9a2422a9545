/**
 * `npm run profile`: where a compaction's time goes, per stage and per
 * thread, on a generated or given session; CPU profiles of every thread in
 * files Chrome DevTools and speedscope open (see docs/profiling.md).
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionExport } from '../core/session-types.js';
import { exportHead, messagesOf } from '../main/session/session-export.js';
import { generateSession, growSession } from '../synth/session-generator.js';
import { parseSize } from '../synth/session-size.js';
import { runProfile } from '../profile/run-profile.js';
import { formatProfileReport } from '../profile/format-report.js';
import { asUsageError, parseCliArgs, positiveInteger, progressLine, runCli, UsageError, userPath } from './run-cli.js';

const USAGE = `Usage: npm run profile --silent -- [--size 10MB] [--seed N] [--session FILE] [--out DIR] [--runs N] [--incremental 100KB] [--threads N] [--svg] [--json]

Runs the compacting hook's extraction (the worker pool, the per-message and
final passes, the budget) on a session, cold and again after the session grew,
and shows per thread where the time went: a table of stages (self time, share,
calls) and the functions with the most self time. Writes a V8 CPU profile
(.cpuprofile) of the hook thread and of each worker for each compaction,
and with --svg a flame graph of each next to it.

  --size SIZE         size of the generated session (default 10MB)
  --seed N            seed of the generated session (default 1)
  --session FILE      a session export (\`opencode export <id>\`) or a message list, instead
  --out DIR           where the profiles go (default: a new folder in the system's temporary folder)
  --runs N            compactions of each kind, each pair with a new engine (default 1)
  --incremental SIZE  what the session grows by before the second compaction (default 100KB)
  --threads N         worker threads (default: the plugin's)
  --svg               also draw each profile as a flame graph, <name>.svg next to <name>.cpuprofile
  --json              print one JSON object on stdout instead of the tables
  --help              show this text`;

async function loadSession(path: string): Promise<SessionExport> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${path} as JSON (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const messages = messagesOf(parsed);
  if (!messages) throw new Error(`${path} is not a session export: expected { "messages": [...] } or an array of messages`);
  // A bare message list has no session info; the grown copy needs an id for its new messages.
  return { info: { id: 'ses_profile', ...exportHead(parsed).metadata }, messages } as SessionExport;
}

/** The session's own directory (`info.directory`), the root its paths are relative to. */
function sessionDirectory(session: SessionExport): string | null {
  return exportHead(session).directory;
}

async function main(argv: string[]): Promise<number> {
  const args = parseCliArgs(
    argv,
    {
      size: { type: 'string', default: '10MB' },
      seed: { type: 'string', default: '1' },
      session: { type: 'string' },
      out: { type: 'string' },
      runs: { type: 'string', default: '1' },
      incremental: { type: 'string', default: '100KB' },
      threads: { type: 'string' },
      svg: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    USAGE,
  );
  if (!args) return 0;
  const seed = Number(args.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer (got "${args.seed}")`);
  const runs = positiveInteger('runs', args.runs ?? '1');
  const threads = args.threads === undefined ? undefined : positiveInteger('threads', args.threads);
  const targetBytes = asUsageError(() => parseSize(args.size ?? '10MB'));
  const growBytes = asUsageError(() => parseSize(args.incremental ?? '100KB'));
  const progress = progressLine();
  const file = args.session !== undefined ? userPath(args.session) : undefined;
  if (file === undefined) progress(`generating a ${args.size} session (seed ${seed}) …`);
  const session = file !== undefined ? await loadSession(file) : generateSession({ seed, targetBytes });
  let grown: SessionExport;
  try {
    grown = growSession(session, growBytes, seed + 1);
  } catch (error) {
    throw new Error(`cannot grow the session for the incremental compaction: ${(error as Error).message}`);
  }
  const outDir = args.out !== undefined ? userPath(args.out) : await mkdtemp(join(tmpdir(), 'maenifold-profile-'));
  // Under Bun the pool's workers do not keep the process alive: it would end while they warm up.
  const keepAlive = setInterval(() => undefined, 60_000);
  let report: Awaited<ReturnType<typeof runProfile>>;
  try {
    report = await runProfile({ session, grown, outDir, runs, projectRoot: sessionDirectory(session), svg: args.svg === true, ...(threads !== undefined ? { threads } : {}) }, progress);
  } finally {
    clearInterval(keepAlive);
  }
  const source = file ?? `generated session (${args.size}, seed ${seed}), then ${args.incremental} more`;
  process.stdout.write(args.json ? `${JSON.stringify({ source, ...report })}\n` : formatProfileReport(source, report));
  return 0;
}

runCli('opencode-maenifold profile', main);
